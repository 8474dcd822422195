#!/usr/bin/env node
// Rename benchmark: codeslice's rename preview against each language's own rename on real
// repositories at pinned commits, then --apply and a compile check.
//
// Per case (a symbol and a new name):
//   * reference  the language's own rename at the definition of the symbol and of every method the
//                plan renames with it (its overrides, implementations, the bases it overrides):
//                TypeScript's language service `findRenameLocations` (typescript from node_modules,
//                no strings or comments), Pyright's language server `textDocument/rename` over stdio
//                (pyright from node_modules). Their union is the set of locations the rename must edit.
//   * preview    `codeslice rename SYMBOL NEW --json`; its code edits (not the mentions in strings and
//                comments, which it flags apart and does not write by default) against the reference:
//                recall = found / reference, precision = found / edits. A reference location inside a
//                string or comment that codeslice lists as a mention is counted apart (`inStrings`).
//   * apply      `codeslice rename SYMBOL NEW --apply TOKEN`, then the compile check: Python,
//                `python3 -m compileall -q` of the package and `import <package>` with the checkout's
//                source on the path; TypeScript, `tsc --noEmit` of the sources with the same errors
//                as before the rename (the checkout has no node_modules: the count before is the bar).
//   The checkout is reset (`git checkout -- . && git clean`) before each case.
//
// Rerun (corpora outside the repository; pinned commits below):
//   git clone https://github.com/pallets/itsdangerous /work/corpora/rename/src-pallets+itsdangerous
//   git clone https://github.com/pallets/click /work/corpora/rename/src-pallets+click
//   git clone https://github.com/sindresorhus/ky /work/corpora/rename/src-sindresorhus+ky
//   node scripts/build.mjs && node test/bench/rename-bench.mjs [--corpora DIR] [--only NAME] [--tests]
// --tests also runs the Python projects' test suites (pytest, with the checkout's src/ on the path)
// before any rename and after each apply, and compares the outcomes: the same counts of passed,
// failed, skipped and erroring tests and the same failing test ids. Where the outcome is the same,
// each edit the reference tool does not make is left out in turn and the suite run again: an edit
// whose absence changes a result is needed by the program (Pyright does not type pytest fixtures).
// (ky's suite needs its node_modules, which the checkout does not have: not run.) --pythonpath DIR
// adds DIR to the suites' path, for test dependencies the machine's Python lacks: itsdangerous's
// timed tests need freezegun (`apt-get download python3-freezegun`, its freezegun/ folder in DIR).
// --rope adds Rope (1.7, `apt-get install python3-rope`) as a second Python reference beside Pyright:
// test/bench/rope-rename.py analyses the pristine checkout with Rope's static object analysis (SOA)
// and its dynamic object analysis (DOA: the project's pytest suite run under Rope's tracer, so test
// functions have the fixture values pytest passed them as parameter objects), then asks Rope's
// Rename at the same definitions as Pyright (in_hierarchy for methods, `unsure` at Rope's default:
// occurrences it is not sure of are not renamed; code only). Its interpreter is `python3` (the one
// the suites run with: --ropepython PATH to change it); --ropepath DIR puts Rope on its path when
// that interpreter lacks it (a folder of links to Debian's rope, pytoolconfig and platformdirs and
// their dist-info). Rope's answers are cached per case in <corpora>/rope-cache/ (--rope-cache DIR;
// the key: the questions, the driver's text and the DOA setup), since DOA runs the whole suite traced.
// The figures are then given against Pyright, against Rope and against their union.
// Output: a table on stdout and test/bench/results/rename.json (rename-<only>.json, rename-tests.json
// with --only or --tests, -rope before .json with --rope).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL, fileURLToPath } from "node:url";
import { cliPath, machine, codesliceRevision, parseArgs, resultsDir, writeJson, repoRoot } from "./lib/bench-utils.mjs";

const require = createRequire(import.meta.url);
const ts = require("typescript");
const { flags } = parseArgs(process.argv.slice(2), ["tests", "rope"]);
const corpora = flags.corpora ?? "/work/corpora/rename";

