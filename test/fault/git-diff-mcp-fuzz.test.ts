/**
 * Fuzzing what `changes` and the MCP server take from outside: git objects (loose, packed, offset
 * and reference deltas, trees, commits, refs, pack indexes), unified diffs, and MCP arguments.
 * Each seed builds a valid input, damages it in a few seeded ways, and runs the real reader on
 * the memory platform. What must hold for every seed: no crash (anything thrown is an
 * EngineError; no tool answers "internal error"), no answer cites a path outside the root, and
 * the run's peak RSS stays under 500 MB. A failing seed replays with FAULT_SEED=<n>.
 */
import { deflateSync, inflateSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { openGitRepository } from "../../src/core/git/repository.ts";
import { parseUnifiedDiff, applyHunks, toLines } from "../../src/core/changes/unified-diff.ts";
import { isEngineError } from "../../src/shared/errors.ts";
import { normalizeRelative } from "../../src/shared/paths.ts";
import { MemoryFileSystem } from "../../src/platform/memory/index.ts";
import { memoryPlatform } from "../support/platform.ts";
import { connect } from "../mcp/support.ts";
import {
  commitBody,
  deltaVarint,
  objectId,
  put,
  treeBytes,
  writeLoose,
  writePack,
  type PackEntry,
} from "./git-craft.ts";
import { rng, seedList, type Rng } from "./fixture.ts";

const SEEDS = 120;
const enc = new TextEncoder();
const dec = new TextDecoder();

/** Peak RSS of this test process so far, in MiB. */
const peakRssMiB = () => Math.round(process.resourceUsage().maxRSS / 1024);
afterAll(() => {
  const peak = peakRssMiB();
  console.log(`fuzz: peak RSS ${peak} MiB`);
  expect(peak).toBeLessThan(500);
});

/** A path an answer may cite: relative, normalized, inside the root. */
function insideRoot(path: string): boolean {
  return path !== "" && normalizeRelative(path, "posix") === path && !path.startsWith("../") && !path.startsWith("/");
}

/** Runs `work`; a thrown error must be an EngineError (returned), anything else fails the seed. */
async function engineErrorOr<T>(seed: number, what: string, work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    if (isEngineError(error)) return undefined;
    throw new Error(`seed ${seed}: ${what} crashed: ${(error as Error)?.stack ?? String(error)}`, { cause: error });
  }
}

// ------------------------------------------------------------------ git objects

const A = "def main():\n    return helper()\n\n\ndef helper():\n    return 1\n";
const B = A.replace("return 1", "return 2").concat("\n\ndef extra():\n    return 3\n");

