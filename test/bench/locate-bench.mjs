#!/usr/bin/env node
// locate benchmark: how fast `locate` answers a bug report, and how large its answer is.
//
// Measures on one corpus (default: Debian's django, see lib/bench-utils.mjs):
//   * MCP warm      a real MCP Client (the SDK) over stdio to `codeslice mcp`; after one warm-up
//                   call per task, `--rounds` rounds over every task: p50 / p95 / max round trip
//   * CLI           `codeslice locate` as one process per call on the indexed corpus: wall and CPU
//                   seconds (user + sys, GNU time), median over `--runs` calls per task
//   * size          o200k tokens of the default answer's text (ten files)
// The tasks are bug reports written for this benchmark in the shapes reporters use (a title and
// prose, a traceback from an installed copy, a traceback from the reporter's own script, pasted
// logs and version lines, a long report); they are not taken from any benchmark set.
//
// Rerun:
//   node scripts/build.mjs && node test/bench/locate-bench.mjs [CORPUS_DIR] [--runs 3] [--rounds 5]
// Output: a markdown table on stdout and test/bench/results/locate-<corpus>.json.
//
// Two builds side by side (--builds NAME=CHECKOUT,NAME=CHECKOUT; each checkout's dist/ is run):
// only in-process CLI calls, CODESLICE_NO_SERVER=1 (no warm server answers), the builds alternated
// call by call (their order swapped every run) on one indexed copy of the corpus each, so both
// meet the same load. Per build: `locate` on every task, `context QuerySet.bulk_create --budget
// 4000` and `callers QuerySet.bulk_create`, each `--runs` times after one untimed call per command:
// median CPU-s (user + sys), wall and peak RSS, and the answers compared byte for byte. Apart, the
// first call after an index (it builds the graph and keeps derived data in the cache): `locate`
// (prose), `context`, `callers` and `search`, each `--runs` times on a copy of the cache as `index`
// left it (restored before every call, builds alternated), median CPU-s and wall.
//   node test/bench/locate-bench.mjs --builds main=/path/to/main,new=. [--runs 5]
// Output: a markdown table on stdout and test/bench/results/locate-builds-<corpus>.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import {
  benchCorpus,
  cliPath,
  codesliceRevision,
  ensureBuilt,
  fmt,
  machine,
  mdTable,
  parseArgs,
  resultsDir,
  runCli,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";

const { flags, positionals } = parseArgs(process.argv.slice(2));
const RUNS = Number(flags.runs ?? 3);
const ROUNDS = Number(flags.rounds ?? 5);

const SITE = "/usr/lib/python3.11/site-packages";
const TASKS = {
  prose: `QuerySet.bulk_create ignores update_fields when update_conflicts is set

When I call bulk_create with update_conflicts=True and a list of update_fields, the generated
ON CONFLICT clause updates every field instead of the ones I listed. I expected only the
fields in update_fields to be updated on conflict.`,
  installedTrace: `Crash in the admin changelist when a list_filter uses a related field

\`\`\`
Traceback (most recent call last):
  File "${SITE}/django/core/handlers/exception.py", line 55, in inner
    response = get_response(request)
  File "${SITE}/django/contrib/admin/options.py", line 1950, in changelist_view
    cl = self.get_changelist_instance(request)
  File "${SITE}/django/contrib/admin/views/main.py", line 130, in __init__
    self.queryset = self.get_queryset(request)
AttributeError: 'NoneType' object has no attribute 'get_queryset'
\`\`\`

Django 4.2.7, Python 3.11.4, PostgreSQL 15.`,
  reporterTrace: `Template rendering fails with a confusing message

\`\`\`
Traceback (most recent call last):
  File "/home/me/site/render_pages.py", line 40, in main
    html = render(page)
  File "/home/me/site/render_pages.py", line 12, in render
    return tpl.render(ctx)
django.template.exceptions.TemplateSyntaxError: Invalid block tag on line 3: 'endblock', expected 'endif'. Did you forget to register or load this tag?
\`\`\``,
  logs: `Migrations: makemigrations crashes on a model with a custom primary key

$ python manage.py makemigrations shop
Migrations for 'shop':
  shop/migrations/0004_auto.py
    - Alter field id on order
ValueError: Cannot alter field shop.Order.id into shop.Order.id - they are not compatible types (you cannot alter to or from M2M fields, or add or remove through= on M2M fields)

- Django version: 5.0.1
- Python version: 3.12.1
- OS: Ubuntu 22.04
psycopg==3.1.18`,
};
TASKS.long = `${TASKS.prose}\n\n${"The nightly import job printed this line many times and nothing else of interest. ".repeat(300)}\n\nIn the end the problem is in \`SQLInsertCompiler.as_sql\` building the conflict clause.`;