/** The repositories, their pinned commits and the renames tried on each. */
const REPOS = [
  {
    name: "itsdangerous",
    source: "src-pallets+itsdangerous",
    commit: "672971d66a2ef9f85151e53283113f33d642dabd",
    language: "python",
    pkg: "itsdangerous",
    srcDir: "src",
    cases: [
      ["src/itsdangerous/encoding.py::want_bytes", "ensure_bytes", "function"],
      ["src/itsdangerous/encoding.py::base64_encode", "b64_encode", "function, re-exported by __init__"],
      ["src/itsdangerous/encoding.py::int_to_bytes", "int_as_bytes", "function"],
      ["src/itsdangerous/encoding.py::bytes_to_int", "bytes_as_int", "function"],
      ["src/itsdangerous/signer.py::_make_keys_list", "_keys_list", "module-level function"],
      ["src/itsdangerous/signer.py::SigningAlgorithm.get_signature", "compute_signature", "method with overrides"],
      ["src/itsdangerous/signer.py::Signer.sign", "sign_value", "method with an override"],
      ["src/itsdangerous/signer.py::Signer.derive_key", "make_key", "method"],
      ["src/itsdangerous/signer.py::HMACAlgorithm", "HmacAlgorithm", "class"],
      ["src/itsdangerous/serializer.py::Serializer.make_signer", "build_signer", "method"],
      ["src/itsdangerous/serializer.py::Serializer.load_payload", "parse_payload", "method with an override"],
      ["src/itsdangerous/serializer.py::is_text_serializer", "is_text_based", "function"],
      ["src/itsdangerous/timed.py::TimestampSigner.get_timestamp", "current_timestamp", "method"],
      ["src/itsdangerous/exc.py::BadPayload", "BadPayloadError", "class, re-exported"],
    ],
  },
  {
    name: "click",
    source: "src-pallets+click",
    commit: "2c8cd3ac958a7eb316d67f2d316c27086c4c0369",
    language: "python",
    pkg: "click",
    srcDir: "src",
    cases: [
      ["src/click/formatting.py::measure_table", "table_widths", "function"],
      ["src/click/formatting.py::iter_rows", "padded_rows", "function"],
      ["src/click/formatting.py::join_options", "join_opts", "function"],
      ["src/click/formatting.py::HelpFormatter.write_usage", "write_usage_line", "method"],
      ["src/click/utils.py::make_str", "to_str", "function"],
      ["src/click/utils.py::get_app_dir", "app_dir", "function, re-exported by __init__"],
      ["src/click/core.py::batch", "in_batches", "module-level function"],
      ["src/click/core.py::iter_params_for_processing", "params_in_order", "function"],
      ["src/click/core.py::Command.collect_usage_pieces", "usage_pieces", "method with an override"],
      ["src/click/core.py::Command.format_help_text", "write_help_text", "method"],
      ["src/click/core.py::Parameter.get_usage_pieces", "usage_parts", "method with overrides"],
      ["src/click/types.py::ParamType.get_metavar", "metavar_of", "method with overrides"],
    ],
  },
  {
    name: "ky",
    source: "src-sindresorhus+ky",
    commit: "3419113b48e034fdcf8fa6bd3be3da7b3d0d758f",
    language: "typescript",
    cases: [
      ["source/utils/type-guards.ts::isKyError", "isKyErr", "function re-exported through the index barrel"],
      ["source/utils/type-guards.ts::isHTTPError", "isHttpError", "function re-exported through the index barrel"],
      ["source/utils/type-guards.ts::isTimeoutError", "isTimeoutErr", "function re-exported through the index barrel"],
      ["source/utils/merge.ts::validateAndMerge", "checkAndMerge", "module-level function"],
      ["source/utils/merge.ts::mergeHeaders", "combineHeaders", "module-level function"],
      ["source/utils/merge.ts::deepMerge", "mergeDeep", "module-level function"],
      ["source/utils/merge.ts::replaceOption", "replaceOpt", "function re-exported through the index barrel"],
      ["source/utils/normalize.ts::normalizeRetryOptions", "toRetryOptions", "module-level function"],
      ["source/utils/options.ts::findUnknownOptions", "unknownOptionsOf", "module-level function"],
      ["source/utils/body.ts::getBodySize", "bodySizeOf", "module-level function"],
      ["source/errors/HTTPError.ts::HTTPError", "HttpError", "class re-exported through the index barrel"],
      [
        "source/errors/TimeoutError.ts::TimeoutError",
        "RequestTimeoutError",
        "class re-exported through the index barrel",
      ],
      ["source/errors/KyError.ts::KyError", "KyBaseError", "base class re-exported through the index barrel"],
      ["source/core/Ky.ts::Ky.create", "make", "static method"],
    ],
  },
];

