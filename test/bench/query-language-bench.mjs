#!/usr/bin/env node
// The query language against the tools it can stand in for: the 20 example queries of docs/query.md,
// each run on django next to the tool answer it should equal (callers, callees, importers, impact,
// tests), compared as sets of qualified names or paths. Prints one line per query (agree or not,
// with the differences), the agreement, and each query's time.
//
// (test/bench/query-bench.mjs is the older latency benchmark of callers/callees/importers.)
//
// Rerun:
//   node scripts/build.mjs
//   cp -r /usr/lib/python3/dist-packages/django /work/corpora/query/django   # then git init, add, commit
//   npm run bench -- query-language /work/corpora/query/django [--runs 5] [--json out.json]
// Output: one line per query and test/bench/results/query-language-<cases>.json.
//   git clone <honojs/hono> hono && git -C hono checkout 28a9c128912de19f3fb28b00ae289c9b93f6f392
//   node test/bench/query-language-bench.mjs /work/corpora/query/hono --cases hono     # TESTS against tests, on a suite
import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const here = path.dirname(new URL(import.meta.url).pathname);
const repo = path.resolve(here, "../..");
const root = path.resolve(process.argv[2] ?? "/work/corpora/query/django");
const casesName = process.argv.indexOf("--cases") > 0 ? process.argv[process.argv.indexOf("--cases") + 1] : "django";
const RUNS = process.argv.indexOf("--runs") > 0 ? Number(process.argv[process.argv.indexOf("--runs") + 1]) : 5;
const jsonOut =
  process.argv.indexOf("--json") > 0
    ? process.argv[process.argv.indexOf("--json") + 1]
    : path.join(here, "results", `query-language-${casesName}.json`);
const { createEngine } = await import(pathToFileURL(path.join(repo, "dist/index.js")).href);
const { createNodePlatform } = await import(pathToFileURL(path.join(repo, "dist/platform/node/index.js")).href);
const engine = createEngine(await createNodePlatform({ root }));
await engine.index();
// The graph is built once per index (and the query view once per graph): paid here, reported apart.
const warm0 = performance.now();
await engine.query("MATCH (a:File) RETURN count(*)");
const warmMs = performance.now() - warm0;

const ALL = { limit: 1000, budget: 1_000_000, tests: "include" };
const TIMES = [];
const qualifiedOf = (results) => new Set(results.map((r) => r.qualified));
const q = (s) => JSON.stringify(s).replace(/^"|"$/g, "'");

// Each case: the query, and the tool answer it must equal (a set of strings).
const callers = (sym, depth) => ({
  query:
    depth === 1
      ? `MATCH (a)-[:CALLS]->(b:Symbol {qualified: ${q(sym)}}) RETURN DISTINCT a.qualified`
      : `MATCH (a)-[:CALLS*1..${depth}]->(b:Symbol {qualified: ${q(sym)}}) RETURN DISTINCT a.qualified`,
  tool: `callers ${sym} --depth ${depth}`,
  expected: async () => qualifiedOf((await engine.callers(sym, { ...ALL, depth })).results),
});
const callees = (sym, depth) => ({
  query: `MATCH (a:Symbol {qualified: ${q(sym)}})-[:CALLS*1..${depth}]->(b) RETURN DISTINCT b.qualified`,
  tool: `callees ${sym} --depth ${depth}`,
  expected: async () => qualifiedOf((await engine.callees(sym, { ...ALL, depth })).results),
});
const importers = (file, depth) => ({
  query: `MATCH (f:File)-[:IMPORTS*1..${depth}]->(:File {path: ${q(file)}}) RETURN DISTINCT f.path`,
  tool: `importers ${file} --depth ${depth}`,
  expected: async () => new Set((await engine.importers(file, { ...ALL, depth })).results.map((r) => r.path)),
});
const impact = (sym, depth) => ({
  query: `MATCH (a)-[:CALLS*1..${depth}]->(b:Symbol {qualified: ${q(sym)}}) WHERE a <> b RETURN DISTINCT a.qualified`,
  tool: `impact ${sym} --depth ${depth}`,
  expected: async () => qualifiedOf((await engine.impact(sym, { ...ALL, depth, direction: "up" })).entries),
});
const impactFile = (file, depth) => ({
  query: `MATCH (a:Symbol)-[:CALLS*1..${depth}]->(b:Symbol {path: ${q(file)}}) WHERE a.path <> ${q(file)} RETURN DISTINCT a.qualified`,
  tool: `impact ${file} --depth ${depth} (callers outside the file)`,
  expected: async () =>
    new Set(
      (await engine.impact(file, { ...ALL, depth, direction: "up" })).entries
        .filter((e) => e.path !== file)
        .map((e) => e.qualified),
    ),
});
const tests = (sym) => ({
  query: `MATCH (t:Test)-[:TESTS]->(s:Symbol {qualified: ${q(sym)}}) RETURN DISTINCT t.id`,
  tool: `tests ${sym} --depth 1 (call evidence)`,
  expected: async () =>
    new Set(
      (await engine.tests(sym, { ...ALL, depth: 1 })).tests
        .filter((t) => t.evidence === "call" && !t.file)
        .map((t) => t.id),
    ),
});