ensureBuilt();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-locate-bench-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));
const { corpus, corpusName, version } = benchCorpus(positionals, flags, scratch);
if (flags.builds) {
  await compareBuilds(String(flags.builds));
  process.exit(0);
}
const cacheDir = path.join(scratch, "cache");
await runCli(["index", "--root", corpus, "--cache-dir", cacheDir, "--quiet"], { measureRss: false });

// The CLI: one process per call.
const cli = {};
const sizes = {};
for (const [name, task] of Object.entries(TASKS)) {
  const file = path.join(scratch, `${name}.txt`);
  fs.writeFileSync(file, task);
  const runs = [];
  for (let i = 0; i < RUNS; i++)
    runs.push(await runCli(["locate", task, "--root", corpus, "--cache-dir", cacheDir, "--quiet"]));
  cli[name] = { wall: stats(runs.map((r) => r.wall)).median, cpu: stats(runs.map((r) => r.cpu)).median };
  sizes[name] = countTokens(runs[0].stdout);
}

// The MCP server, warm.
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cliPath, "mcp", "--root", corpus, "--cache-dir", cacheDir],
  stderr: "ignore",
});
const client = new Client({ name: "locate-bench", version: "1" });
await client.connect(transport);
const call = async (task) => {
  const t0 = performance.now();
  const r = await client.callTool({ name: "locate", arguments: { task } });
  if (r.isError) throw new Error(`locate failed: ${JSON.stringify(r.content).slice(0, 300)}`);
  return performance.now() - t0;
};
for (const task of Object.values(TASKS)) await call(task);
const mcp = {};
for (const name of Object.keys(TASKS)) mcp[name] = [];
for (let round = 0; round < ROUNDS; round++)
  for (const [name, task] of Object.entries(TASKS)) mcp[name].push(await call(task));
await client.close();

const all = Object.values(mcp)
  .flat()
  .sort((a, b) => a - b);
const pct = (p) => all[Math.min(all.length - 1, Math.floor((p / 100) * all.length))];
const rows = Object.keys(TASKS).map((name) => [
  name,
  TASKS[name].length,
  sizes[name],
  fmt(stats(mcp[name]).median, 1),
  fmt(cli[name].wall, 2),
  fmt(cli[name].cpu, 2),
]);
console.log(
  `locate on ${corpusName}${version ? ` ${version}` : ""}; codeslice ${codesliceRevision()}; load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}\n`,
);
console.log(mdTable(["task", "chars", "answer tokens", "MCP warm p50 ms", "CLI wall s", "CLI CPU s"], rows));
console.log(
  `\nMCP warm over all tasks: p50 ${fmt(pct(50), 1)} ms, p95 ${fmt(pct(95), 1)} ms, max ${fmt(all.at(-1), 1)} ms (${all.length} calls)`,
);
writeJson(path.join(resultsDir, `locate-${corpusName}.json`), {
  corpus: corpusName,
  version,
  codeslice: codesliceRevision(),
  machine: machine(),
  runs: RUNS,
  rounds: ROUNDS,
  mcp: {
    p50_ms: pct(50),
    p95_ms: pct(95),
    max_ms: all.at(-1),
    per_task_p50_ms: Object.fromEntries(Object.entries(mcp).map(([k, v]) => [k, stats(v).median])),
  },
  cli,
  answer_tokens: sizes,
  task_chars: Object.fromEntries(Object.entries(TASKS).map(([k, v]) => [k, v.length])),
});