const only = flags.only;
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 28, ...opts });

function cli(args, cwd) {
  const r = run(process.execPath, [cliPath, ...args, "--root", cwd, "--quiet", "--json"]);
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = { error: { code: "no_json", message: r.stderr.slice(0, 500) } };
  }
  return { status: r.status, json };
}

function reset(work) {
  execFileSync("git", ["-C", work, "checkout", "-q", "--", "."]);
  // -x: byte code too (a same-length rename compiled within the same second would pass as fresh).
  execFileSync("git", ["-C", work, "clean", "-fdqx", "-e", ".codeslice", "-e", "pyrightconfig.json"]);
}

function checkout(repo) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `rename-${repo.name}-`));
  execFileSync("git", ["clone", "-q", path.join(corpora, repo.source), work]);
  execFileSync("git", ["-C", work, "checkout", "-q", repo.commit]);
  return work;
}

const key = (p, line, col) => `${p}:${line}:${col}`;

// ---- TypeScript: the language service's rename -------------------------------------------------

function tsFiles(work) {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name.startsWith(".") || e.name === "dist") continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.(ts|tsx|mts|cts)$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(full);
    }
  };
  walk(work);
  return out;
}

const TS_OPTIONS = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  exactOptionalPropertyTypes: true,
};

function tsService(work) {
  const files = tsFiles(work);
  const host = {
    getScriptFileNames: () => files,
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined),
    getCurrentDirectory: () => work,
    getCompilationSettings: () => TS_OPTIONS,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

function tsRename(service, work, rel, line, col) {
  const file = path.join(work, rel);
  const text = fs.readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
  const pos = sf.getPositionOfLineAndCharacter(line - 1, col);
  const locs =
    service.findRenameLocations(file, pos, false, false, { providePrefixAndSuffixTextForRename: false }) ?? [];
  return locs.map((l) => {
    const lf = ts.createSourceFile(l.fileName, fs.readFileSync(l.fileName, "utf8"), ts.ScriptTarget.Latest);
    const lc = lf.getLineAndCharacterOfPosition(l.textSpan.start);
    return key(path.relative(work, l.fileName).split(path.sep).join("/"), lc.line + 1, lc.character);
  });
}

function tscErrors(work) {
  const files = tsFiles(work).filter((f) => f.includes(`${path.sep}source${path.sep}`));
  const program = ts.createProgram(files, TS_OPTIONS);
  return ts.getPreEmitDiagnostics(program).length;
}

// ---- Python: Pyright's language server over stdio ---------------------------------------------

function pyrightServer(work, srcDir) {
  const bin = path.join(repoRoot, "node_modules/pyright/langserver.index.js");
  const child = spawn(process.execPath, [bin, "--stdio"], { cwd: work, stdio: ["pipe", "pipe", "ignore"] });
  let buffer = Buffer.alloc(0);
  let nextId = 1;
  const pending = new Map();
  const send = (msg) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...msg }));
    child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    child.stdin.write(body);
  };
  child.stdout.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const head = buffer.indexOf("\r\n\r\n");
      if (head < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, head).toString())[1]);
      if (buffer.length < head + 4 + length) return;
      const msg = JSON.parse(buffer.subarray(head + 4, head + 4 + length).toString());
      buffer = buffer.subarray(head + 4 + length);
      if (msg.id !== undefined && msg.method) {
        // A request from the server: configuration gets defaults, the rest an empty answer.
        // The package's source folder on the search path, so tests that import it resolve.
        const settings = (item) =>
          item.section === "python.analysis"
            ? { extraPaths: [path.join(work, srcDir)], autoSearchPaths: true, diagnosticMode: "workspace" }
            : item.section === "python"
              ? { analysis: { extraPaths: [path.join(work, srcDir)] } }
              : {};
        const result = msg.method === "workspace/configuration" ? msg.params.items.map(settings) : null;
        send({ id: msg.id, result });
      } else if (msg.id !== undefined && pending.has(msg.id)) {
        pending.get(msg.id)(msg);
        pending.delete(msg.id);
      }
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      send({ id, method, params });
    });
  const notify = (method, params) => send({ method, params });
  return {
    async start() {
      await request("initialize", {
        processId: process.pid,
        rootUri: pathToFileURL(work).href,
        capabilities: { workspace: { configuration: true, workspaceEdit: { documentChanges: false } } },
        workspaceFolders: [{ uri: pathToFileURL(work).href, name: "w" }],
      });
      notify("initialized", {});
      // Every Python file of the checkout opened, as it is before any rename: Pyright then
      // searches them all (a file it has not analysed yet is otherwise left out of a rename), and
      // answers from these texts whatever a case's apply writes to disk.
      for (const file of pyFiles(work)) {
        notify("textDocument/didOpen", {
          textDocument: {
            uri: pathToFileURL(file).href,
            languageId: "python",
            version: 1,
            text: fs.readFileSync(file, "utf8"),
          },
        });
      }
    },
    async rename(rel, line, col, newName) {
      const uri = pathToFileURL(path.join(work, rel)).href;
      const reply = await request("textDocument/rename", {
        textDocument: { uri },
        position: { line: line - 1, character: col },
        newName,
      });
      if (reply.error) return { error: reply.error.message, locations: [] };
      const out = [];
      const changes = reply.result?.changes ?? {};
      for (const [u, edits] of Object.entries(changes)) {
        const p = path.relative(work, fileURLToPath(u)).split(path.sep).join("/");
        for (const e of edits) out.push(key(p, e.range.start.line + 1, e.range.start.character));
      }
      for (const dc of reply.result?.documentChanges ?? []) {
        const p = path.relative(work, fileURLToPath(dc.textDocument.uri)).split(path.sep).join("/");
        for (const e of dc.edits) out.push(key(p, e.range.start.line + 1, e.range.start.character));
      }
      return { locations: out };
    },
    stop() {
      child.kill();
    },
  };
}

