"""Rope's rename as a reference for test/bench/rename-bench.mjs (its --rope flag).

Reads one JSON request on stdin and prints one JSON answer on stdout:

  request  {"root": checkout, "pythonPath": [folders], "doa": {"args": [pytest arguments]} or null,
            "queries": [{"path": "src/pkg/mod.py", "line": 1-based, "col": 0-based, "newName": "x"}]}
  answer   {"rope": version, "soa": {"seconds", "modules"}, "doa": {"seconds", "calls", "exit"},
            "results": [{"locations": ["path:line:col", ...]} or {"error": "..."}]}

The project is analysed the way Rope's own documentation describes, before any rename:
  * SOA   rope.base.libutils.analyze_modules over every Python file of the project;
  * DOA   the project's test suite run through Rope's runner (pycore.run_module, the tracer of
          rope/base/oi/runmod.py in a child process) from a small driver file that calls
          pytest.main(args): the tracer records the objects each project function was called
          with, so a test function that pytest calls with its fixtures' values has typed
          parameters. The child is this interpreter (sys.executable), so pytest is the one the
          bench's suite runs use.
Then each query is Rope's Rename at that position, get_changes(new, in_hierarchy=True) (Rope
applies in_hierarchy only to methods), with unsure left at Rope's default (None: occurrences Rope
is not sure of are not renamed) and docs=False (code only, no strings or comments). The locations
are the identifier ranges Rope replaces: the occurrences of the same finder get_changes builds,
checked against get_changes' own new contents (the answer is an error if they ever disagree).
"""

import json
import os
import sys
import time

import rope
import rope.base.libutils as libutils
from rope.base import exceptions
from rope.base.project import Project
from rope.refactor import occurrences
from rope.refactor.rename import Rename

DRIVER = "_rope_doa_pytest.py"

# The file Rope's runner runs (exec'd by rope/base/oi/runmod.py under its tracer). The tracer asks,
# for every call of any function, whether the code's file is inside the project, with a stat and a
# realpath of each folder of the path each time: in pytest's own code that made click's suite run at
# a few thousand calls a second (no test reached after 14 minutes). The answer depends on the file
# name only, so it is memoized per file name here; the calls the tracer records are the same
# (itsdangerous: the same count of calls and the same rename answers with and without it).
DRIVER_TEXT = """import sys

import pytest

for cell in sys.gettrace().__closure__:  # a loop, not a generator: no call of this file is recorded
    if hasattr(cell.cell_contents, "_is_code_inside_project"):
        sender = cell.cell_contents
check = sender._is_code_inside_project
inside = {}


def memoized(code):
    name = code.co_filename
    if name not in inside:
        inside[name] = check(code)
    return inside[name]


sender._is_code_inside_project = memoized
sys.exit(pytest.main(ARGS))
"""


def line_starts(text):
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def to_offset(text, line, col):
    return line_starts(text)[line - 1] + col


def to_location(path, starts, offset):
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return f"{path}:{lo + 1}:{offset - starts[lo]}"


def soa(project):
    started = time.time()
    files = project.get_python_files()
    libutils.analyze_modules(project)
    return {"seconds": round(time.time() - started, 1), "modules": len(files)}


def doa(project, root, args):
    """Runs the suite under Rope's tracer; returns how long it took and how many calls it recorded."""
    driver = os.path.join(root, DRIVER)
    with open(driver, "w") as f:
        f.write(DRIVER_TEXT.replace("ARGS", repr(args)))
    calls = 0
    receive = project.pycore.object_info.doa_data_received

    def counted(data):
        nonlocal calls
        calls += 1
        receive(data)

    project.pycore.object_info.doa_data_received = counted
    started = time.time()
    try:
        with open(os.devnull, "w") as sink:
            runner = project.pycore.run_module(project.get_resource(DRIVER), stdout=sink)
            runner.wait_process()
        code = runner.process.returncode
    finally:
        project.pycore.object_info.doa_data_received = receive
        os.remove(driver)
    return {"seconds": round(time.time() - started, 1), "calls": calls, "exit": code}


def rename_locations(project, query):
    resource = project.get_resource(query["path"])
    text = resource.read()
    rename = Rename(project, resource, to_offset(text, query["line"], query["col"]))
    changes = rope_changes(rename, query["newName"])
    # The same finder get_changes builds (rope/refactor/rename.py), asked for its word ranges.
    finder = occurrences.create_finder(
        project,
        rename.old_name,
        rename.old_pyname,
        unsure=None,
        docs=False,
        instance=rename.old_instance,
        in_hierarchy=rename.is_method(),
    )
    out = []
    for path, new_contents in changes.items():
        file_ = project.get_resource(path)
        source = file_.read()
        ranges = sorted(o.get_word_range() for o in finder.find_occurrences(resource=file_))
        rebuilt, last = [], 0
        for start, end in ranges:
            rebuilt.append(source[last:start] + query["newName"])
            last = end
        rebuilt.append(source[last:])
        if "".join(rebuilt) != new_contents:
            raise RuntimeError(f"the occurrences in {path} do not rebuild Rope's change")
        starts = line_starts(source)
        out.extend(to_location(path, starts, start) for start, _ in ranges)
    return out


def rope_changes(rename, new_name):
    """Rope's own change set for the rename, as {path: new contents}."""
    changes = rename.get_changes(new_name, in_hierarchy=True, docs=False)
    result = {}
    for change in changes.changes:
        result[change.resource.path] = change.new_contents
    return result


def main():
    request = json.load(sys.stdin)
    root = request["root"]
    project = Project(
        root,
        ropefolder=None,
        python_path=request.get("pythonPath", []),
        ignored_resources=[".git", ".codeslice", "__pycache__", "*.pyc", ".pytest_cache", DRIVER],
    )
    answer = {"rope": rope.VERSION}
    answer["soa"] = soa(project)
    if request.get("doa"):
        answer["doa"] = doa(project, root, request["doa"]["args"])
    results = []
    for query in request["queries"]:
        try:
            results.append({"locations": rename_locations(project, query)})
        except (exceptions.RopeError, RuntimeError) as e:
            results.append({"error": f"{type(e).__name__}: {e}"})
    answer["results"] = results
    project.close()
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
