#!/usr/bin/env node
// In-process edit benchmark: what a long-running engine (the MCP server, a library host) spends
// between an agent's one-file edit and its next answer, stage by stage.
//
// One engine per build, created once with the Node platform and `watch: true` (as the MCP server
// creates it) over a private copy of the corpus, indexed, warmed (graph, search, a first context),
// then, for each edit kind, ROUNDS edits each followed by:
//   refresh   engine.refresh()       notice the change (watch event or re-scan), read, hash, parse
//                                    and extract the file, write its record and the snapshot
//   graph     engine.codeGraph()     the graph of the new snapshot (patched or rebuilt)
//   search    engine.search(...)     the search index brought up to date with the new graph
//   context   engine.context(T)      the answer itself (budget 8000)
//   callers   engine.callers(T)
// and, in separate rounds, the path an MCP tool call takes: refresh() then context() alone ("e2e").
// Edit kinds (django's files; another corpus must hold the same files):
//   body      a line (a new local) added inside QuerySet.filter in django/db/models/query.py
//   signature a parameter added to that function (its outward shape changes)
//   hub       a module-level line added to django/db/models/__init__.py (imported by ~400 files)
//   new-function  a top-level function added to django/db/models/query.py (its shape changes)
// Each edit is undone before the next one (two refreshes per round; only the edit's is timed).
// After the timed stages and again after the undo, the bench waits --pause ms (default 300, as an
// agent reads an answer before its next call) so that work the engine leaves for after the answer
// (the snapshot write, see SAVE_DELAY_MS in src/core/engine/passes.ts) does not land in the next
// round's timed stages; the CPU spent during the first wait is reported as its own row, "after
// the answer (not timed)", beside the total, never in it. --pause 0 runs the rounds back to back.
// With --ab <dir>, a second build (a checkout's dist/, e.g. /work/main) runs the same rounds,
// interleaved edit by edit with this one, on its own copy of the corpus.
// The load average at start and end is printed next to the figures; CPU ms (process.cpuUsage)
// are recorded beside wall ms.
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- edit [CORPUS_DIR] [--rounds N] [--ab /work/main] [--only body,hub] [--pause MS] [--profile out.cpuprofile]
// Default corpus: /work/corpora/django (a git repo of Debian's django). Output: a markdown table on
// stdout and test/bench/results/edit-<corpus>.json. Node built-ins only.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../..");

const argv = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const ROUNDS = Number(flag("rounds", 7));
const AB = flag("ab", undefined);
const ONLY = flag("only", undefined)?.split(",");
const PAUSE_MS = Number(flag("pause", 300));
const STAGED = !argv.includes("--e2e-only");
const positional = argv.filter(
  (a, i) => !a.startsWith("--") && !["--rounds", "--ab", "--only", "--profile", "--pause"].includes(argv[i - 1]),
)[0];
const source = path.resolve(positional ?? "/work/corpora/django");
const corpusName = path.basename(source);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-edit-bench-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

/** A frozen copy of a checkout's build (others may rebuild dist/ while this runs). */
function freeze(checkout, name) {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir);
  if (!fs.existsSync(path.join(checkout, "dist/index.js")))
    throw new Error(`${checkout}/dist is missing: run node scripts/build.mjs there`);
  for (const item of ["dist", "wasm", "package.json"])
    fs.cpSync(path.join(checkout, item), path.join(dir, item), { recursive: true });
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  let commit = "?";
  try {
    commit = execFileSync("git", ["-C", checkout, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {}
  return { dir, commit };
}

function copyCorpus(name) {
  const dest = path.join(scratch, `corpus-${name}`);
  fs.cpSync(source, dest, {
    recursive: true,
    filter: (src) => !src.includes("__pycache__") && path.basename(src) !== ".codeslice",
  });
  return dest;
}

const EDITS = [
  {
    kind: "body",
    file: "django/db/models/query.py",
    anchor: /^    def filter\(self, \*args, \*\*kwargs\):\n(?:        """[\s\S]*?"""\n)?/m,
    make: (m, r) => `${m}        _bench_${r} = ${r}\n`,
  },
  {
    kind: "signature",
    file: "django/db/models/query.py",
    anchor: /^    def filter\(self, \*args, \*\*kwargs\):/m,
    make: (_m, r) => `    def filter(self, *args, _bench_${r}=None, **kwargs):`,
  },
  {
    kind: "hub",
    file: "django/db/models/__init__.py",
    anchor: /^__all__ = /m,
    make: (m, r) => `_bench_${r} = ${r}\n${m}`,
  },
  {
    kind: "new-function",
    file: "django/db/models/query.py",
    anchor: /^class QuerySet:/m,
    make: (m, r) => `def _bench_added_${r}():\n    return ${r}\n\n\n${m}`,
  },
];
const TARGET = "django.db.models.query.QuerySet.filter";
const CALLERS = "QuerySet.filter";

const pct = (values, p) => {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
};
const median = (values) => pct(values, 50);
const ms = (x) => `${x.toFixed(1)}`;

async function openBuild(label, build, corpus) {
  const mod = await import(pathToFileURL(path.join(build.dir, "dist/index.js")).href);
  const node = await import(pathToFileURL(path.join(build.dir, "dist/platform/node/index.js")).href);
  const platform = await node.createNodePlatform({ root: corpus, cacheDir: path.join(scratch, `cache-${label}`) });
  const engine = mod.createEngine(platform, { watch: true });
  const t0 = performance.now();
  await engine.refresh();
  await engine.context(TARGET, { budget: 8000 });
  await engine.search("queryset filter");
  await engine.callers(CALLERS);
  const coldMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 300)); // the settle pass after the first index
  await engine.refresh();
  return { label, build, corpus, engine, coldMs, rows: {} };
}

