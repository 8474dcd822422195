#!/usr/bin/env node
// Language server latency: `codeslice lsp` over stdio, as an editor sees it, with the server warm.
//
// Starts the built server on a corpus (default: django, see below), waits for its first index,
// then, in several rounds, times round trips of:
//   * textDocument/definition, textDocument/hover, textDocument/references at call sites
//     (positions taken from `codeslice graph --json`: the called name on each sampled call line)
//   * workspace/symbol for names of definitions
//   * definition right after an unsaved edit (didChange) of the file it is asked in
// Each round's p50 and p90 are recorded; the figures reported are the medians over the rounds
// (the first round apart: it may still wait for the background re-scan and the search warm-up).
// Before that, responsiveness during a cold first index (an empty cache folder), with 1 parse
// thread and with the server's default (at least 2): every 250 ms a workspace/symbol request is
// sent and cancelled 20 ms later; the time from the cancel to the RequestCancelled answer is what
// an editor waits while the index runs (the engine's thread answers between pieces of work).
// The machines are shared: the load average at start and end is recorded next to the figures.
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- lsp [CORPUS_DIR] [--rounds N] [--positions N] [--no-cold]
// Default corpus: /work/corpora/lsp/django, else Debian's django (apt-get install -y python3-django)
// copied to a temp folder and committed to a fresh git repository (the scan is git-aware).
// Output: a markdown table on stdout and test/bench/results/lsp-<corpus>.json.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import protocol from "vscode-languageserver-protocol/node";
import { cliPath, codesliceRevision, ensureBuilt, machine, resultsDir, stats } from "./lib/bench-utils.mjs";

const { createProtocolConnection, StreamMessageReader, StreamMessageWriter } = protocol;
const DJANGO = "/usr/lib/python3/dist-packages/django";
const argv = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const ROUNDS = Number(flag("rounds", 5));
const POSITIONS = Number(flag("positions", 200));
const NO_COLD = argv.includes("--no-cold");
const positional = argv.filter((a, i) => !a.startsWith("--") && !["--rounds", "--positions"].includes(argv[i - 1]))[0];