function pyFiles(work) {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith(".") || e.name === "node_modules" || e.name === "__pycache__") continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith(".py")) out.push(full);
    }
  };
  walk(work);
  return out;
}

/** pytest's arguments, for the suite runs and for Rope's traced run (DOA). */
const PYTEST_ARGS = ["-q", "-p", "no:cacheprovider", "--continue-on-collection-errors", "-rfE", "tests"];

/** The suites' module path: the checkout's source folder, then --pythonpath. */
const suitePath = (work, repo) => [path.join(work, repo.srcDir), ...(flags.pythonpath ? [flags.pythonpath] : [])];

/** pytest's outcome counts and failing ids for the checkout (modules that fail to import are counted, not fatal). */
function pytestOutcome(work, repo) {
  const r = run("python3", ["-m", "pytest", ...PYTEST_ARGS], {
    cwd: work,
    env: { ...process.env, PYTHONPATH: suitePath(work, repo).join(":"), PYTHONDONTWRITEBYTECODE: "1" },
    timeout: 600_000,
  });
  const out = r.stdout ?? "";
  const counts = {};
  const summary = out.trim().split("\n").at(-1) ?? "";
  for (const m of summary.matchAll(/(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected)/g))
    counts[m[2].replace(/s$/, "")] = Number(m[1]);
  const failing = [...out.matchAll(/^(?:FAILED|ERROR) (\S+)/gm)].map((m) => m[1]).sort();
  return { counts, failing };
}

/**
 * The edits the reference tool does not make, each left out in turn: the applied checkout with that
 * one site put back to the old name, the suite run again. An edit whose absence changes the suite's
 * outcome (a test that fails without it, where the whole plan kept every result) is one the program
 * needs, whatever the tool says: Pyright does not type pytest fixtures, so it renames none of the
 * calls on them.
 */
function extraNeeded(work, repo, extra, oldName, newName, baseline) {
  const needed = [];
  for (const k of extra) {
    const [file, line, col] = k.split(":");
    const full = path.join(work, file);
    const text = fs.readFileSync(full, "utf8");
    const lines = text.split("\n");
    const at = lines[Number(line) - 1];
    if (at?.slice(Number(col), Number(col) + newName.length) !== newName) continue;
    lines[Number(line) - 1] = at.slice(0, Number(col)) + oldName + at.slice(Number(col) + newName.length);
    fs.writeFileSync(full, lines.join("\n"));
    try {
      if (!sameOutcome(baseline.tests, pytestOutcome(work, repo))) needed.push(k);
    } finally {
      fs.writeFileSync(full, text);
    }
  }
  return needed;
}