const DJANGO = [
  callers("django.db.models.options.Options.get_field", 1),
  callers("django.utils.safestring.mark_safe", 1),
  callers("django.core.exceptions.ImproperlyConfigured", 1),
  callers("django.template.base.Parser.compile_filter", 2),
  callers("django.db.backends.base.base.BaseDatabaseWrapper.cursor", 2),
  callers("django.utils.html.escape", 2),
  callers("django.db.models.query.QuerySet._chain", 3),
  callees("django.core.management.commands.migrate.Command.handle", 1),
  callees("django.db.models.query.QuerySet.filter", 2),
  callees("django.template.base.Parser.parse", 1),
  callees("django.core.management.base.BaseCommand.execute", 2),
  importers("django/db/models/query.py", 1),
  importers("django/utils/functional.py", 1),
  importers("django/http/request.py", 2),
  importers("django/core/signing.py", 3),
  impact("django.db.models.sql.query.Query.add_q", 3),
  impact("django.urls.base.reverse", 2),
  impactFile("django/core/signing.py", 2),
  tests("django.test.utils.override_settings.enable"),
  tests("django.test.client.Client.get"),
];

// hono has a test suite (Vitest): the tests answer's call evidence against TESTS, and a few more.
const HONO = [
  tests("src/utils/encode.ts#encodeBase64Url"),
  tests("src/jsx/dom/render.ts#render"),
  tests("src/utils/cookie.ts#parse"),
  tests("src/utils/url.ts#getPath"),
  tests("src/helper/factory/index.ts#createMiddleware"),
  tests("src/context.ts#Context.json"),
  tests("src/hono-base.ts#Hono.request"),
  tests("src/utils/html.ts#raw"),
  callers("src/utils/url.ts#getPath", 2),
  callees("src/hono-base.ts#Hono.fetch", 2),
  importers("src/utils/url.ts", 2),
  impact("src/utils/cookie.ts#parse", 2),
];

const CASES = casesName === "hono" ? HONO : DJANGO;

let agree = 0;
const report = [];
for (const [i, c] of CASES.entries()) {
  const times = [];
  let a;
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    a = await engine.query(c.query, { budget: 1_000_000, timeMs: 60_000 }).catch((e) => ({ error: e }));
    times.push(performance.now() - t0);
  }
  const ms = times.sort((x, y) => x - y)[Math.floor(times.length / 2)];
  TIMES.push(ms);
  const expected = await c.expected();
  let got;
  if (a.error) got = undefined;
  else got = new Set(a.rows.map((r) => r[0]));
  // LIMIT is not written: the default 50 rows would cut; ask again with LIMIT 1000 when it did.
  if (a.truncated) {
    const b = await engine.query(`${c.query} LIMIT 1000`, { budget: 1_000_000, timeMs: 60_000 });
    got = new Set(b.rows.map((r) => r[0]));
  }
  const missing = got ? [...expected].filter((x) => !got.has(x)) : [...expected];
  const extra = got ? [...got].filter((x) => !expected.has(x)) : [];
  const ok = got !== undefined && missing.length === 0 && extra.length === 0;
  if (ok) agree++;
  report.push({
    n: i + 1,
    tool: c.tool,
    query: c.query,
    rows: got?.size ?? null,
    expected: expected.size,
    ok,
    missing: missing.slice(0, 5),
    extra: extra.slice(0, 5),
    ms: Math.round(ms * 10) / 10,
    error: a.error ? `${a.error.code}: ${a.error.message}` : undefined,
  });
  console.log(
    `${ok ? "agree" : "DIFFER"} ${String(i + 1).padStart(2)} ${c.tool}: query ${got?.size ?? "error"} rows, tool ${expected.size} (median ${ms.toFixed(1)} ms)${ok ? "" : ` missing ${JSON.stringify(missing.slice(0, 5))} extra ${JSON.stringify(extra.slice(0, 5))}${a.error ? ` ${a.error.code}: ${a.error.message}` : ""}`}`,
  );
}
const sorted = [...TIMES].sort((x, y) => x - y);
console.log(
  `\ntimes: graph and query view ${Math.round(warmMs)} ms once; per query, median of ${RUNS} runs: median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`,
);
console.log(
  `agreement: ${agree}/${CASES.length} queries give the tool's answer (${root}; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)})`,
);
// Flows and clusters: the whole answer (every entry's flow; Louvain over the file graph), median of 3.
const structureMs = {};
for (const kind of ["flows", "clusters"]) {
  const times = [];
  let answer;
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    answer = await engine[kind]({ limit: 5, budget: 4000 });
    times.push(performance.now() - t0);
  }
  structureMs[kind] = Math.round(times.sort((x, y) => x - y)[1]);
  console.log(`${kind}: ${answer.total} (median of 3: ${structureMs[kind]} ms)`);
}
if (jsonOut)
  fs.writeFileSync(
    jsonOut,
    JSON.stringify(
      {
        root,
        machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, load: os.loadavg()[0] },
        runs: RUNS,
        graphMs: Math.round(warmMs),
        agree,
        total: CASES.length,
        structureMs,
        cases: report,
      },
      null,
      2,
    ),
  );
engine.close();
