/**
 * `codeslice index --export/--import` and `codeslice scip` as a user runs them: the built CLI as a
 * subprocess over temp projects. A fresh machine is a copy of the project under another absolute
 * path with no cache: after the import it parses nothing and answers as the first one does. The
 * SCIP output is decoded by a protobuf reader written here, apart from the encoder, and checked
 * against what the fixture's source holds (counted by hand, below, from the source).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt, jsonOf, repoRoot, runCli, tempDirs } from "../support/cli.ts";
import { decodeMessage, ints, messages, str, int, type Fields } from "../support/scip-read.ts";

const temps = tempDirs("codeslice-artifact-");
const tempDir = temps.make;
const run = (args: string[]) => runCli([...args, "--quiet"]);
const json = jsonOf;

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: os.tmpdir(),
};
const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-C", root, ...args], { env: gitEnv, stdio: "pipe" });

/** The project: Python and TypeScript, calls within and across files, inheritance on both sides. */
const PROJECT: Record<string, string> = {
  "shop/__init__.py": "",
  "shop/base.py":
    'class Animal:\n    """An animal."""\n\n    def sound(self):\n        return "..."\n\n    def speak(self):\n        return self.sound()\n',
  // The emoji before the calls on the last line is two UTF-16 units, four UTF-8 bytes: SCIP columns here are UTF-16.
  "shop/dog.py":
    'from shop.base import Animal\n\n\nclass Dog(Animal):\n    def sound(self):\n        return "woof"\n\n\ndef make():\n    label = "é🐕"; return Dog().speak()\n',
  "web/util.ts": 'export function helper(s: string): string {\n  return s + "!";\n}\n',
  "web/view.ts":
    'import { helper } from "./util";\n\nexport interface Drawable {}\n\nexport class View implements Drawable {\n  render(): string {\n    return helper("x");\n  }\n}\n',
  "README.md": "# shop\n",
};

/** A copy of `from` (its .git included, its cache left behind) under a new temp folder. */
function copyProject(from: string): string {
  const to = path.join(tempDir(), "copy");
  fs.cpSync(from, to, { recursive: true, filter: (src) => path.basename(src) !== ".codeslice" });
  return to;
}

/** Files codeslice wrote into a cache folder (its own marker files aside). */
function cacheEntries(root: string): string[] {
  const dir = path.join(root, ".codeslice");
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter(
    (f) => /^v\d+/.test(f) && fs.statSync(path.join(dir, f)).isFile(),
  );
}

beforeAll(ensureCliBuilt, 300_000);

afterAll(temps.cleanup);