function sameOutcome(a, b) {
  return (
    JSON.stringify(a.counts) === JSON.stringify(b.counts) && JSON.stringify(a.failing) === JSON.stringify(b.failing)
  );
}

function pythonChecks(work, repo) {
  const compile = run("python3", ["-m", "compileall", "-q", path.join(work, repo.srcDir)]);
  const imp = run("python3", ["-c", `import ${repo.pkg}`], {
    env: { ...process.env, PYTHONPATH: path.join(work, repo.srcDir) },
    cwd: os.tmpdir(),
  });
  return {
    compiles: compile.status === 0,
    imports: imp.status === 0,
    detail: (compile.stdout + imp.stderr).slice(-400),
  };
}

// ---- Python: Rope, after its static and dynamic object analysis -------------------------------

const ROPE_DRIVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "rope-rename.py");

/** Where the reference tools are asked: the definition of the symbol and of every method renamed with it. */
const definitionsOf = (plan) => plan.edits.filter((e) => e.why === "definition" || e.why === "override");

const ropeQueries = (plan) =>
  definitionsOf(plan).map((d) => ({ path: d.path, line: d.line, col: d.col, newName: plan.newName }));

/**
 * Rope's rename for the cases of a Python repository (`previews`: each case's plan, null if
 * refused), asked all at once on the pristine checkout, before any case is applied: Rope's object
 * data (SOA, then DOA from the traced suite) describes that source. Answers come from the cache
 * when it holds the case under the same setup (driver text, pytest arguments, module path).
 */
function ropeReferences(repo, work, previews) {
  const file = path.join(flags["rope-cache"] ?? path.join(corpora, "rope-cache"), `${repo.name}-${repo.commit}.json`);
  const setup = {
    driver: createHash("sha256").update(fs.readFileSync(ROPE_DRIVER)).digest("hex"),
    pytest: PYTEST_ARGS,
    path: [repo.srcDir, ...(flags.pythonpath ? [flags.pythonpath] : [])],
  };
  const stamp = createHash("sha256").update(JSON.stringify(setup)).digest("hex").slice(0, 16);
  const cache = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
  const entry = cache[stamp] ?? { setup, analysis: null, cases: {} };
  const keyOf = (plan) => JSON.stringify(ropeQueries(plan));
  const missing = previews.filter((p) => p && !(keyOf(p) in entry.cases));
  if (missing.length) {
    reset(work);
    const request = { root: work, pythonPath: suitePath(work, repo), doa: { args: PYTEST_ARGS } };
    request.queries = missing.flatMap(ropeQueries);
    const env = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };
    if (flags.ropepath) env.PYTHONPATH = flags.ropepath;
    const r = run(flags.ropepython ?? "python3", [ROPE_DRIVER], {
      input: JSON.stringify(request),
      env,
      timeout: 7_200_000,
    });
    if (r.status !== 0) throw new Error(`rope-rename.py failed on ${repo.name}: ${(r.stderr ?? "").slice(-2000)}`);
    const answer = JSON.parse(r.stdout);
    entry.analysis = { rope: answer.rope, soa: answer.soa, doa: answer.doa };
    let next = 0;
    for (const plan of missing) {
      const answers = answer.results.slice(next, next + ropeQueries(plan).length);
      next += answers.length;
      entry.cases[keyOf(plan)] = {
        locations: [...new Set(answers.flatMap((a) => a.locations ?? []))],
        errors: answers.filter((a) => a.error).map((a) => a.error),
      };
    }
    cache[stamp] = entry;
    writeJson(file, cache);
  }
  return { analysis: entry.analysis, forPlan: (plan) => entry.cases[keyOf(plan)] };
}

// ---- One case -------------------------------------------------------------------------------

/** The text of the line a `path:line:col` location is on, trimmed. */
function sourceLine(work, k) {
  const [file, line] = k.split(":");
  return fs.readFileSync(path.join(work, file), "utf8").split("\n")[Number(line) - 1]?.trim();
}

