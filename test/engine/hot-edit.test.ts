/**
 * A long-running engine after edits (the MCP server's path): with a folder watcher, `refresh()`
 * re-checks only the files the watch events named when nothing else can have changed, and scans
 * otherwise. Whatever it did, after each kind of edit its graph and answers must equal those of a
 * fresh engine over the same tree. Real folders, the real Node file system and its watchers.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/core/engine/engine.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-hot-edit-")));
  temps.push(dir);
  return dir;
}

const PROJECT: Record<string, string> = {
  "shop/__init__.py": "",
  "shop/models.py":
    "class Order:\n    def __init__(self, total):\n        self.total = total\n\n    def save(self):\n        return self.total\n\n\ndef make(total):\n    return Order(total)\n",
  "shop/service.py":
    "from shop.models import Order, make\n\n\ndef place(total):\n    order = make(total)\n    order.save()\n    return order\n\n\ndef cancel(order: Order):\n    order.save()\n",
  "shop/api.py": "from shop.service import place\n\n\ndef handle(request):\n    return place(request)\n",
  // Files whose edges hang on names other files define: a star import, a base class two files
  // away, a re-export.
  "shop/exports.py": "from shop.models import Order as Purchase\n",
  "shop/helpers.py": "def nothing():\n    return 0\n",
  "shop/base.py": "class Record:\n    def touch(self):\n        return 1\n",
  "shop/audit.py": "from shop.base import Record\n\n\nclass Audit(Record):\n    pass\n",
  "shop/report.py":
    "from shop.audit import Audit\nfrom shop.helpers import *\nfrom shop.exports import Purchase\n\n\ndef report():\n    Audit().touch()\n    fmt()\n    Purchase(1).save()\n",
};

/** An engine over `root`; `listings` counts the folders it lists (a scan lists every folder). */
async function engineOver(root: string, watch: boolean): Promise<{ engine: Engine; listings: () => number }> {
  const platform = await createNodePlatform({ root, cacheDir: path.join(tempDir(), "cache") });
  let listings = 0;
  const readDir = platform.fs.readDir.bind(platform.fs);
  platform.fs.readDir = (dir) => (listings++, readDir(dir));
  return { engine: createEngine(platform, { watch, jobs: 1 }), listings: () => listings };
}

/** What a host asks after an edit: the graph, callers of a method, a context, a search. */
async function answers(engine: Engine) {
  return {
    graph: await engine.graph(),
    callers: await engine.callers("shop.models.Order.save"),
    context: (await engine.context("shop.service.place", { budget: 2000 })).text,
    search: await engine.search("order save"),
  };
}

describe("edits under a running engine with a folder watcher", () => {
  it("after each kind of edit the engine answers as a fresh engine does, re-checking only named files when it can", async () => {
    const root = tempDir();
    const write = (p: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
      fs.writeFileSync(path.join(root, p), text);
    };
    for (const [p, text] of Object.entries(PROJECT)) write(p, text);
    const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "init");
    const { engine, listings } = await engineOver(root, true);
    try {
      await engine.refresh();
      await answers(engine);
      await new Promise((r) => setTimeout(r, 100)); // the settle re-scan after the first index
      const models = PROJECT["shop/models.py"]!;
      const service = PROJECT["shop/service.py"]!;
      // `scan`: whether the refresh must list folders (a new name) or may re-check the named files only.
      const steps: { name: string; apply: () => void; parsed?: number; removed?: number; scan: boolean }[] = [
        {
          name: "body edit",
          apply: () =>
            write(
              "shop/service.py",
              service.replace("    order.save()\n    return", "    order.save()\n    order.save()\n    return"),
            ),
          parsed: 1,
          scan: false,
        },
        {
          name: "new local",
          apply: () =>
            write(
              "shop/api.py",
              PROJECT["shop/api.py"]!.replace("    return place", "    r = request\n    return place"),
            ),
          parsed: 1,
          scan: false,
        },
        {
          name: "signature change",
          apply: () => write("shop/models.py", models.replace("def save(self):", "def save(self, force=False):")),
          parsed: 1,
          scan: false,
        },
        {
          name: "added function",
          apply: () => write("shop/models.py", `${models}\n\ndef archive(order):\n    order.save()\n`),
          parsed: 1,
          scan: false,
        },
        {
          name: "removed function",
          apply: () => write("shop/models.py", models.replace(/\n\ndef make[\s\S]*$/, "\n")),
          scan: false,
        },
        // Edits another file's edges depend on: only resolving that file again gets them right.
        {
          name: "new function a star importer's unresolved call now reaches",
          apply: () => write("shop/helpers.py", `${PROJECT["shop/helpers.py"]}\n\ndef fmt():\n    return nothing()\n`),
          parsed: 1,
          scan: false,
        },
        {
          name: "removed base class (a call in another file loses the method it inherited)",
          apply: () =>
            write("shop/audit.py", PROJECT["shop/audit.py"]!.replace("class Audit(Record):", "class Audit:")),
          parsed: 1,
          scan: false,
        },
        {
          name: "removed class (the base of a class another file calls through)",
          apply: () => write("shop/base.py", "def unrelated():\n    return 1\n"),
          parsed: 1,
          scan: false,
        },
        {
          name: "renamed re-export",
          apply: () => write("shop/exports.py", "from shop.models import Order as Sale\n"),
          parsed: 1,
          scan: false,
        },
        {
          name: "save through a temporary file (an editor's atomic write)",
          apply: () => {
            write("shop/api.py.tmp", PROJECT["shop/api.py"]!.replace("place(request)", "place(request.total)"));
            fs.renameSync(path.join(root, "shop/api.py.tmp"), path.join(root, "shop/api.py"));
          },
          parsed: 1,
          scan: false,
        },
        {
          name: "new file",
          apply: () =>
            write("shop/extra.py", "from shop.models import Order\n\n\ndef again(o: Order):\n    o.save()\n"),
          parsed: 1,
          scan: true,
        },
        {
          name: "new file in a new folder",
          apply: () => write("shop/sub/deep.py", "from shop.service import cancel\n\n\ndef go(o):\n    cancel(o)\n"),
          parsed: 1,
          scan: true,
        },
        { name: "deleted file", apply: () => fs.rmSync(path.join(root, "shop/extra.py")), removed: 1, scan: false },
        {
          name: ".gitignore hiding an untracked folder",
          apply: () => write(".gitignore", "shop/sub/\n"),
          removed: 1,
          scan: true,
        },
      ];
      for (const step of steps) {
        step.apply();
        const listed = listings();
        const r = await engine.refresh();
        expect(r.mode, step.name).toBe("watch");
        expect(listings() > listed, `${step.name}: scanned`).toBe(step.scan);
        if (step.parsed !== undefined) expect(r.parsed, step.name).toBe(step.parsed);
        if (step.removed !== undefined) expect(r.removed, step.name).toBe(step.removed);
        const { engine: fresh } = await engineOver(root, false);
        expect(await answers(engine), step.name).toEqual(await answers(fresh));
      }
      // Nothing changed since: free.
      expect(await engine.refresh()).toMatchObject({ refreshed: false, parsed: 0, mode: "watch" });
    } finally {
      engine.close();
    }
  });
});