/** A valid repository in memory: loose commits and trees, blobs in a pack as a base, an offset delta and a reference delta. */
function baseRepo(): { files: Map<string, Uint8Array>; loose: string[]; known: { blob: string; tree: string } } {
  const files = new Map<string, Uint8Array>();
  put(files, "HEAD", "ref: refs/heads/main\n");
  const blobA = enc.encode(A);
  const blobB = enc.encode(B);
  const blobC = enc.encode(`${B}\n# tail\n`);
  const idA = objectId("blob", blobA);
  const idB = objectId("blob", blobB);
  const idC = objectId("blob", blobC);
  // B from A (an offset delta: the common prefix copied, the rest inserted); C from B (a reference delta).
  const prefix = commonPrefix(blobA, blobB);
  const deltaB = Uint8Array.from([
    ...deltaVarint(blobA.length),
    ...deltaVarint(blobB.length),
    ...copyOp(0, prefix),
    ...insertOps(blobB.subarray(prefix)),
  ]);
  const deltaC = Uint8Array.from([
    ...deltaVarint(blobB.length),
    ...deltaVarint(blobC.length),
    ...copyOp(0, blobB.length),
    ...insertOps(blobC.subarray(blobB.length)),
  ]);
  writePack(files, [
    { kind: "blob", body: blobA },
    { ofsDeltaOf: 0, delta: deltaB, oid: idB },
    { refDelta: idB, delta: deltaC, oid: idC },
  ]);
  const loose: string[] = [];
  const sub1 = writeLoose(files, "tree", treeBytes([{ mode: "100644", name: "b.py", oid: idA }]));
  const t1 = writeLoose(
    files,
    "tree",
    treeBytes([
      { mode: "100644", name: "a.py", oid: idA },
      { mode: "40000", name: "pkg", oid: sub1 },
    ]),
  );
  const c1 = writeLoose(files, "commit", commitBody(t1));
  const sub2 = writeLoose(
    files,
    "tree",
    treeBytes([
      { mode: "100644", name: "b.py", oid: idC },
      { mode: "160000", name: "vendored", oid: idA },
    ]),
  );
  const t2 = writeLoose(
    files,
    "tree",
    treeBytes([
      { mode: "100644", name: "a.py", oid: idB },
      { mode: "100644", name: "c.py", oid: idA },
      { mode: "40000", name: "pkg", oid: sub2 },
    ]),
  );
  const c2 = writeLoose(files, "commit", commitBody(t2, [c1]));
  loose.push(sub1, t1, c1, sub2, t2, c2);
  put(files, "refs/heads/main", `${c2}\n`);
  put(files, "packed-refs", `# pack-refs with: peeled fully-peeled sorted\n${c1} refs/tags/v1\n`);
  return { files, loose, known: { blob: idA, tree: sub1 } };
}

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
function copyOp(offset: number, size: number): number[] {
  const out = [0x80];
  for (let b = 0; b < 4; b++)
    if ((offset >> (8 * b)) & 0xff) {
      out[0]! |= 1 << b;
      out.push((offset >> (8 * b)) & 0xff);
    }
  for (let b = 0; b < 3; b++)
    if ((size >> (8 * b)) & 0xff) {
      out[0]! |= 16 << b;
      out.push((size >> (8 * b)) & 0xff);
    }
  return out;
}
function insertOps(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 127) {
    const part = bytes.subarray(i, i + 127);
    out.push(part.length, ...part);
  }
  return out;
}

const BAD_NAMES = [
  "..",
  ".",
  "../x.py",
  "/etc/passwd",
  ".git",
  ".GIT",
  ".git.",
  "git~1",
  "a/b.py",
  "",
  "x\\..\\y.py",
  "new\nline.py",
  "\u0000",
  "é.py",
];

/** Damages bytes: flips, inserts, deletes, truncates, or splices in a big or hostile number. */
function damageBytes(r: Rng, bytes: Uint8Array): Uint8Array {
  const b = Array.from(bytes);
  const n = 1 + r.int(4);
  for (let k = 0; k < n; k++) {
    const at = r.int(b.length + 1);
    switch (r.int(6)) {
      case 0:
        if (b.length) b[Math.min(at, b.length - 1)] ^= 1 << r.int(8);
        break;
      case 1:
        b.splice(at, 0, ...r.bytes(1 + r.int(8)));
        break;
      case 2:
        b.splice(at, 1 + r.int(16));
        break;
      case 3:
        b.length = Math.min(b.length, at);
        break;
      case 4:
        b.splice(at, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f);
        break;
      default:
        b.splice(at, 0, ...enc.encode(r.pick(["9999999999999", "-1", " ", "\0", "../", "ref: ", "40000 ", "160000 "])));
        break;
    }
  }
  return Uint8Array.from(b);
}

const bombs = new Map<string, Uint8Array>();
/** A loose object of `kind` holding 8 MiB of zeros, deflated (made once per kind). */
function bomb(kind: string): Uint8Array {
  let b = bombs.get(kind);
  if (!b)
    bombs.set(kind, (b = deflateSync(Buffer.concat([Buffer.from(`${kind} ${8 << 20}\0`), Buffer.alloc(8 << 20)]))));
  return b;
}