/** codeslice's code edits against one reference's locations (mentions in strings apart). */
function against(refLocations, ours, mentions) {
  const refCode = [...refLocations].filter((k) => !mentions.has(k));
  return {
    reference: refCode.length,
    found: refCode.filter((k) => ours.has(k)).length,
    inStrings: refLocations.size - refCode.length,
    missed: refCode.filter((k) => !ours.has(k)),
    extra: [...ours].filter((k) => !refLocations.has(k)),
  };
}

async function referenceFor(repo, tools, work, plan) {
  // Where each method renamed together is defined: the reference tool is asked at each of them.
  const defs = definitionsOf(plan);
  const all = new Set();
  const errors = [];
  for (const d of defs) {
    if (repo.language === "typescript") for (const k of tsRename(tools.ts, work, d.path, d.line, d.col)) all.add(k);
    else {
      const r = await tools.py.rename(d.path, d.line, d.col, plan.newName);
      if (r.error) errors.push(r.error);
      for (const k of r.locations) all.add(k);
    }
  }
  return { locations: all, errors };
}

async function runCase(repo, tools, work, [symbol, newName, what], baseline) {
  reset(work);
  const preview = cli(["rename", symbol, newName], work);
  if (preview.status !== 0) return { symbol, newName, what, refused: preview.json.error };
  const plan = preview.json;
  const ref = await referenceFor(repo, tools, work, plan);
  const ours = new Set(plan.edits.map((e) => key(e.path, e.line, e.col)));
  const mentions = new Set(plan.mentions.map((e) => key(e.path, e.line, e.col)));
  const uncertain = new Set(plan.uncertain.map((e) => key(e.path, e.line, e.col)));
  const refCode = [...ref.locations].filter((k) => !mentions.has(k));
  const inStrings = [...ref.locations].filter((k) => mentions.has(k)).length;
  const found = refCode.filter((k) => ours.has(k));
  const missed = refCode.filter((k) => !ours.has(k));
  const extra = [...ours].filter((k) => !ref.locations.has(k));
  // Rope beside Pyright (--rope): each against codeslice, and their union.
  const rope = tools.rope?.forPlan(plan);
  const ropeSide = rope && { ...against(new Set(rope.locations), ours, mentions), errors: rope.errors };
  const union = rope && against(new Set([...ref.locations, ...rope.locations]), ours, mentions);
  // The edits some reference does not make: each is left out in turn with --tests.
  const unmatched = [...new Set([...extra, ...(ropeSide?.extra ?? [])])];
  // The source line of every location the references and codeslice disagree on, for checking by hand.
  const disputed = [...new Set([...unmatched, ...missed, ...(ropeSide?.missed ?? [])])];
  const lines = Object.fromEntries(disputed.map((k) => [k, sourceLine(work, k)]));
  const apply = cli(["rename", symbol, newName, "--apply", plan.planToken], work);
  let compile;
  if (repo.language === "python") {
    compile = pythonChecks(work, repo);
    if (baseline.tests) {
      const tests = pytestOutcome(work, repo);
      compile.tests = { same: sameOutcome(baseline.tests, tests), ...tests };
      if (compile.tests.same && apply.status === 0 && unmatched.length)
        compile.tests.extraNeeded = extraNeeded(work, repo, unmatched, symbol.split(/[.:]/).at(-1), newName, baseline);
    }
  } else {
    const errors = tscErrors(work);
    compile = { compiles: errors === baseline.tscErrors, tscErrors: errors };
  }
  return {
    symbol,
    newName,
    what,
    edits: ours.size,
    reference: refCode.length,
    found: found.length,
    inStrings,
    missed: missed.map((k) => ({ at: k, listedUncertain: uncertain.has(k) })),
    extra,
    uncertain: plan.uncertain.length,
    related: plan.related.map((r) => r.qualified),
    referenceErrors: ref.errors,
    ...(ropeSide ? { rope: ropeSide, union } : {}),
    lines,
    applied: apply.status === 0 ? apply.json.edits : apply.json.error,
    compile,
  };
}

