/**
 * Issue 22's failures in what codeslice writes and names, as deterministic reproductions (each
 * marked "Was a bug"): a link planted at the export's temporary name, an export over a source
 * file, an NFC spelling of an NFD name, a project folder deleted during a cold index, and a file
 * name holding a newline in a citation header.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { createNodePlatform, NodeStore } from "../../src/platform/node/index.ts";
import { writeBinary } from "../../src/cli/files.ts";
import { outlineUri } from "../../src/mcp/resources.ts";
import { connect } from "../mcp/support.ts";
import { removeTemps, tempDir } from "./fixture.ts";
import { cli, ensureBuilt } from "./run.ts";

beforeAll(ensureBuilt);
afterAll(removeTemps);

const SOURCE = "def main():\n    return helper()\n\n\ndef helper():\n    return 1\n";

function project(files: Record<string, string> = { "app.py": SOURCE }): string {
  const root = tempDir();
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

describe("issue 22: output written safely", () => {
  // Was a bug (item 10): a symbolic link planted at the export's temporary name was followed, and its target outside the output path overwritten.
  it("a link planted at the temporary name is not followed", () => {
    const dir = tempDir();
    const victim = path.join(tempDir(), "victim.txt");
    fs.writeFileSync(victim, "precious");
    const out = path.join(dir, "index.csa");
    // The name the writer used: predictable from the output's name and the process id.
    fs.symlinkSync(victim, path.join(dir, `.index.csa.${process.pid}.tmp`));
    writeBinary(out, [new TextEncoder().encode("artifact")]);
    expect(fs.readFileSync(victim, "utf8")).toBe("precious");
    expect(fs.readFileSync(out, "utf8")).toBe("artifact");
    expect(fs.readdirSync(dir).sort()).toEqual([`.index.csa.${process.pid}.tmp`, "index.csa"]);
  });

  // Was a bug (item 17): `index --export` over a tracked source file replaced it silently (and `scip --out` too).
  it.each([
    ["index", "--export"],
    ["scip", "--out"],
  ])("%s %s over a source file of the project is refused without --force", async (command, flag) => {
    const root = project({ "app.py": SOURCE, "lib.py": SOURCE });
    const refused = await cli([command, "--root", root, flag, path.join(root, "app.py")]);
    expect(refused.status, refused.stderr).not.toBe(0);
    expect(refused.stderr).toMatch(/--force/);
    expect(fs.readFileSync(path.join(root, "app.py"), "utf8")).toBe(SOURCE);
    const forced = await cli([command, "--root", root, flag, path.join(root, "app.py"), "--force"]);
    expect(forced.status, forced.stderr).toBe(0);
    expect(fs.readFileSync(path.join(root, "app.py"), "utf8")).not.toBe(SOURCE);
    // Writing again over its own earlier output, outside the sources, needs nothing.
    const again = await cli([command, "--root", root, flag, path.join(root, "out.bin")]);
    const twice = await cli([command, "--root", root, flag, path.join(root, "out.bin")]);
    expect([again.status, twice.status]).toEqual([0, 0]);
  });
});

describe("issue 22: names as people type them", () => {
  // Was a bug (item 18): an NFC spelling of an NFD file name was "not an indexed source file", with no suggestion.
  it("an NFC spelling finds the NFD-named file (tools and the outline resource)", async () => {
    const nfd = "cafe\u0301.py";
    const nfc = nfd.normalize("NFC");
    expect(nfc).not.toBe(nfd);
    const root = project({ [nfd]: SOURCE, "use.py": "import café\n" });
    const platform = await createNodePlatform({ root, cacheDir: path.join(tempDir(), "cache") });
    const engine = createEngine(platform);
    const snippet = await engine.snippet(nfc, 1, 2);
    expect(snippet.path).toBe(nfd);
    const c = await connect(engine, { fs: platform.fs });
    try {
      const outline = await c.client.readResource({ uri: outlineUri(nfc) });
      expect(String(outline.contents[0]!.text)).toContain("def main()");
    } finally {
      await c.close();
    }
  });

  // Was a bug (item 20): a file named with a newline split its citation header (the changes summary, importers' header, the outline resource's title).
  it("a file name holding a newline is quoted wherever an answer names it", async () => {
    const root = project({ "new\nline.py": SOURCE, "use.py": "import importlib\n" });
    execFileSync("git", ["init", "-q"], { cwd: root });
    execFileSync("git", ["add", "-A"], { cwd: root });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "x"], { cwd: root });
    fs.writeFileSync(path.join(root, "new\nline.py"), SOURCE.replace("return 1", "return 2"));
    const platform = await createNodePlatform({ root, cacheDir: path.join(tempDir(), "cache") });
    const engine = createEngine(platform);
    const c = await connect(engine, { fs: platform.fs });
    try {
      const texts: Record<string, string> = {
        context: (await engine.context("main")).text,
        callers: (await engine.callers("helper")).text,
        changes: (await engine.changes()).text,
        importers: (await engine.importers("new\nline.py")).text,
        outline: String((await c.client.readResource({ uri: outlineUri("new\nline.py") })).contents[0]!.text),
      };
      for (const [what, text] of Object.entries(texts)) {
        for (const line of text.split("\n")) expect(line, `${what}:\n${text}`).not.toMatch(/^line\.py/);
        expect(text, what).toContain('"new\\nline.py"');
      }
    } finally {
      await c.close();
    }
  });
});

describe("issue 22: a project deleted while it is indexed", () => {
  // Was a bug (item 20): a project folder deleted during a cold index was re-created by the record writes that followed.
  it("the record writes after the folder is gone do not create it again", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`pkg/m${i}.py`] = SOURCE;
    const root = project(files);
    const engine = createEngine(await createNodePlatform({ root }));
    let deleted = false;
    const result = await engine
      .index({
        onProgress: (p) => {
          if (p.phase === "parse" && !deleted) {
            deleted = true;
            fs.rmSync(root, { recursive: true, force: true });
          }
        },
      })
      .then(
        () => "indexed",
        (error: { code?: string }) => error.code,
      );
    engine.close();
    expect(deleted).toBe(true);
    expect(fs.existsSync(root), `index ended: ${result}`).toBe(false);
  });

  // Was a bug (item 20): a cache that opens after its project folder is gone (the first record write of a cold index) created the folder again.
  it("a cache inside a project folder that is gone does not create the folder again", async () => {
    const root = project();
    const store = new NodeStore(path.join(root, ".codeslice"), { root });
    fs.rmSync(root, { recursive: true, force: true });
    // A record is queued, and lands (or fails) with its batch: flush() is where the write happens.
    const outcome = await store
      .set("v1/records/a", new Uint8Array([1]))
      .then(() => store.flush())
      .then(
        () => "written",
        (error: { code?: string }) => error.code,
      );
    expect(fs.existsSync(root), `the write ended: ${outcome}`).toBe(false);
    expect(outcome).toBe("cache_unavailable");
  });
});