/** The `--builds` mode (see the header): in-process CLI calls of two or more builds, alternated. */
async function compareBuilds(spec) {
  process.env.CODESLICE_NO_SERVER = "1";
  const builds = spec.split(",").map((pair) => {
    const [name, dir] = pair.split("=");
    const cli = path.resolve(dir ?? "", "dist/cli/main.js");
    if (!name || !dir || !fs.existsSync(cli))
      throw new Error(`--builds: ${pair} is not NAME=CHECKOUT with a dist/cli/main.js`);
    return { name, cli, cache: path.join(scratch, `cache-${name}`) };
  });
  const TARGET = "QuerySet.bulk_create";
  const calls = [
    ...Object.entries(TASKS).map(([name, task]) => [`locate ${name}`, ["locate", task]]),
    ["context --budget 4000", ["context", TARGET, "--budget", "4000"]],
    ["callers", ["callers", TARGET]],
  ];
  const call = (b, args) => runCli([...args, "--root", corpus, "--cache-dir", b.cache, "--quiet"], { cli: b.cli });
  const firstCalls = [
    calls[0],
    calls.find(([label]) => label.startsWith("context")),
    calls.find(([label]) => label === "callers"),
    ["search", ["search", "bulk create update conflicts"]],
  ];
  for (const b of builds) {
    await runCli(["index", "--root", corpus, "--cache-dir", b.cache, "--quiet"], { cli: b.cli, measureRss: false });
    fs.cpSync(b.cache, `${b.cache}-indexed`, { recursive: true });
  }
  // The first call after an index: on the cache as `index` left it, restored before each call.
  const first = {};
  const firstAnswers = {};
  for (const b of builds) first[b.name] = Object.fromEntries(firstCalls.map(([label]) => [label, []]));
  for (let run = 0; run < RUNS; run++)
    for (const [label, args] of firstCalls)
      for (const b of run % 2 ? [...builds].reverse() : builds) {
        fs.rmSync(b.cache, { recursive: true, force: true });
        fs.cpSync(`${b.cache}-indexed`, b.cache, { recursive: true });
        const r = await call(b, args);
        first[b.name][label].push(r);
        firstAnswers[`${b.name} ${label}`] ??= r.stdout;
      }
  const answers = {};
  const m = {};
  for (const b of builds) m[b.name] = Object.fromEntries(calls.map(([label]) => [label, []]));
  for (const [label, args] of calls)
    for (const b of builds) answers[`${b.name} ${label}`] = (await call(b, args)).stdout; // untimed warm-up
  for (let run = 0; run < RUNS; run++)
    for (const [label, args] of calls)
      for (const b of run % 2 ? [...builds].reverse() : builds) m[b.name][label].push(await call(b, args));
  const loads = os.loadavg();
  const med = (runs, key) => stats(runs.map((r) => r[key])).median;
  const rows = calls.map(([label]) => [
    label,
    ...builds.flatMap((b) => [
      fmt(med(m[b.name][label], "cpu"), 2),
      fmt(med(m[b.name][label], "wall"), 2),
      fmt(med(m[b.name][label], "rssMb"), 0),
    ]),
    ...(builds.length === 2
      ? [fmt(med(m[builds[1].name][label], "cpu") / med(m[builds[0].name][label], "cpu"), 2)]
      : []),
    builds.every((b) => answers[`${b.name} ${label}`] === answers[`${builds[0].name} ${label}`]) ? "same" : "DIFFERENT",
  ]);
  console.log(
    `locate on ${corpusName}${version ? ` ${version}` : ""}: in-process CLI calls only (CODESLICE_NO_SERVER=1), builds ` +
      `alternated call by call, median of ${RUNS}; load ${loads.map((x) => x.toFixed(1)).join(" ")} at the end\n`,
  );
  console.log(
    mdTable(
      [
        "call",
        ...builds.flatMap((b) => [`${b.name} CPU s`, `${b.name} wall s`, `${b.name} peak RSS MB`]),
        ...(builds.length === 2 ? [`CPU ${builds[1].name} / ${builds[0].name}`] : []),
        "answers",
      ],
      rows,
    ),
  );
  const firstRows = firstCalls.map(([label]) => [
    label,
    ...builds.flatMap((b) => [fmt(med(first[b.name][label], "cpu"), 2), fmt(med(first[b.name][label], "wall"), 2)]),
    ...(builds.length === 2
      ? [fmt(med(first[builds[1].name][label], "cpu") / med(first[builds[0].name][label], "cpu"), 2)]
      : []),
    builds.every((b) => firstAnswers[`${b.name} ${label}`] === firstAnswers[`${builds[0].name} ${label}`])
      ? "same"
      : "DIFFERENT",
  ]);
  console.log(`\nThe first call after \`index\` (untimed above), median of ${RUNS}:\n`);
  console.log(
    mdTable(
      [
        "first call",
        ...builds.flatMap((b) => [`${b.name} CPU s`, `${b.name} wall s`]),
        ...(builds.length === 2 ? [`CPU ${builds[1].name} / ${builds[0].name}`] : []),
        "answers",
      ],
      firstRows,
    ),
  );
  writeJson(path.join(resultsDir, `locate-builds-${corpusName}.json`), {
    corpus: corpusName,
    version,
    codeslice: codesliceRevision(),
    machine: machine(),
    load_at_end: loads,
    no_server: true,
    runs: RUNS,
    builds: Object.fromEntries(builds.map((b) => [b.name, path.dirname(path.dirname(path.dirname(b.cli)))])),
    first_after_index: Object.fromEntries(
      firstCalls.map(([label]) => [
        label,
        Object.fromEntries(
          builds.map((b) => [
            b.name,
            {
              cpu: med(first[b.name][label], "cpu"),
              wall: med(first[b.name][label], "wall"),
              cpu_runs: first[b.name][label].map((r) => r.cpu),
            },
          ]),
        ),
      ]),
    ),
    same_first_answers: Object.fromEntries(firstRows.map((r) => [r[0], r.at(-1) === "same"])),
    calls: Object.fromEntries(
      calls.map(([label]) => [
        label,
        Object.fromEntries(
          builds.map((b) => [
            b.name,
            {
              cpu: med(m[b.name][label], "cpu"),
              wall: med(m[b.name][label], "wall"),
              rss_mb: med(m[b.name][label], "rssMb"),
              cpu_runs: m[b.name][label].map((r) => r.cpu),
            },
          ]),
        ),
      ]),
    ),
    same_answers: Object.fromEntries(rows.map((r) => [r[0], r.at(-1) === "same"])),
  });
}