async function runRepo(repo) {
  const work = checkout(repo);
  const index = cli(["index"], work);
  if (index.status !== 0) throw new Error(`index failed on ${repo.name}: ${JSON.stringify(index.json)}`);
  const tools = {};
  const baseline = {};
  if (repo.language === "typescript") {
    tools.ts = tsService(work);
    baseline.tscErrors = tscErrors(work);
  } else {
    // Pyright over the same files codeslice indexes (the projects' own configs include src/ only),
    // with the package's source folder on the search path so tests that import it resolve.
    fs.writeFileSync(
      path.join(work, "pyrightconfig.json"),
      JSON.stringify({
        include: ["."],
        exclude: ["**/.codeslice", "**/__pycache__", "**/.*"],
        extraPaths: [repo.srcDir],
      }),
    );
    tools.py = pyrightServer(work, repo.srcDir);
    await tools.py.start();
    Object.assign(baseline, pythonChecks(work, repo));
    if (flags.tests) baseline.tests = pytestOutcome(work, repo);
    if (flags.rope) {
      const previews = repo.cases.map(([symbol, newName]) => {
        reset(work);
        const preview = cli(["rename", symbol, newName], work);
        return preview.status === 0 ? preview.json : null;
      });
      tools.rope = ropeReferences(repo, work, previews);
      baseline.rope = tools.rope.analysis;
    }
  }
  const results = [];
  for (const c of repo.cases) {
    const r = await runCase(repo, tools, work, c, baseline);
    results.push(r);
    const line = r.refused
      ? `refused: ${r.refused.code} ${r.refused.message}`
      : `edits ${r.edits}, reference ${r.reference}, found ${r.found}, extra ${r.extra.length}, missed ${r.missed.length} (uncertain ${r.uncertain})${r.rope ? `, Rope ${r.rope.found}/${r.rope.reference} extra ${r.rope.extra.length}` : ""}, compiles ${r.compile.compiles}${r.compile.imports === false ? " (import fails)" : ""}${r.compile.tests ? `, tests ${r.compile.tests.same ? "same" : "DIFFER"} ${JSON.stringify(r.compile.tests.counts)}` : ""}`;
    process.stderr.write(`${repo.name} ${c[0]} → ${c[1]}: ${line}\n`);
  }
  tools.py?.stop();
  reset(work);
  fs.rmSync(work, { recursive: true, force: true });
  return { name: repo.name, commit: repo.commit, language: repo.language, baseline, results };
}

const started = Date.now();
const repos = [];
for (const repo of REPOS) if (!only || only === repo.name) repos.push(await runRepo(repo));
const cases = repos.flatMap((r) => r.results.map((x) => ({ repo: r.name, ...x })));
const done = cases.filter((c) => !c.refused);
const sum = (f) => done.reduce((a, c) => a + f(c), 0);
/** How many of `extra` the leave-one-out suite runs found needed. */
const neededOf = (c, extra) => extra.filter((k) => c.compile.tests?.extraNeeded?.includes(k)).length;
/** Recall and precision of codeslice's edits against one reference (`side` of a case), per repository and in all. */
function scores(side) {
  const score = (list) => {
    const s = { cases: 0, reference: 0, found: 0, edits: 0, extra: 0, extraNeeded: 0 };
    for (const c of list) {
      const x = side(c);
      if (!x) continue;
      s.cases++;
      s.reference += x.reference;
      s.found += x.found;
      s.edits += c.edits;
      s.extra += x.extra.length;
      s.extraNeeded += neededOf(c, x.extra);
    }
    s.recall = s.reference ? s.found / s.reference : 1;
    s.precision = s.edits ? (s.edits - s.extra) / s.edits : 1;
    s.precisionWithSuite = s.edits ? (s.edits - s.extra + s.extraNeeded) / s.edits : 1;
    return s;
  };
  const perRepo = Object.fromEntries(repos.map((r) => [r.name, score(done.filter((c) => c.repo === r.name))]));
  return { ...perRepo, total: score(done) };
}
const totals = {
  cases: cases.length,
  refused: cases.length - done.length,
  reference: sum((c) => c.reference),
  found: sum((c) => c.found),
  edits: sum((c) => c.edits),
  extra: sum((c) => c.extra.length),
  inStrings: sum((c) => c.inStrings),
  uncertain: sum((c) => c.uncertain),
  compiled: done.filter((c) => c.compile.compiles && c.compile.imports !== false).length,
  testsRun: done.filter((c) => c.compile.tests).length,
  testsSame: done.filter((c) => c.compile.tests?.same).length,
  extraNeeded: sum((c) => neededOf(c, c.extra)),
};
totals.recall = totals.reference ? totals.found / totals.reference : 1;
totals.precision = totals.edits ? (totals.edits - totals.extra) / totals.edits : 1;
// Counting as right the extra edits the test suite proves needed (see extraNeeded).
totals.precisionWithSuite = totals.edits ? (totals.edits - totals.extra + totals.extraNeeded) / totals.edits : 1;
// Against Pyright (the TypeScript language service for TypeScript), Rope and their union (--rope).
const byReference = flags.rope
  ? {
      pyright: scores((c) => c),
      rope: scores((c) => c.rope),
      union: scores((c) => c.union ?? (c.rope === undefined && c.compile.tscErrors !== undefined ? c : undefined)),
    }
  : undefined;
