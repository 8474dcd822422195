#!/usr/bin/env node
// Fills wasm/ from pinned npm packages and rewrites wasm/wasm.lock.json (package@version, ABI, sha256).
// Run by maintainers when a pin moves; the files are committed so a fresh clone, the browser build and
// the published tarball all load the same bytes. `test/wasm/lock.test.ts` checks the lock on every run.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "wasm");
const PINS = {
  runtime: { pkg: "web-tree-sitter", version: "0.27.2", file: "web-tree-sitter.wasm" },
  vscode: { pkg: "@vscode/tree-sitter-wasm", version: "0.3.1", dir: "wasm" },
  c: { pkg: "tree-sitter-c", version: "0.24.1", file: "tree-sitter-c.wasm" },
};
// Grammars the engine loads, by wasm file name (tsx also serves JSX-flavoured JavaScript).
const VSCODE_GRAMMARS = ["typescript", "tsx", "javascript", "python", "go", "java", "rust", "cpp", "c-sharp", "ruby", "php"];

const tmp = mkdtempSync(join(tmpdir(), "codeslice-wasm-"));
function unpack(pkg, version) {
  const tgz = execFileSync("npm", ["pack", `${pkg}@${version}`, "--silent"], { cwd: tmp, encoding: "utf8" }).trim().split("\n").pop();
  const dir = join(tmp, tgz.replace(/\.tgz$/, ""));
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["xzf", join(tmp, tgz), "-C", dir]);
  return join(dir, "package");
}

mkdirSync(out, { recursive: true });
for (const f of readdirSync(out)) if (f.endsWith(".wasm")) rmSync(join(out, f));
const entries = [];
const add = (src, name, source) => {
  copyFileSync(src, join(out, name));
  entries.push({ file: name, source, sha256: createHash("sha256").update(readFileSync(src)).digest("hex") });
};
const rt = unpack(PINS.runtime.pkg, PINS.runtime.version);
add(join(rt, PINS.runtime.file), "web-tree-sitter.wasm", `${PINS.runtime.pkg}@${PINS.runtime.version}`);
const vs = unpack(PINS.vscode.pkg, PINS.vscode.version);
for (const g of VSCODE_GRAMMARS) add(join(vs, PINS.vscode.dir, `tree-sitter-${g}.wasm`), `tree-sitter-${g}.wasm`, `${PINS.vscode.pkg}@${PINS.vscode.version}`);
const c = unpack(PINS.c.pkg, PINS.c.version);
add(join(c, PINS.c.file), "tree-sitter-c.wasm", `${PINS.c.pkg}@${PINS.c.version}`);
rmSync(tmp, { recursive: true, force: true });

// ABI versions are read by loading each grammar with the pinned runtime.
const { Parser, Language } = await import("web-tree-sitter");
await Parser.init({ wasmBinary: readFileSync(join(out, "web-tree-sitter.wasm")) });
for (const e of entries) {
  if (e.file === "web-tree-sitter.wasm") continue;
  const lang = await Language.load(readFileSync(join(out, e.file)));
  e.abi = lang.abiVersion;
}
const lock = { lockfileVersion: 1, runtime: `${PINS.runtime.pkg}@${PINS.runtime.version}`, files: entries };
writeFileSync(join(out, "wasm.lock.json"), JSON.stringify(lock, null, 2) + "\n");
console.log(`wasm/: ${entries.length} files`);