describe("codeslice index --export / --import", () => {
  let origin: string;
  let artifact: string;
  let bytes: Buffer;
  beforeAll(() => {
    origin = path.join(tempDir(), "origin");
    writeFiles(origin, PROJECT);
    git(origin, "init", "-q", "-b", "main");
    git(origin, "add", "-A");
    git(origin, "commit", "-q", "-m", "init");
    artifact = path.join(tempDir(), "shop.csidx");
    const r = run(["index", "--root", origin, "--export", artifact, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(json<{ parsed: number; exported: { records: number; files: number; bytes: number } }>(r)).toMatchObject({
      parsed: 5,
      exported: { records: 5, files: 6 },
    });
    bytes = fs.readFileSync(artifact);
  }, 120_000);

  it("a fresh machine answers from the imported index with no parse", () => {
    const copy = copyProject(origin);
    expect(cacheEntries(copy)).toEqual([]);
    const imported = run(["index", "--root", copy, "--import", artifact, "--json"]);
    expect(imported.status, imported.stderr).toBe(0);
    const summary = json<{
      root: string;
      parsed: number;
      reused: number;
      sourceFiles: number;
      imported: { records: number; files: number };
    }>(imported);
    expect(summary.root).toBe(copy);
    expect(summary.imported).toMatchObject({ records: 5, files: 6, bytes: bytes.length });
    expect(summary.parsed).toBe(0);
    expect(summary.reused).toBe(5);
    const again = json<{ parsed: number; reused: number }>(run(["index", "--root", copy, "--json"]));
    expect(again.parsed).toBe(0);

    expect(run(["graph", "--root", copy, "--json"]).stdout).toBe(run(["graph", "--root", origin, "--json"]).stdout);
    const context = (root: string) => run(["context", "Dog.sound", "--root", root, "--budget", "2000"]);
    expect(context(copy).status).toBe(0);
    expect(context(copy).stdout).toBe(context(origin).stdout);
    expect(context(copy).stdout).toContain("shop/dog.py");
  });

  it("holds no absolute path of the machine that made it", () => {
    expect(bytes.includes(Buffer.from(origin))).toBe(false);
    expect(bytes.includes(Buffer.from(path.dirname(origin)))).toBe(false);
  });

  it("is the same file when the same files are exported again", () => {
    const again = path.join(tempDir(), "again.csidx");
    expect(run(["index", "--root", origin, "--export", again]).status).toBe(0);
    expect(fs.readFileSync(again).equals(bytes)).toBe(true);
  });

  describe("refuses a bad artifact with its own code and leaves the cache empty", () => {
    const refuse = (bad: Uint8Array, code: string) => {
      const copy = copyProject(origin);
      const file = path.join(tempDir(), "bad.csidx");
      fs.writeFileSync(file, bad);
      const r = run(["index", "--root", copy, "--import", file, "--json"]);
      expect(r.status).toBe(1);
      const error = json<{ error: { code: string; hint?: string; data: Record<string, unknown> } }>(r).error;
      expect(error.code).toBe(code);
      expect(error.hint).toBeTruthy();
      expect(r.stderr).not.toMatch(/\n\s+at /); // one line and a hint, never a stack trace
      expect(cacheEntries(copy)).toEqual([]);
      return error;
    };
    const resealed = (b: Uint8Array) => {
      const out = Uint8Array.from(b);
      new DataView(out.buffer).setUint32(28, crc32(out.subarray(0, 28)), true);
      out.set(
        new Uint8Array(
          createHash("sha256")
            .update(out.subarray(0, out.length - 32))
            .digest(),
        ),
        out.length - 32,
      );
      return out;
    };

    it("truncated", () => {
      expect(refuse(bytes.subarray(0, bytes.length - 40), "artifact_truncated").data).toEqual({
        expectedBytes: bytes.length,
        actualBytes: bytes.length - 40,
      });
      refuse(bytes.subarray(0, 3), "artifact_truncated");
    });

    it("a flipped byte", () => {
      const bad = Uint8Array.from(bytes);
      bad[Math.floor(bad.length / 2)] ^= 0x01;
      expect(refuse(bad, "artifact_corrupt").data.reason).toMatch(/checksum/);
    });

    it("a wrong magic (not an artifact at all)", () => {
      const bad = Uint8Array.from(bytes);
      bad[0] = 0x50;
      refuse(bad, "artifact_foreign");
      refuse(new TextEncoder().encode("PK\u0003\u0004 a zip, not an index"), "artifact_foreign");
    });

    it("another SCHEMA_VERSION, even with a checksum that holds", () => {
      const bad = Uint8Array.from(bytes);
      const view = new DataView(bad.buffer);
      const schema = view.getUint32(12, true);
      view.setUint32(12, schema - 1, true);
      expect(refuse(resealed(bad), "artifact_version_mismatch").data).toEqual({
        schema: { artifact: schema - 1, engine: schema },
      });
    });

    it("a file that cannot be read is a usage error", () => {
      const r = run(["index", "--root", copyProject(origin), "--import", path.join(tempDir(), "missing.csidx")]);
      expect(r.status).toBe(2);
    });
  });
});

/** CRC-32 (IEEE), for making an artifact's preamble checksum again. */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

describe("codeslice scip", () => {
  it("writes a SCIP index holding the fixture's definitions, references and inheritance", () => {
    const root = path.join(tempDir(), "shop");
    writeFiles(root, PROJECT);
    const out = path.join(tempDir(), "index.scip");
    const r = run(["scip", "--root", root, "--out", out, "--project", "shop", "--json"]);
    expect(r.status, r.stderr).toBe(0);

    const index = decodeMessage(fs.readFileSync(out));
    const metadata = messages(index, 1)[0]!;
    expect(str(messages(metadata, 2)[0]!, 1)).toBe("codeslice");
    expect(str(metadata, 3)).toBe(`file://${root}`);
    const documents = messages(index, 2);
    const byPath = new Map(documents.map((d) => [str(d, 1), d]));
    // Every indexed source file, and nothing else (README.md has no language).
    expect([...byPath.keys()].sort()).toEqual([
      "shop/__init__.py",
      "shop/base.py",
      "shop/dog.py",
      "web/util.ts",
      "web/view.ts",
    ]);
    expect(str(byPath.get("shop/dog.py")!, 4)).toBe("Python");
    expect(str(byPath.get("web/view.ts")!, 4)).toBe("TypeScript");

    const S = "codeslice . shop . ";
    const base = `${S}shop/\`base.py\`/`;
    const dog = `${S}shop/\`dog.py\`/`;
    const util = `${S}web/\`util.ts\`/`;
    const view = `${S}web/\`view.ts\`/`;
    // Read off the source: each file's module symbol, then each class, method and function.
    const definitions = [
      `${S}shop/\`__init__.py\`/`,
      base,
      `${base}Animal#`,
      `${base}Animal#sound().`,
      `${base}Animal#speak().`,
      dog,
      `${dog}Dog#`,
      `${dog}Dog#sound().`,
      `${dog}make().`,
      util,
      `${util}helper().`,
      view,
      `${view}Drawable#`,
      `${view}View#`,
      `${view}View#render().`,
    ];
    // Each call site and import, as [file, symbol, role]: self.sound(), Dog(), Dog().speak()
    // (Animal's, by inheritance), helper("x"), and the two imports (role Import = 2).
    const references = [
      ["shop/base.py", `${base}Animal#sound().`, 0],
      ["shop/dog.py", base, 2],
      ["shop/dog.py", `${dog}Dog#`, 0],
      ["shop/dog.py", `${base}Animal#speak().`, 0],
      ["web/view.ts", util, 2],
      ["web/view.ts", `${util}helper().`, 0],
    ];
    const seenDefinitions: string[] = [];
    const seenReferences: (string | number)[][] = [];
    const infos = new Map<string, Fields>();
    for (const [file, doc] of byPath) {
      const lines = PROJECT[file]!.split("\n");
      expect(int(doc, 6), "UTF-16 positions").toBe(2);
      for (const occ of messages(doc, 2)) {
        const range = ints(occ, 1);
        const symbol = str(occ, 2);
        const roles = int(occ, 3);
        expect(range.length).toBe(3);
        const text = lines[range[0]!]!.slice(range[1], range[2]);
        if (roles & 1) {
          seenDefinitions.push(symbol);
          // A definition's range is its name; a module's is the empty range at the top.
          if (symbol.endsWith("`/")) expect(range).toEqual([0, 0, 0]);
          else expect(symbol).toContain(text);
        } else {
          seenReferences.push([file, symbol, roles]);
          // A call covers the called name; an import the module as written.
          expect(roles === 2 ? ["shop.base", "./util"] : ["sound", "Dog", "speak", "helper"]).toContain(text);
        }
      }
      for (const info of messages(doc, 3)) infos.set(str(info, 1), info);
    }
    expect(seenDefinitions.sort()).toEqual([...definitions].sort());
    expect(seenReferences.sort()).toEqual([...references].sort());
    expect([...infos.keys()].sort()).toEqual([...definitions].sort());

    const relations = (symbol: string) =>
      messages(infos.get(symbol)!, 4).map((rel) => ({
        symbol: str(rel, 1),
        reference: int(rel, 2) === 1,
        implementation: int(rel, 3) === 1,
      }));
    expect(relations(`${dog}Dog#`)).toEqual([{ symbol: `${base}Animal#`, reference: false, implementation: true }]);
    expect(relations(`${dog}Dog#sound().`)).toEqual([
      { symbol: `${base}Animal#sound().`, reference: true, implementation: true },
    ]);
    expect(relations(`${view}View#`)).toEqual([{ symbol: `${view}Drawable#`, reference: false, implementation: true }]);
    expect(relations(`${dog}make().`)).toEqual([]);
    // Kinds: Class 7, Method 26, Function 17, Interface 21; docs and signatures for hovers.
    expect(
      [`${base}Animal#`, `${base}Animal#sound().`, `${dog}make().`, `${view}Drawable#`].map((s) =>
        int(infos.get(s)!, 5),
      ),
    ).toEqual([7, 26, 17, 21]);
    expect(str(infos.get(`${base}Animal#`)!, 3)).toBe("An animal.");
    expect(str(messages(infos.get(`${util}helper().`)!, 7)[0]!, 5)).toMatch(/function helper\(s: string\): string/);

    expect(json(r)).toMatchObject({
      documents: 5,
      definitions: definitions.length,
      references: references.length,
      symbols: definitions.length,
      relationships: 3,
    });
  });

  it("needs --out", () => {
    expect(run(["scip", "--root", repoRoot]).status).toBe(2);
  });
});