const out = {
  machine: machine(),
  codeslice: codesliceRevision(),
  typescript: ts.version,
  pyright: require("pyright/package.json").version,
  seconds: Math.round((Date.now() - started) / 1000),
  ...(byReference ? { rope: repos.find((r) => r.baseline.rope)?.baseline.rope.rope, byReference } : {}),
  totals,
  repos,
};
const suffix = `${only ? `-${only}` : ""}${flags.tests ? "-tests" : ""}${flags.rope ? "-rope" : ""}`;
writeJson(path.join(resultsDir, `rename${suffix}.json`), out);
console.log("| repo | case | kind | edits | reference | found | extra | missed (listed uncertain) | compiles |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const c of cases) {
  if (c.refused)
    console.log(`| ${c.repo} | ${c.symbol} → ${c.newName} | ${c.what} | refused: ${c.refused.code} | | | | | |`);
  else
    console.log(
      `| ${c.repo} | ${c.symbol} → ${c.newName} | ${c.what} | ${c.edits} | ${c.reference} | ${c.found} | ${c.extra.length} | ${c.missed.length} (${c.missed.filter((m) => m.listedUncertain).length}) | ${c.compile.compiles && c.compile.imports !== false ? "yes" : "NO"} |`,
    );
}
console.log(
  `\nTotal: ${totals.cases} renames (${totals.refused} refused), recall ${totals.recall.toFixed(4)} (${totals.found}/${totals.reference}), precision ${totals.precision.toFixed(4)} (${totals.edits - totals.extra}/${totals.edits}), compiled after apply ${totals.compiled}/${done.length}${totals.testsRun ? `, test suite outcomes unchanged ${totals.testsSame}/${totals.testsRun}` : ""}, reference locations in strings ${totals.inStrings}, uncertain listed ${totals.uncertain}${totals.extra ? `; of the ${totals.extra} edits the tool does not make, ${totals.extraNeeded} are needed by the test suite (left out one at a time, a test's result changes): precision counting them ${totals.precisionWithSuite.toFixed(4)}` : ""}`,
);
if (byReference) printByReference();

/** The figures against each reference, then every location where Rope or Pyright and codeslice differ. */
function printByReference() {
  const fmt = (s) =>
    `recall ${s.recall.toFixed(4)} (${s.found}/${s.reference}), precision ${s.precision.toFixed(4)} (${s.edits - s.extra}/${s.edits})${s.extra ? `, ${s.extraNeeded} of the ${s.extra} extra edits needed by the suite: ${s.precisionWithSuite.toFixed(4)} counting them` : ""}`;
  console.log("\nAgainst each reference (for TypeScript, its language service in the Pyright and union rows):");
  for (const [name, s] of Object.entries(byReference))
    for (const [repo, x] of Object.entries(s))
      if (x.cases) console.log(`  ${name} ${repo} (${x.cases} renames): ${fmt(x)}`);
  console.log(
    "\nDisagreements (N: needed by the suite, left out alone a test's result changes; -: not needed; ?: not run):",
  );
  for (const c of done) {
    const mark = (k) => (c.compile.tests?.extraNeeded ? (c.compile.tests.extraNeeded.includes(k) ? "N" : "-") : "?");
    const rows = [
      ...(c.rope?.extra ?? []).map((k) => ["not Rope", k, mark(k)]),
      ...(c.rope?.missed ?? []).map((k) => ["Rope only", k, ""]),
      ...c.extra.map((k) => ["not Pyright", k, mark(k)]),
      ...c.missed.map((m) => ["Pyright only", m.at, ""]),
    ];
    for (const [what, k, m] of rows) console.log(`  ${c.repo} ${c.symbol}: ${what} ${m} ${k}  ${c.lines?.[k] ?? ""}`);
  }
}
