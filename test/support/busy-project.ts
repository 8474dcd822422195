/** A project with one function called from 1,100 places, for the paging tests of the engine, the CLI and the MCP server. */

/** `shared` called once by each of 30 × 20 production functions and 25 × 20 pytest tests. */
export function busyProject(): Record<string, string> {
  const files: Record<string, string> = {
    "core/__init__.py": "",
    "core/util.py": `def shared(x):\n    """Used everywhere."""\n    return x\n`,
    "tests/__init__.py": "",
  };
  for (let m = 0; m < 30; m++) {
    const lines = ["from core.util import shared", ""];
    for (let f = 0; f < 20; f++) lines.push(`def caller_${m}_${f}(value):`, `    return shared(value) + ${f}`, "");
    files[`pkg${m}/__init__.py`] = "";
    files[`pkg${m}/mod.py`] = lines.join("\n");
  }
  for (let m = 0; m < 25; m++) {
    const lines = ["from core.util import shared", ""];
    for (let f = 0; f < 20; f++) lines.push(`def test_shared_${m}_${f}():`, `    assert shared(${f}) == ${f}`, "");
    files[`tests/test_m${m}.py`] = lines.join("\n");
  }
  return files;
}