async function timed(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const cpu = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000, value };
}

/** CPU ms this process spends while it waits `ms` (work the engine does after its answers). */
async function idle(ms) {
  const c0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, ms));
  const cpu = process.cpuUsage(c0);
  return (cpu.user + cpu.system) / 1000;
}

/** One edit round on one engine: write, time each stage, undo (refresh untimed). */
async function round(side, edit, r, staged) {
  const file = path.join(side.corpus, edit.file);
  const original = fs.readFileSync(file, "utf8");
  const edited = original.replace(edit.anchor, (m) => edit.make(m, r));
  if (edited === original) throw new Error(`${edit.kind}: anchor not found in ${edit.file}`);
  fs.writeFileSync(file, edited);
  const stages = {};
  const refresh = await timed(() => side.engine.refresh());
  if (refresh.value.parsed < 1)
    throw new Error(`${side.label} ${edit.kind}: the edit was not noticed (${JSON.stringify(refresh.value)})`);
  stages.refresh = refresh;
  if (staged) {
    stages.graph = await timed(() => side.engine.codeGraph());
    stages.search = await timed(() => side.engine.search("queryset filter"));
    stages.context = await timed(() => side.engine.context(TARGET, { budget: 8000 }));
    stages.callers = await timed(() => side.engine.callers(CALLERS));
  } else {
    stages.context = await timed(() => side.engine.context(TARGET, { budget: 8000 }));
  }
  const after = PAUSE_MS > 0 ? await idle(PAUSE_MS) : undefined;
  fs.writeFileSync(file, original);
  await side.engine.refresh();
  await side.engine.context(TARGET, { budget: 8000 });
  await side.engine.search("queryset filter");
  if (PAUSE_MS > 0) await idle(PAUSE_MS);
  return { stages, after };
}

const PROFILE = flag("profile", undefined);
const load0 = os.loadavg();
const sides = [];
const here_ = freeze(repoRoot, "this");
sides.push(await openBuild("this", here_, copyCorpus("this")));
if (AB) sides.push(await openBuild("ab", freeze(path.resolve(AB), "ab"), copyCorpus("ab")));

const out = {
  corpus: corpusName,
  rounds: ROUNDS,
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  pauseMs: PAUSE_MS,
  builds: {},
  load: {},
};
for (const side of sides) out.builds[side.label] = { commit: side.build.commit, coldMs: side.coldMs, edits: {} };

let session;
if (PROFILE) {
  // Only the edit rounds are profiled (not the cold index): `--profile out.cpuprofile`.
  const { Session } = await import("node:inspector/promises");
  session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
}
for (const edit of EDITS.filter((e) => !ONLY || ONLY.includes(e.kind))) {
  for (const staged of STAGED ? [true, false] : [false]) {
    const key = staged ? edit.kind : `${edit.kind} e2e`;
    process.stderr.write(`${key} …\n`);
    for (let r = 0; r < ROUNDS; r++) {
      for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
        const { stages, after } = await round(side, edit, r, staged);
        const rows = (out.builds[side.label].edits[key] ??= {});
        let total = 0;
        let totalCpu = 0;
        for (const [stage, t] of Object.entries(stages)) {
          (rows[stage] ??= { ms: [], cpu: [] }).ms.push(t.ms);
          rows[stage].cpu.push(t.cpu);
          total += t.ms;
          totalCpu += t.cpu;
        }
        (rows.total ??= { ms: [], cpu: [] }).ms.push(total);
        rows.total.cpu.push(totalCpu);
        if (after !== undefined) {
          const idleRow = (rows["after the answer (not timed)"] ??= { ms: [], cpu: [] });
          idleRow.ms.push(PAUSE_MS);
          idleRow.cpu.push(after);
        }
      }
    }
  }
}
if (session) {
  const { profile } = await session.post("Profiler.stop");
  fs.writeFileSync(PROFILE, JSON.stringify(profile));
}
out.load = { start: load0.map((x) => +x.toFixed(2)), end: os.loadavg().map((x) => +x.toFixed(2)) };
for (const side of sides) side.engine.close();

console.log(`\n## ${corpusName}: in-process edit → answer, median of ${ROUNDS} edits (ms wall / ms CPU)`);
console.log(
  `load average at start ${out.load.start.join(" ")}, at end ${out.load.end.join(" ")}; ${out.cpus} × ${out.cpuModel}; Node ${process.version}\n`,
);
const labels = sides.map((s) => `${s.label} (${s.build.commit})`);
console.log(`| edit | stage | ${labels.join(" | ")} |`);
console.log(`| --- | --- | ${labels.map(() => "---").join(" | ")} |`);
for (const key of Object.keys(out.builds.this.edits)) {
  for (const stage of Object.keys(out.builds.this.edits[key])) {
    const cells = sides.map((s) => {
      const row = out.builds[s.label].edits[key]?.[stage];
      if (!row) return "";
      row.p50 = median(row.ms);
      row.cpuP50 = median(row.cpu);
      row.max = Math.max(...row.ms);
      return `${ms(row.p50)} / ${ms(row.cpuP50)}`;
    });
    console.log(`| ${key} | ${stage} | ${cells.join(" | ")} |`);
  }
}
fs.mkdirSync(path.join(here, "results"), { recursive: true });
const outFile = path.join(here, "results", `edit-${corpusName}.json`);
fs.writeFileSync(outFile, `${JSON.stringify(out, null, 2)}\n`);
console.log(`\n${outFile}`);
process.exit(0);