/** Damages one loose object: its inflated content (re-deflated, so parsers see it), its header, or its compressed bytes. */
function damageLoose(r: Rng, raw: Uint8Array, known: { blob: string; tree: string }): Uint8Array {
  let body: Uint8Array;
  try {
    body = new Uint8Array(inflateSync(raw));
  } catch {
    return damageBytes(r, raw); // damaged already, past inflating
  }
  const nul = body.indexOf(0);
  const header = dec.decode(body.subarray(0, nul));
  const content = body.subarray(nul + 1);
  switch (r.int(6)) {
    case 0:
      return damageBytes(r, raw);
    case 1:
      return deflateSync(
        Buffer.concat([
          Buffer.from(`${header.split(" ")[0]} ${r.pick([0, 1, content.length + 1, 2 ** 31, 2 ** 40, 2 ** 53])}\0`),
          content,
        ]),
      );
    case 2:
      return deflateSync(
        Buffer.concat([
          Buffer.from(`${r.pick(["blob", "tree", "commit", "tag", "bogus", ""])} ${content.length}\0`),
          content,
        ]),
      );
    case 3: {
      // A tree entry with a hostile name (naming an object the repository holds, so a reader would follow it), or a bad mode.
      if (header.startsWith("tree")) {
        const name = r.pick(BAD_NAMES);
        const mode = r.pick(["100644", "100644", "40000", "40000", "160000", "120000", "999999", ""]);
        const oid = r.chance(0.1) ? "ab".repeat(20) : mode === "40000" ? known.tree : known.blob;
        const extra = treeBytes([{ mode, name, oid }]);
        const next = Buffer.concat([content, extra]);
        return deflateSync(Buffer.concat([Buffer.from(`tree ${next.length}\0`), next]));
      }
      return deflateSync(
        Buffer.concat([Buffer.from(`${header.split(" ")[0]} ${content.length}\0`), damageBytes(r, content)]),
      );
    }
    case 4: {
      const next = damageBytes(r, content);
      return deflateSync(Buffer.concat([Buffer.from(`${header.split(" ")[0]} ${next.length}\0`), next]));
    }
    default:
      // A small compression bomb: declares and holds 8 MiB of zeros (the reader must not need it whole to refuse it).
      return bomb(header.split(" ")[0]!);
  }
}

/** A tree with one more entry, named as git fsck refuses, naming an object the repository holds. */
function hostileTree(r: Rng, raw: Uint8Array, known: { blob: string; tree: string }): Uint8Array {
  let body: Uint8Array;
  try {
    body = new Uint8Array(inflateSync(raw));
  } catch {
    return damageBytes(r, raw); // damaged already, past inflating
  }
  const content = body.subarray(body.indexOf(0) + 1);
  const dir = r.chance(0.3);
  const entry = treeBytes([
    { mode: dir ? "40000" : "100644", name: r.pick(BAD_NAMES), oid: dir ? known.tree : known.blob },
  ]);
  const next = r.chance(0.5) ? Buffer.concat([entry, content]) : Buffer.concat([content, entry]);
  return deflateSync(Buffer.concat([Buffer.from(`tree ${next.length}\0`), next]));
}

/** Rebuilds the pack with damaged entries: declared sizes, types, delta headers and ops, base offsets and ids. */
function damagedPack(r: Rng, files: Map<string, Uint8Array>): void {
  const blobA = enc.encode(A);
  const blobB = enc.encode(B);
  const idB = objectId("blob", blobB);
  const idC = objectId("blob", enc.encode(`${B}\n# tail\n`));
  const prefix = commonPrefix(blobA, blobB);
  let deltaB = Uint8Array.from([
    ...deltaVarint(blobA.length),
    ...deltaVarint(blobB.length),
    ...copyOp(0, prefix),
    ...insertOps(blobB.subarray(prefix)),
  ]);
  let deltaC = Uint8Array.from([
    ...deltaVarint(blobB.length),
    ...deltaVarint(blobB.length + 9),
    ...copyOp(0, blobB.length),
    ...insertOps(enc.encode("\n# tail\n")),
  ]);
  const which = r.int(7);
  if (which === 0) deltaB = damageBytes(r, deltaB);
  if (which === 1)
    deltaC = Uint8Array.from([
      ...deltaVarint(r.pick([0, blobB.length, 2 ** 40])),
      ...deltaVarint(r.pick([0, 1, 2 ** 32, 2 ** 40, 2 ** 53 + 2])),
      ...deltaC.subarray(4),
    ]);
  if (which === 2) deltaC = Uint8Array.from([...deltaC.subarray(0, 4), ...r.bytes(1 + r.int(40))]);
  const entries: PackEntry[] = [
    { kind: "blob", body: blobA, ...(which === 3 ? { declaredSize: r.pick([0, 1, 2 ** 30, 2 ** 40]) } : {}) },
    { ofsDeltaOf: which === 4 ? 1 : 0, delta: deltaB, oid: idB },
    { refDelta: which === 5 ? "cd".repeat(20) : idB, delta: deltaC, oid: idC },
  ];
  writePack(files, entries);
  if (which === 6) {
    const name = `objects/pack/pack-${"a".repeat(40)}.${r.pick(["idx", "pack"])}`;
    files.set(name, damageBytes(r, files.get(name)!));
  }
}

