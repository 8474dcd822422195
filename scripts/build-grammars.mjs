#!/usr/bin/env node
// Builds the grammars codeslice compiles itself, reproducibly, from pinned npm packages:
//
//   tree-sitter-typescript.wasm, tree-sitter-tsx.wasm
//       tree-sitter-typescript@0.23.2 (+ tree-sitter-javascript@0.23.1, which its grammar extends),
//       extended by scripts/grammars/typescript-extensions.js (variance annotations, `export type *`,
//       escapes in template literal types) and regenerated
//       with `tree-sitter generate`; its external scanner gets two small edits (patchTypeScriptScanner).
//   tree-sitter-swift.wasm, tree-sitter-kotlin.wasm   (benchmark candidates only, not shipped)
//       the package's own generated src/parser.c and src/scanner.c, compiled as they are.
//
// Tools, both from Debian so every machine here gets the same bytes:
//   emcc       Debian 12's `emscripten` 3.1.6 (`apt-get install -y emscripten`)
//   tree-sitter Debian 13's `tree-sitter-cli` 0.22.6-6+b1, fetched with `apt-get download` (with a
//              private apt state under the cache folder, the mirror taken from this machine's own apt
//              sources; the .deb's sha256 is checked) and run through Debian 13's dynamic loader and
//              libc (current libc6, libgcc-s1 of that suite), which it needs (GLIBC_2.39). Debian's
//              build lacks `build --wasm`, so emcc is called directly, with the flags
//              `tree-sitter build --wasm` uses (EMCC_FLAGS). Set TREE_SITTER_CLI to use another
//              tree-sitter 0.22.6 binary. The same inputs and tools gave byte-identical files.
//
// Usage: node scripts/build-grammars.mjs [--only typescript,tsx] [--out DIR]
//   Writes DIR/<file>.wasm (default: ~/.cache/codeslice-grammars/out) and DIR/build.json (inputs,
//   tool versions, sha256). `npm run wasm:sync` runs this for the shipped grammars.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cache = process.env.CODESLICE_GRAMMAR_CACHE || path.join(os.homedir(), ".cache/codeslice-grammars");

/** The pinned tools. */
export const TOOLS = {
  emcc: { version: "3.1.6", debian: "emscripten (Debian 12)" },
  treeSitter: {
    version: "0.22.6",
    deb: "tree-sitter-cli",
    debVersion: "0.22.6-6+b1",
    suite: "trixie",
    sha256: "8da431afff66d67ae6fb690156a849645340ead245de141111714469f1645ab7",
  },
};

/** What each built grammar is made of. */
export const BUILDS = {
  typescript: {
    file: "tree-sitter-typescript.wasm",
    packages: ["tree-sitter-typescript@0.23.2", "tree-sitter-javascript@0.23.1"],
    generate: { extension: "scripts/grammars/typescript-extensions.js", dialect: "typescript" },
    scanner: "typescript",
    symbol: "tree_sitter_typescript",
  },
  tsx: {
    file: "tree-sitter-tsx.wasm",
    packages: ["tree-sitter-typescript@0.23.2", "tree-sitter-javascript@0.23.1"],
    generate: { extension: "scripts/grammars/typescript-extensions.js", dialect: "tsx" },
    scanner: "typescript",
    symbol: "tree_sitter_tsx",
  },
  swift: {
    file: "tree-sitter-swift.wasm",
    packages: ["tree-sitter-swift@0.7.1"],
    srcDir: "src",
    symbol: "tree_sitter_swift",
  },
  kotlin: {
    file: "tree-sitter-kotlin.wasm",
    packages: ["tree-sitter-kotlin@0.3.8"],
    srcDir: "src",
    symbol: "tree_sitter_kotlin",
  },
};

const EMCC_FLAGS = [
  "-Os",
  "-fPIC",
  "-s",
  "WASM=1",
  "-s",
  "SIDE_MODULE=2",
  "-s",
  "TOTAL_MEMORY=33554432",
  "-s",
  "NODEJS_CATCH_EXIT=0",
  "-fno-exceptions",
  "-fvisibility=hidden",
];

const sh = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...opts }).trim();
const sha256 = (file) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

function emccVersion() {
  try {
    return /(\d+\.\d+\.\d+)/.exec(sh("emcc", ["--version"]).split("\n")[0])?.[1];
  } catch {
    return undefined;
  }
}

/** The URI of this machine's Debian mirror, read from its apt sources. */
function debianMirror() {
  const candidates = ["/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"];
  for (const file of candidates) {
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, "utf8");
    const deb822 = /^URIs:\s*(\S+)/m.exec(text);
    if (deb822) return deb822[1];
    const line = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+\S+\s+main/m.exec(text);
    if (line) return line[1];
  }
  throw new Error("no Debian mirror found in the apt sources");
}

