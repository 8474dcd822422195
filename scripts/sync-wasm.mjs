#!/usr/bin/env node
// Fills wasm/ from pinned npm packages and rewrites wasm/wasm.lock.json (package@version, ABI, sha256;
// for a grammar codeslice builds itself, also how it was built). Run by maintainers when a pin moves;
// the files are committed so a fresh clone, the browser build and the published tarball all load the
// same bytes. `test/wasm/lock.test.ts` checks the lock on every run.
//
// Each grammar is the one that won test/bench/grammar-fidelity.mjs for its language (figures in
// test/bench/results/grammar-fidelity.md). Grammars marked `build` are compiled by
// scripts/build-grammars.mjs (needs emscripten and Debian's tree-sitter CLI, see there); with
// `--no-build` the committed built files are kept as they are (their lock entries too) and only the
// npm-sourced files are refreshed.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildGrammar } from "./build-grammars.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "wasm");
const noBuild = process.argv.includes("--no-build");
const RUNTIME = { pkg: "web-tree-sitter@0.27.2", path: "web-tree-sitter.wasm" };
/**
 * Grammars the engine loads, by wasm file name, from each language's `grammarSource` (its spec in
 * src/languages/<id>/, read from the build: run `node scripts/build.mjs` first): a file inside a
 * pinned npm package, or a grammar built by scripts/build-grammars.mjs.
 */
const { LANGUAGES } = await import("../dist/languages/index.js");
const GRAMMARS = [];
for (const l of LANGUAGES) {
  if (!l.grammarSource) throw new Error(`${l.id}: its spec names no grammarSource`);
  if (GRAMMARS.some((g) => g.file === l.grammar)) continue;
  const s = l.grammarSource;
  GRAMMARS.push("build" in s ? { file: l.grammar, build: s.build } : { file: l.grammar, pkg: s.package, path: s.path });
}

const tmp = mkdtempSync(join(tmpdir(), "codeslice-wasm-"));
const unpacked = new Map();
function unpack(spec) {
  if (unpacked.has(spec)) return unpacked.get(spec);
  const tgz = execFileSync("npm", ["pack", spec, "--silent"], { cwd: tmp, encoding: "utf8" }).trim().split("\n").pop();
  const dir = join(tmp, tgz.replace(/\.tgz$/, ""));
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["xzf", join(tmp, tgz), "-C", dir]);
  unpacked.set(spec, join(dir, "package"));
  return join(dir, "package");
}
const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

const previous = existsSync(join(out, "wasm.lock.json"))
  ? JSON.parse(readFileSync(join(out, "wasm.lock.json"), "utf8"))
  : { files: [] };
const keep = new Set(noBuild ? GRAMMARS.filter((g) => g.build).map((g) => g.file) : []);
mkdirSync(out, { recursive: true });
for (const f of readdirSync(out)) if (f.endsWith(".wasm") && !keep.has(f)) rmSync(join(out, f));

const entries = [];
const add = (src, name, source) => {
  copyFileSync(src, join(out, name));
  entries.push({ file: name, source, sha256: sha256(src) });
};
add(join(unpack(RUNTIME.pkg), RUNTIME.path), "web-tree-sitter.wasm", RUNTIME.pkg);
for (const g of GRAMMARS) {
  if (g.pkg) {
    add(join(unpack(g.pkg), g.path), g.file, g.pkg);
  } else if (noBuild) {
    const entry = previous.files.find((f) => f.file === g.file);
    if (!entry?.build || !existsSync(join(out, g.file)) || sha256(join(out, g.file)) !== entry.sha256) {
      throw new Error(`--no-build: ${g.file} is not a committed build matching its lock entry; run without --no-build`);
    }
    entries.push(entry);
  } else {
    const built = buildGrammar(g.build, join(tmp, "built"));
    copyFileSync(join(tmp, "built", g.file), join(out, g.file));
    entries.push(built);
  }
}
rmSync(tmp, { recursive: true, force: true });

// ABI versions are read by loading each grammar with the pinned runtime.
const { Parser, Language } = await import("web-tree-sitter");
await Parser.init({ wasmBinary: readFileSync(join(out, "web-tree-sitter.wasm")) });
for (const e of entries) {
  if (e.file === "web-tree-sitter.wasm") continue;
  const lang = await Language.load(readFileSync(join(out, e.file)));
  e.abi = lang.abiVersion;
}
const lock = {
  lockfileVersion: 1,
  runtime: RUNTIME.pkg,
  files: entries.map(({ file, source, sha256: sha, abi, build }) => ({
    file,
    source,
    sha256: sha,
    abi,
    ...(build ? { build } : {}),
  })),
};
writeFileSync(join(out, "wasm.lock.json"), JSON.stringify(lock, null, 2) + "\n");
console.log(`wasm/: ${entries.length} files`);