/** Damages refs: HEAD, a branch, packed-refs. */
function damageRefs(r: Rng, files: Map<string, Uint8Array>): void {
  const target = r.pick(["HEAD", "refs/heads/main", "packed-refs"]);
  const value = r.pick([
    "ref: refs/heads/../../../etc/passwd\n",
    "ref: /etc/passwd\n",
    "ref: HEAD\n",
    "ref: refs/heads/main\n",
    "ref: refs/heads/loop\n",
    "",
    "zz\n",
    `${"0".repeat(40)}\n`,
    `${"f".repeat(39)}\n`,
    `ref: ${"refs/heads/x/".repeat(200)}\n`,
  ]);
  files.set(
    target,
    target === "packed-refs" ? damageBytes(r, files.get(target) ?? enc.encode(value)) : enc.encode(value),
  );
  if (value === "ref: refs/heads/loop\n") put(files, "refs/heads/loop", "ref: refs/heads/main\n");
}

describe("fuzz: git objects (loose, packed, deltas) and refs", () => {
  it(`${SEEDS} damaged repositories: no crash, no path outside the root`, async () => {
    let readable = 0;
    for (const seed of seedList(SEEDS)) {
      const r = rng(seed);
      const { files, loose, known } = baseRepo();
      const kinds = 1 + r.int(2);
      for (let k = 0; k < kinds; k++) {
        switch (r.int(5)) {
          case 0:
          case 1: {
            const oid = r.pick(loose);
            const key = `objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
            files.set(key, damageLoose(r, files.get(key)!, known));
            break;
          }
          case 3: {
            // A hostile name added to one of the trees every revision reads.
            const oid = r.pick(loose.filter((_, i) => i % 3 !== 2)); // the trees, not the commits
            const key = `objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
            files.set(key, hostileTree(r, files.get(key)!, known));
            break;
          }
          case 2:
            damagedPack(r, files);
            break;
          default:
            damageRefs(r, files);
        }
      }
      const fs = new MemoryFileSystem(Object.fromEntries([...files].map(([k, v]) => [`.git/${k}`, v])));
      const paths: string[] = [];
      await engineErrorOr(seed, "the git reader", async () => {
        const repo = await openGitRepository(fs);
        const head = await repo.resolve(r.pick(["HEAD", "main", "HEAD~1", "v1", "HEAD^{commit}"]));
        const commit = await repo.readCommit(head);
        const parent = commit.parents[0] ? await repo.readCommit(commit.parents[0]) : undefined;
        const changes = await repo.diffTrees(parent?.tree, commit.tree);
        for (const c of changes) {
          paths.push(c.path);
          if (c.newOid) await repo.readBlob(c.newOid, 1 << 20);
          if (c.oldOid) await repo.readBlob(c.oldOid, 1 << 20);
        }
        for (const p of (await repo.flatten(commit.tree)).keys()) paths.push(p);
        readable++;
      });
      for (const p of paths) expect(insideRoot(p), `seed ${seed}: ${JSON.stringify(p)}`).toBe(true);
    }
    // Some seeds must still read (the damage is not always fatal): the suite tests the reader, not only its refusals.
    expect(readable).toBeGreaterThan(0);
  }, 60_000);

  it("the engine's changes over damaged repositories (a third of the seeds): no crash, no path outside the root", async () => {
    for (const seed of seedList(SEEDS).filter((s) => s % 3 === 0)) {
      const r = rng(seed + 100_000);
      const { files, loose, known } = baseRepo();
      const oid = r.pick(loose);
      const key = `objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
      if (r.chance(0.6)) files.set(key, damageLoose(r, files.get(key)!, known));
      else damagedPack(r, files);
      const tree: Record<string, string | Uint8Array> = { "a.py": B, "c.py": A, "pkg/b.py": A };
      for (const [k, v] of files) tree[`.git/${k}`] = v;
      const platform = memoryPlatform(tree);
      const engine = createEngine(platform);
      const answer = await engineErrorOr(seed, "changes", () =>
        engine.changes(r.pick([{}, { head: "HEAD" }, { base: "HEAD~1", head: "HEAD" }, { base: "v1" }])),
      );
      for (const f of answer?.files ?? []) expect(insideRoot(f.path), `seed ${seed}: ${f.path}`).toBe(true);
      engine.close();
    }
  }, 60_000);
});

// ------------------------------------------------------------------ unified diffs

const PROJECT: Record<string, string> = {
  "app/core.py": "import os\n\n\ndef helper(x):\n    return x + 1\n\n\ndef compute(a, b):\n    return helper(a) + b\n",
  "app/api.py": "from app.core import compute\n\n\ndef handler(req):\n    return compute(req, 2)\n",
  "web/util.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
};

/** A diff of one random edit to a project file, as git writes it. */
function validDiff(r: Rng): string {
  const path = r.pick(Object.keys(PROJECT));
  const lines = PROJECT[path]!.replace(/\n$/, "").split("\n");
  const at = r.int(lines.length);
  const removed = lines.slice(at, at + 1);
  const added = r.chance(0.5) ? [`    # edited ${r.int(1000)}`] : [];
  const before = lines.slice(Math.max(0, at - 3), at);
  const after = lines.slice(at + 1, at + 4);
  const oldStart = at - before.length + 1;
  const body = [
    ...before.map((l) => ` ${l}`),
    ...removed.map((l) => `-${l}`),
    ...added.map((l) => `+${l}`),
    ...after.map((l) => ` ${l}`),
  ];
  const oldCount = before.length + removed.length + after.length;
  const newCount = before.length + added.length + after.length;
  return `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -${oldStart},${oldCount} +${oldStart},${newCount} @@\n${body.join("\n")}\n`;
}

/** Damages a diff line by line: hostile paths, numbers, markers, quoting, huge hunks. */
function damageDiff(r: Rng, diff: string): string {
  let lines = diff.split("\n");
  const n = 1 + r.int(3);
  for (let k = 0; k < n; k++) {
    const at = r.int(lines.length);
    switch (r.int(9)) {
      case 0:
        lines[at] = lines[at]!.replace(
          /[ab]\/\S+/,
          r.pick([
            "a/../../etc/passwd",
            "b//etc/passwd",
            "a/.git/config",
            '"a/new\\nline.py"',
            '"b/\\303\\251.py"',
            "a/",
            "/dev/null",
            `a/${"x/".repeat(500)}y.py`,
          ]),
        );
        break;
      case 1:
        lines[at] = lines[at]!.replace(/\d+/g, () => String(r.pick([0, 1, 99999999, 2 ** 31, -1, 2 ** 53])));
        break;
      case 2:
        lines.splice(at, 1);
        break;
      case 3:
        lines.splice(
          at,
          0,
          r.pick([
            "\\ No newline at end of file",
            "Binary files a/x and b/x differ",
            "GIT binary patch",
            "rename from ../x",
            "rename to /y",
            "new file mode 100644",
            "deleted file mode 100644",
            "similarity index 90%",
            "@@ -1 +1 @@",
            "--- /dev/null",
            "+++ b/../x.py",
            "```",
          ]),
        );
        break;
      case 4:
        lines[at] = `${lines[at]}${"\r"}`;
        break;
      case 5:
        lines = [...lines, ...lines];
        break;
      case 6:
        lines.splice(at, 0, ...Array.from({ length: 2000 + r.int(3000) }, (_, i) => `+x${i} = ${i}`));
        break;
      case 7:
        lines[at] = dec.decode(damageBytes(r, enc.encode(lines[at]!)));
        break;
      default:
        lines.splice(
          at,
          0,
          `diff --git a/${r.pick(["app/core.py", "../out.py", "/abs.py", "app/api.py"])} b/${r.pick(["app/core.py", "x.py", "..", "app/api.py"])}`,
        );
    }
  }
  return lines.join("\n");
}

describe("fuzz: unified diffs", () => {
  it(`${SEEDS} damaged diffs through changes: no crash, no path outside the root`, async () => {
    const platform = memoryPlatform(PROJECT);
    const engine = createEngine(platform);
    await engine.index();
    let answered = 0;
    for (const seed of seedList(SEEDS)) {
      const r = rng(seed);
      const parts = Array.from({ length: 1 + r.int(3) }, () => validDiff(r));
      const diff = r.chance(0.1) ? dec.decode(r.bytes(r.int(400))) : damageDiff(r, parts.join(""));
      // The parser and the hunk applier alone, on every file the diff names.
      await engineErrorOr(seed, "parseUnifiedDiff", async () => {
        for (const p of parseUnifiedDiff(diff))
          applyHunks(toLines(PROJECT[p.oldPath ?? ""] ?? ""), p.hunks, r.chance(0.5));
      });
      const answer = await engineErrorOr(seed, "changes --diff", () =>
        engine.changes({ diff, budget: r.pick([200, 2000, 8000]) }),
      );
      if (answer) answered++;
      for (const f of answer?.files ?? []) {
        expect(insideRoot(f.path), `seed ${seed}: ${JSON.stringify(f.path)}`).toBe(true);
        if (f.oldPath !== undefined)
          expect(insideRoot(f.oldPath), `seed ${seed}: ${JSON.stringify(f.oldPath)}`).toBe(true);
      }
      for (const chunk of answer?.chunks ?? [])
        expect(insideRoot(chunk.path), `seed ${seed}: cites ${JSON.stringify(chunk.path)}`).toBe(true);
    }
    expect(answered).toBeGreaterThan(0);
    engine.close();
  }, 60_000);
});

// ------------------------------------------------------------------ MCP arguments

/** A hostile value of any JSON type. */
function anyValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 6 : 9)) {
    case 0:
      return r.pick([0, -1, 1, 1.5, 2 ** 31, -(2 ** 53), 1e308, Number.MAX_SAFE_INTEGER]);
    case 1:
      return r.pick([
        "",
        " ",
        "../../etc/passwd",
        "/etc/passwd",
        "file:///etc/passwd",
        "C:\\Windows\\win.ini",
        "app/core.py",
        "compute",
        "helper",
        "app.core.compute",
        "GET /",
        "PUT /items/{id}",
        "\u0000",
        "new\nline",
        "é",
        "```",
        "10.summary.1",
        "10.summary.1.vzzzz",
        "999999999.only.99",
      ]);
    case 2:
      return "x".repeat(r.pick([1000, 10_001, 100_000, 1 << 20]));
    case 3:
      return r.chance(0.5);
    case 4:
      return null;
    case 5:
      return dec.decode(r.bytes(1 + r.int(64)));
    case 6:
      return Array.from({ length: r.int(4) }, () => anyValue(r, depth + 1));
    case 7:
      return {
        __proto__: anyValue(r, depth + 1),
        constructor: "x",
        [r.pick(["a", "toString", "budget"])]: anyValue(r, depth + 1),
      };
    default:
      return r.pick([undefined, "app/core.py:1-999999", "app/core.py::compute", '"app/core.py":2']);
  }
}

/** A value as text, whatever it is (an object without a prototype has no toString). */
const asText = (v: unknown): string => (typeof v === "string" ? v : (JSON.stringify(v) ?? "undefined"));

/** Arguments for `tool`: mostly the right names with hostile values, sometimes unknown names. */
function toolArgs(r: Rng, tool: string): Record<string, unknown> {
  const names: Record<string, string[]> = {
    repo_map: ["budget", "kind", "prefix", "method"],
    context: ["target", "budget"],
    search: ["query", "limit"],
    signature: ["symbol"],
    callers: ["symbol", "depth", "limit", "cursor", "tests", "budget"],
    callees: ["symbol", "depth", "limit", "cursor", "tests", "budget"],
    importers: ["file", "depth", "limit", "cursor", "budget"],
    tests: ["target", "depth", "limit", "cursor", "budget"],
    trace: ["from", "to", "k", "maxHops", "budget"],
    read_snippet: ["path", "start_line", "end_line"],
    pack: ["task", "budget"],
    impact: ["target", "direction", "depth", "limit", "cursor", "tests", "budget"],
    changes: ["diff", "staged", "base", "head", "target", "budget"],
    shape_check: ["target", "rename", "remove", "budget"],
    grep: ["pattern", "paths", "ignore_case", "max_matches"],
    rename: ["symbol", "new_name", "apply", "mentions"],
    query: ["q", "kind", "budget"],
    check: ["limit"],
    dataflow: ["target", "variable", "line"],
  };
  const out: Record<string, unknown> = {};
  for (const name of names[tool] ?? []) if (r.chance(0.7)) out[name] = anyValue(r);
  if (r.chance(0.1)) out[r.pick(["extra", "__proto__", "constructor"])] = anyValue(r);
  return out;
}

describe("fuzz: MCP arguments", () => {
  it(`${SEEDS} hostile calls of tools, resources and prompts: no crash, nothing read outside the root`, async () => {
    const platform = memoryPlatform({ ...PROJECT, "app/secret.txt": "not source" });
    const engine = createEngine(platform);
    const c = await connect(engine, { fs: platform.fs });
    const tools = (await c.client.listTools()).tools.map((t) => t.name);
    try {
      for (const seed of seedList(SEEDS)) {
        const r = rng(seed);
        const kind = r.int(10);
        let text = "";
        try {
          if (kind < 7) {
            const tool = r.pick(tools);
            const res = await c.client.callTool({ name: tool, arguments: toolArgs(r, tool) });
            text = (res.content as { type: string; text?: string }[]).map((x) => x.text ?? "").join("\n");
            expect(text, `seed ${seed}: ${tool}`).not.toMatch(/internal error/);
          } else if (kind === 7) {
            const uri =
              r.pick(["codeslice://map", "codeslice://outline/", "codeslice://symbol/"]) +
              encodeURIComponent(asText(anyValue(r)));
            const res = await c.client.readResource({ uri });
            text = res.contents.map((x) => String((x as { text?: string }).text ?? "")).join("\n");
          } else if (kind === 8) {
            await c.client.subscribeResource({ uri: asText(anyValue(r)) });
          } else {
            const name = r.pick([
              "review_diff",
              "explain_symbol",
              "plan_change",
              "detect_impact",
              "generate_map",
              "nope",
            ]);
            const res = await c.client.getPrompt({
              name,
              arguments: {
                diff: asText(anyValue(r)),
                symbol: asText(anyValue(r)),
                task: asText(anyValue(r)),
                base: asText(anyValue(r)),
                budget: asText(anyValue(r)),
              },
            });
            text = res.messages.map((m) => (m.content as { text?: string }).text ?? "").join("\n");
            expect(text.length, `seed ${seed}: ${name}`).toBeLessThan(200_000);
          }
        } catch (error) {
          // A protocol error (invalid params, not found) is an answer; a crash or a dropped connection is not.
          if (!(error instanceof Error) || !/MCP error -?\d+/.test(error.message))
            throw new Error(`seed ${seed}: ${(error as Error)?.stack ?? String(error)}`);
        }
        expect(text, `seed ${seed}`).not.toMatch(/^## (\.\.\/|\/)/m);
        expect(text, `seed ${seed}`).not.toContain("root:x:0:0");
      }
      // The server still answers after every seed.
      const ok = await c.client.callTool({ name: "search", arguments: { query: "compute" } });
      expect(ok.isError).toBeFalsy();
    } finally {
      await c.close();
    }
  }, 60_000);
});