/** The corpus folder: the argument, /work/corpora/lsp/django, or a committed copy of Debian's django. */
function corpus() {
  if (positional) return path.resolve(positional);
  if (fs.existsSync("/work/corpora/lsp/django/.git")) return "/work/corpora/lsp/django";
  if (!fs.existsSync(DJANGO)) {
    console.error(`No corpus: pass a folder, or apt-get install -y python3-django (${DJANGO}).`);
    process.exit(1);
  }
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-lsp-bench-")), "django");
  fs.cpSync(DJANGO, dir, { recursive: true, filter: (p) => !p.includes("__pycache__") });
  const git = (...a) => execFileSync("git", a, { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=bench@codeslice", "-c", "user.name=bench", "commit", "-qm", "django");
  return dir;
}

/** `n` entries spread evenly over `list`. */
function spread(list, n) {
  if (list.length <= n) return list;
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);
}

/** Call-site positions (the callee's name on the call line) and names to search, from `graph --json`. */
function positionsOf(root) {
  const graph = JSON.parse(
    execFileSync(process.execPath, [cliPath, "graph", "--json", "--root", root, "--quiet"], {
      encoding: "utf8",
      maxBuffer: 1 << 30,
    }),
  );
  const byQualified = new Map(graph.definitions.map((d) => [d.qualified, d]));
  const texts = new Map();
  const lineOf = (file, n) => {
    if (!texts.has(file)) texts.set(file, fs.readFileSync(path.join(root, file), "utf8").split("\n"));
    return texts.get(file)[n - 1] ?? "";
  };
  const sites = [];
  for (const e of spread(graph.call_edges, POSITIONS * 2)) {
    const name = byQualified.get(e.callee)?.name;
    const col = name ? lineOf(e.file, e.line).search(new RegExp(`\\b${name}\\b`)) : -1;
    if (col >= 0) sites.push({ file: e.file, line: e.line - 1, character: col });
  }
  const names = spread(
    [...new Set(graph.definitions.filter((d) => d.name.length >= 4).map((d) => d.name))].sort(),
    100,
  );
  return { sites: spread(sites, POSITIONS), names };
}

/** Starts the server, initialized; `progress` records `$/progress` and answers `window/workDoneProgress/create`. */
async function startServer(root, args = [], progress) {
  const child = spawn(process.execPath, [cliPath, "lsp", "--root", root, ...args], { stdio: "pipe" });
  child.stderr.on("data", () => {});
  const c = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  c.onRequest("window/workDoneProgress/create", () => null);
  c.onNotification("$/progress", (p) => progress?.(p));
  c.listen();
  const rootUri = pathToFileURL(root).href;
  await c.sendRequest("initialize", {
    processId: process.pid,
    rootUri,
    capabilities: { window: { workDoneProgress: progress !== undefined } },
    workspaceFolders: null,
  });
  await c.sendNotification("initialized", {});
  const stop = async () => {
    await c.sendRequest("shutdown").catch(() => {});
    await c.sendNotification("exit").catch(() => {});
    child.kill();
  };
  return { c, rootUri, stop };
}

/**
 * Definition right after an unsaved edit (didChange appends a comment line to the file of a call
 * site, then asks at that site): the server re-indexes the one file from the editor's text and
 * patches the graph before answering. 10 edits, each answered.
 */
async function editRounds(c, root, uri, sites) {
  const site = sites[0];
  const text = fs.readFileSync(path.join(root, site.file), "utf8");
  const doc = { uri: uri(site.file) };
  await c.sendNotification("textDocument/didOpen", {
    textDocument: { ...doc, languageId: "python", version: 1, text },
  });
  const times = [];
  let answered = 0;
  for (let i = 0; i < 10; i++) {
    await c.sendNotification("textDocument/didChange", {
      textDocument: { ...doc, version: i + 2 },
      contentChanges: [{ text: `${text}\n# unsaved edit ${i}\n` }],
    });
    const s = performance.now();
    const answer = await c.sendRequest("textDocument/definition", { textDocument: doc, position: site });
    times.push(performance.now() - s);
    if (answer.length) answered++;
  }
  await c.sendNotification("textDocument/didClose", { textDocument: doc });
  return {
    file: site.file,
    lines: text.split("\n").length,
    edits: times.length,
    non_empty_answers: answered,
    p50_ms: round(percentile(times, 50)),
    max_ms: round(Math.max(...times)),
  };
}

/** Cancel-to-answer times of requests cancelled during a cold first index, with `jobs` parse threads (undefined: the server's default). */
async function coldProbe(root, jobs) {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-lsp-cold-"));
  let ended = false;
  const t0 = performance.now();
  let indexMs = NaN;
  const { c, stop } = await startServer(
    root,
    ["--cache-dir", cache, ...(jobs ? ["--jobs", String(jobs)] : [])],
    (p) => {
      if (p.value?.kind === "end") (ended = true), (indexMs = performance.now() - t0);
    },
  );
  const waits = [];
  while (!ended) {
    const source = new protocol.CancellationTokenSource();
    const answered = c.sendRequest("workspace/symbol", { query: "queryset" }, source.token).catch(() => {});
    await new Promise((r) => setTimeout(r, 20));
    const cancelledAt = performance.now();
    source.cancel();
    await answered;
    if (!ended) waits.push(performance.now() - cancelledAt);
    await new Promise((r) => setTimeout(r, 230));
  }
  await stop();
  fs.rmSync(cache, { recursive: true, force: true });
  return {
    jobs: jobs ?? "default",
    cold_index_ms: round(indexMs),
    probes: waits.length,
    cancel_answer_p50_ms: round(percentile(waits, 50)),
    cancel_answer_max_ms: round(Math.max(...waits)),
  };
}

function percentile(values, p) {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.floor((p / 100) * v.length))];
}

