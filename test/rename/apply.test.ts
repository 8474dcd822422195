/**
 * Applying a rename plan on disk, through the Node platform and its plan file operations: exactly
 * the preview's edits, all files or none. A file changed since the preview, a read-only file and a
 * write failing midway each leave every file as it was (and no temporary file behind); a token
 * applies once, and only a token a preview produced applies at all.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import type { PlanFiles } from "../../src/core/rename/apply.ts";
import { createNodePlanFiles, createNodePlatform } from "../../src/platform/node/index.ts";
import { isEngineError } from "../../src/shared/errors.ts";
import { parseFixture } from "../support/platform.ts";

const FILES = parseFixture(`
#- pkg/__init__.py
from .util import helper as helper
#- pkg/util.py
def helper(x):
    """helper doubles x."""
    return x * 2
#- main.py
from pkg.util import helper

def go():
    return helper(2)

def shadowed(helper):
    return helper + 1

LABEL = "helper"
`);

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) {
    for (const f of Object.keys(FILES)) fs.rmSync(path.join(t, f), { force: true }); // chmod'ed files too
    fs.rmSync(t, { recursive: true, force: true });
  }
});

async function project() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-rename-"));
  temps.push(root);
  for (const [p, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), text);
  }
  const engine = createEngine(await createNodePlatform({ root }));
  const read = () =>
    Object.fromEntries(Object.keys(FILES).map((p) => [p, fs.readFileSync(path.join(root, p), "utf8")]));
  const leftovers = () =>
    (fs.readdirSync(root, { recursive: true }) as string[]).filter(
      (f) => f.includes(".codeslice-") && f.endsWith(".tmp"),
    );
  return { root, engine, files: createNodePlanFiles(root), read, leftovers };
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; data: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    if (isEngineError(error)) return { code: error.code, data: error.data as Record<string, unknown> };
    throw error;
  }
  throw new Error("did not fail");
}

describe("apply a rename plan", () => {
  it("writes exactly the preview's code edits, and the mentions only when asked", async () => {
    const p = await project();
    const plan = await p.engine.rename("pkg/util.py::helper", "assist");
    const report = await p.engine.applyRename(plan.planToken, p.files);
    expect(report.written.map((w) => w.path).sort()).toEqual(["main.py", "pkg/__init__.py", "pkg/util.py"]);
    expect(report.edits).toBe(plan.edits.length);
    expect(p.read()).toEqual({
      "pkg/__init__.py": "from .util import assist as assist",
      "pkg/util.py": 'def assist(x):\n    """helper doubles x."""\n    return x * 2',
      "main.py":
        'from pkg.util import assist\n\ndef go():\n    return assist(2)\n\ndef shadowed(helper):\n    return helper + 1\n\nLABEL = "helper"\n',
    });
    expect(p.leftovers()).toEqual([]);

    const q = await project();
    const withMentions = await q.engine.rename("pkg/util.py::helper", "assist");
    await q.engine.applyRename(withMentions.planToken, q.files, { mentions: true });
    expect(q.read()["pkg/util.py"]).toContain('"""assist doubles x."""');
    expect(q.read()["main.py"]).toContain('LABEL = "assist"');
  });

  it("refuses a plan when a file changed between preview and apply, and writes nothing", async () => {
    const p = await project();
    const plan = await p.engine.rename("pkg/util.py::helper", "assist");
    fs.appendFileSync(path.join(p.root, "main.py"), "# edited after the preview\n");
    const before = p.read();
    const failure = await codeOf(p.engine.applyRename(plan.planToken, p.files));
    expect(failure).toMatchObject({ code: "plan_stale", data: { token: plan.planToken, changed: ["main.py"] } });
    expect(p.read()).toEqual(before);
    expect(p.leftovers()).toEqual([]);
  });

  it("writes nothing when one of the files is read-only", async () => {
    const p = await project();
    const plan = await p.engine.rename("pkg/util.py::helper", "assist");
    fs.chmodSync(path.join(p.root, "pkg/util.py"), 0o444);
    const before = p.read();
    const failure = await codeOf(p.engine.applyRename(plan.planToken, p.files));
    expect(failure).toMatchObject({ code: "apply_failed", data: { path: "pkg/util.py", restored: [] } });
    expect(p.read()).toEqual(before);
    expect(p.leftovers()).toEqual([]);
  });

  it("puts back the files already written when a write fails midway", async () => {
    const p = await project();
    const plan = await p.engine.rename("pkg/util.py::helper", "assist");
    const before = p.read();
    // The host's own operations, with the move of the last file failing as a full disk would.
    const last = plan.files.at(-1)!.path;
    const failing: PlanFiles = {
      ...p.files,
      commit: (temp, file) =>
        file === last ? Promise.reject(new Error("ENOSPC: no space left on device")) : p.files.commit(temp, file),
    };
    const failure = await codeOf(p.engine.applyRename(plan.planToken, failing));
    expect(failure.code).toBe("apply_failed");
    expect(failure.data.path).toBe(last);
    expect((failure.data.restored as string[]).sort()).toEqual(
      plan.files
        .slice(0, -1)
        .map((f) => f.path)
        .sort(),
    );
    expect(p.read()).toEqual(before);
    expect(p.leftovers()).toEqual([]);
  });

  it("applies a token once, only a token a preview produced, and only with the preview's new name", async () => {
    const p = await project();
    const plan = await p.engine.rename("pkg/util.py::helper", "assist");
    expect(await codeOf(p.engine.applyRename("0".repeat(32), p.files))).toMatchObject({ code: "plan_unknown" });
    expect(await codeOf(p.engine.applyRename("not a token", p.files))).toMatchObject({ code: "plan_unknown" });
    expect(await codeOf(p.engine.applyRename(plan.planToken, p.files, { newName: "other" }))).toMatchObject({
      code: "plan_unknown",
    });
    // A plan edited in the cache no longer matches its token.
    const stored = (fs.readdirSync(path.join(p.root, ".codeslice"), { recursive: true }) as string[]).find((f) =>
      f.endsWith(plan.planToken),
    )!;
    const file = path.join(p.root, ".codeslice", stored);
    const original = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, original.replaceAll('"newText":"assist"', '"newText":"evil"'));
    expect(await codeOf(p.engine.applyRename(plan.planToken, p.files))).toMatchObject({ code: "plan_unknown" });
    fs.writeFileSync(file, original);
    await p.engine.applyRename(plan.planToken, p.files);
    expect(await codeOf(p.engine.applyRename(plan.planToken, p.files))).toMatchObject({ code: "plan_unknown" });
    // After the rename the index follows the files (hosts refresh before each answer).
    await p.engine.refresh();
    expect((await p.engine.resolveSymbol("pkg/util.py::assist")).qualified).toMatch(/assist$/);
  });
});