/** A command line that runs Debian 13's tree-sitter 0.22.6 on this machine. */
function treeSitterCli() {
  if (process.env.TREE_SITTER_CLI) return [process.env.TREE_SITTER_CLI];
  const t = TOOLS.treeSitter;
  const dir = path.join(cache, `tree-sitter-cli-${t.debVersion}`);
  const loader = path.join(dir, "usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
  const cmd = [
    loader,
    "--library-path",
    path.join(dir, "usr/lib/x86_64-linux-gnu"),
    path.join(dir, "usr/bin/tree-sitter"),
  ];
  if (fs.existsSync(path.join(dir, ".complete"))) return cmd;
  if (process.arch !== "x64" || process.platform !== "linux")
    throw new Error("fetching tree-sitter-cli needs linux x64 (or set TREE_SITTER_CLI)");
  fs.rmSync(dir, { recursive: true, force: true });
  const apt = path.join(dir, "apt");
  for (const d of ["lists/partial", "cache/archives/partial", "parts", "debs"])
    fs.mkdirSync(path.join(apt, d), { recursive: true });
  fs.writeFileSync(path.join(apt, "sources.list"), `deb ${debianMirror()} ${t.suite} main\n`);
  const opts = [
    "-o",
    `Dir::Etc::SourceList=${path.join(apt, "sources.list")}`,
    "-o",
    `Dir::Etc::SourceParts=${path.join(apt, "parts")}`,
    "-o",
    `Dir::State::Lists=${path.join(apt, "lists")}`,
    "-o",
    `Dir::Cache=${path.join(apt, "cache")}`,
    "-o",
    "APT::Sandbox::User=root",
  ];
  console.error(`fetching ${t.deb} ${t.debVersion} and its libc from Debian ${t.suite}`);
  sh("apt-get", [...opts, "update"]);
  sh("apt-get", [...opts, "download", `${t.deb}=${t.debVersion}`, "libc6", "libgcc-s1"], {
    cwd: path.join(apt, "debs"),
  });
  for (const deb of fs.readdirSync(path.join(apt, "debs"))) {
    const file = path.join(apt, "debs", deb);
    if (deb.startsWith(`${t.deb}_`) && sha256(file) !== t.sha256)
      throw new Error(`${deb}: sha256 ${sha256(file)}, expected ${t.sha256}`);
    sh("dpkg-deb", ["-x", file, dir]);
  }
  const version = sh(cmd[0], [...cmd.slice(1), "--version"]);
  if (!version.includes(t.version)) throw new Error(`unexpected tree-sitter version: ${version}`);
  fs.writeFileSync(path.join(dir, ".complete"), `${version}\n`);
  return cmd;
}

/** `npm pack` + unpack into dir/node_modules/<name>; returns the package folder. */
function unpack(spec, dir) {
  const at = spec.lastIndexOf("@");
  const name = spec.slice(0, at);
  const target = path.join(dir, "node_modules", name);
  fs.mkdirSync(target, { recursive: true });
  const tgz = sh("npm", ["pack", spec, "--silent"], { cwd: dir }).split("\n").pop();
  sh("tar", ["xzf", path.join(dir, tgz), "-C", target, "--strip-components=1"]);
  fs.rmSync(path.join(dir, tgz));
  return target;
}

/** Replaces `from` by `to` exactly once in `text`, or fails: the edit must not drift silently. */
function replaceOnce(text, from, to, what) {
  const n = text.split(from).length - 1;
  if (n !== 1) throw new Error(`scanner edit "${what}": expected one match, found ${n}`);
  return text.replace(from, to);
}

/**
 * Two edits to the external scanner tree-sitter-typescript shares between its dialects, both where
 * it decides whether a line break ends a statement (automatic semicolon insertion). The scanner
 * already tells a type from an expression by whether a binary operator (`||`) could come next; the
 * edits use that test so that, in a type:
 *   - a line starting with `<` ends the member before it, as a line starting with `(` already does:
 *     overloaded generic call signatures written one per line (`<A>(self: A): A`) parse;
 *   - a line starting with `in` does too: an interface property named `in` parses.
 * In an expression both still continue the line (`a\n< b`, `a\nin b`).
 */
function patchTypeScriptScanner(file) {
  let text = fs.readFileSync(file, "utf8");
  text = replaceOnce(
    text,
    "        case '>':\n        case '<':\n",
    "        case '>':\n",
    "`<` leaves the continuation list",
  );
  text = replaceOnce(
    text,
    "        case '(':\n        case '[':\n            if (valid_symbols[LOGICAL_OR]) {",
    "        case '<':\n        case '(':\n        case '[':\n            if (valid_symbols[LOGICAL_OR]) {",
    "`<` joins `(` and `[`",
  );
  text = replaceOnce(
    text,
    "        case 'i':\n            skip(lexer);\n",
    "        case 'i':\n            if (!valid_symbols[LOGICAL_OR]) {\n                return true;\n            }\n            skip(lexer);\n",
    "`in` in a type",
  );
  fs.writeFileSync(file, text);
}

/** Builds one grammar into `out`; returns its build record. */
export function buildGrammar(id, out) {
  const spec = BUILDS[id];
  if (!spec) throw new Error(`unknown grammar ${id}`);
  const emcc = emccVersion();
  if (!emcc) throw new Error("emcc not found: apt-get install -y emscripten");
  if (emcc !== TOOLS.emcc.version)
    console.error(`warning: emcc ${emcc}, the lock was built with ${TOOLS.emcc.version}: the bytes will differ`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `codeslice-grammar-${id}-`));
  try {
    const pkgs = spec.packages.map((p) => unpack(p, work));
    let srcDir;
    let generatedWith;
    if (spec.generate) {
      const { extension, dialect } = spec.generate;
      const dir = path.join(work, dialect);
      fs.mkdirSync(dir, { recursive: true });
      fs.copyFileSync(path.join(root, extension), path.join(dir, path.basename(extension)));
      fs.writeFileSync(
        path.join(dir, "grammar.js"),
        `module.exports = require("./${path.basename(extension)}")(${JSON.stringify(dialect)});\n`,
      );
      const cli = treeSitterCli();
      sh(cli[0], [...cli.slice(1), "generate", "--no-bindings", "grammar.js"], {
        cwd: dir,
        env: { ...process.env, NODE_PATH: path.join(work, "node_modules") },
      });
      generatedWith = sh(cli[0], [...cli.slice(1), "--version"]);
      if (!process.env.TREE_SITTER_CLI)
        generatedWith += ` (Debian ${TOOLS.treeSitter.suite} ${TOOLS.treeSitter.deb} ${TOOLS.treeSitter.debVersion})`;
      srcDir = path.join(dir, "src");
      // The package's scanner, next to the regenerated parser: <dialect>/src/scanner.c includes ../../common/scanner.h.
      fs.copyFileSync(path.join(pkgs[0], dialect, "src/scanner.c"), path.join(srcDir, "scanner.c"));
      fs.cpSync(path.join(pkgs[0], "common"), path.join(work, "common"), { recursive: true });
      if (spec.scanner === "typescript") patchTypeScriptScanner(path.join(work, "common/scanner.h"));
    } else {
      srcDir = path.join(pkgs[0], spec.srcDir);
    }
    const sources = ["parser.c", "scanner.c"].filter((f) => fs.existsSync(path.join(srcDir, f)));
    fs.mkdirSync(out, { recursive: true });
    const target = path.join(out, spec.file);
    execFileSync(
      "emcc",
      ["-o", target, ...EMCC_FLAGS, "-s", `EXPORTED_FUNCTIONS=["_${spec.symbol}"]`, "-I", ".", ...sources],
      {
        cwd: srcDir,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    return {
      file: spec.file,
      source: spec.packages[0],
      sha256: sha256(target),
      build: {
        script: "scripts/build-grammars.mjs",
        grammar: id,
        packages: spec.packages,
        ...(spec.generate
          ? { extension: spec.generate.extension, generate: generatedWith }
          : { parser: `${spec.srcDir}/parser.c as published` }),
        ...(spec.scanner ? { scanner: "patchTypeScriptScanner" } : {}),
        emcc: `emcc ${emcc} (${TOOLS.emcc.debian})`,
      },
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const flag = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const only = flag("--only")?.split(",") ?? Object.keys(BUILDS);
  const out = path.resolve(flag("--out") ?? path.join(cache, "out"));
  const records = [];
  for (const id of only) {
    const t0 = Date.now();
    const record = buildGrammar(id, out);
    records.push(record);
    console.error(`${record.file}: ${record.sha256} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  const manifest = path.join(out, "build.json");
  const previous = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, "utf8")) : [];
  const merged = [...previous.filter((r) => !records.some((n) => n.file === r.file)), ...records];
  fs.writeFileSync(manifest, `${JSON.stringify(merged, null, 2)}\n`);
}