async function main() {
  ensureBuilt();
  const root = corpus();
  const before = machine();
  console.error(`corpus ${root}; indexing with the CLI first (the server then loads the index from the cache)…`);
  execFileSync(process.execPath, [cliPath, "index", "--root", root, "--quiet"], { stdio: "ignore" });
  const { sites, names } = positionsOf(root);
  const cold = NO_COLD ? [] : [await coldProbe(root, 1), await coldProbe(root, undefined)];
  const t0 = performance.now();
  const { c, rootUri, stop } = await startServer(root);
  const uri = (file) => `${rootUri}/${file.split("/").map(encodeURIComponent).join("/")}`;
  await c.sendRequest("workspace/symbol", { query: "queryset" });
  const firstAnswerMs = performance.now() - t0;

  const kinds = {
    definition: (p) => c.sendRequest("textDocument/definition", { textDocument: { uri: uri(p.file) }, position: p }),
    hover: (p) => c.sendRequest("textDocument/hover", { textDocument: { uri: uri(p.file) }, position: p }),
    references: (p) =>
      c.sendRequest("textDocument/references", {
        textDocument: { uri: uri(p.file) },
        position: p,
        context: { includeDeclaration: true },
      }),
    workspaceSymbol: (q) => c.sendRequest("workspace/symbol", { query: q }),
  };
  const rounds = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS + 1; r++) {
    for (const [kind, send] of Object.entries(kinds)) {
      const inputs = kind === "workspaceSymbol" ? names : sites;
      const times = [];
      let answered = 0;
      for (const input of inputs) {
        const s = performance.now();
        const answer = await send(input);
        times.push(performance.now() - s);
        if (answer && (!Array.isArray(answer) || answer.length > 0)) answered++;
      }
      if (r > 0)
        rounds[kind].push({
          p50: percentile(times, 50),
          p90: percentile(times, 90),
          max: Math.max(...times),
          n: times.length,
          answered,
        });
    }
  }
  const edit = await editRounds(c, root, uri, sites);
  await stop();
  const targets = { definition: 30, hover: 30, references: 30, workspaceSymbol: 50 };
  const summary = Object.fromEntries(
    Object.entries(rounds).map(([k, rs]) => [
      k,
      {
        p50_ms: round(stats(rs.map((x) => x.p50)).median),
        p90_ms: round(stats(rs.map((x) => x.p90)).median),
        max_ms: round(Math.max(...rs.map((x) => x.max))),
        requests_per_round: rs[0].n,
        non_empty_answers: rs[0].answered,
        rounds: rs.length,
        target_p50_ms: targets[k],
        met: stats(rs.map((x) => x.p50)).median <= targets[k],
      },
    ]),
  );
  const result = {
    bench: "lsp",
    corpus: root,
    revision: codesliceRevision(),
    machine_before: before,
    machine_after: machine(),
    first_answer_ms: round(firstAnswerMs),
    latency: summary,
    after_unsaved_edit: edit,
    cold_first_index: cold,
  };
  fs.mkdirSync(resultsDir, { recursive: true });
  const out = path.join(resultsDir, `lsp-${path.basename(root)}.json`);
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `| request | p50 ms | p90 ms | max ms | non-empty answers | target p50 | met |\n| --- | --- | --- | --- | --- | --- | --- |`,
  );
  for (const [k, v] of Object.entries(summary))
    console.log(
      `| ${k} | ${v.p50_ms} | ${v.p90_ms} | ${v.max_ms} | ${v.non_empty_answers}/${v.requests_per_round} | ≤ ${v.target_p50_ms} | ${v.met ? "yes" : "no"} |`,
    );
  console.log(
    `\ndefinition right after an unsaved edit of ${edit.file} (${edit.lines} lines): p50 ${edit.p50_ms} ms, max ${edit.max_ms} ms (${edit.non_empty_answers}/${edit.edits} answered)`,
  );
  for (const x of cold)
    console.log(
      `\ncold first index with ${x.jobs} parse thread(s): ${x.cold_index_ms} ms; a request cancelled meanwhile answered in p50 ${x.cancel_answer_p50_ms} ms, max ${x.cancel_answer_max_ms} ms (${x.probes} probes)`,
    );
  console.log(
    `\n${sites.length} call sites, ${names.length} names; medians of ${ROUNDS} rounds after a first; load ${before.load_average_1_5_15.join(" ")} → ${result.machine_after.load_average_1_5_15.join(" ")}; ${path.relative(process.cwd(), out)}`,
  );
  process.exit(0);
}

const round = (x) => Math.round(x * 100) / 100;
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
