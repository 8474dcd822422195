#!/usr/bin/env node
// Text beyond code: does `search` or `context` put the right file and section in front of an agent
// for a question about configuration or docs? The questions (test/bench/text/questions.json) were
// written by hand over three real repositories pinned at a commit; each lists the acceptable places
// as a file and a section (a heading, a key path, an env variable; "" for the whole file).
//
//   node test/bench/text-bench.mjs [--budgets 2000,8000] [--misses]
//
// Questions marked `heldOut` were written after the gating was tuned on the others; the table
// gives them a row of their own.
//
// The repositories are expected under $CODESLICE_CORPORA/text/<name> (default ../corpora/text),
// checked out at the pinned commit (`fetch` each `source`, then `git clone` and `git checkout`).
// A question counts for `search` when one of its places is among the first 10 results, and for
// `context` when the answer at that budget shows a chunk of that place (its handle, or any chunk
// of the file for a whole-file place). The index cache goes to <corpora>/text/.cache/<name>.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const corpora = path.join(process.env.CODESLICE_CORPORA ?? path.resolve(root, "../corpora"), "text");
const { values } = parseArgs({
  options: { budgets: { type: "string", default: "2000,8000" }, misses: { type: "boolean", default: false } },
});
const budgets = values.budgets.split(",").map(Number);
const { createEngine } = await import(path.join(root, "dist/core/engine/engine.js"));
const { createNodePlatform } = await import(path.join(root, "dist/platform/node/index.js"));
const { repos, questions } = JSON.parse(fs.readFileSync(path.join(here, "text/questions.json"), "utf8"));

const handle = (file, section) =>
  section === "" ? file : /\.(md|markdown|mdx|rst|txt)$/i.test(file) ? `${file}#${section}` : `${file}:${section}`;
const shows = (chunks, [file, section]) =>
  chunks.some((c) => c.path === file && (section === "" || c.symbol === handle(file, section)));

const rows = [];
for (const [name, { commit }] of Object.entries(repos)) {
  const tree = path.join(corpora, name);
  const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: tree, encoding: "utf8" }).trim();
  if (head !== commit)
    throw new Error(`${tree} is at ${head}, the questions were written at ${commit}: check it out first.`);
  const engine = createEngine(await createNodePlatform({ root: tree, cacheDir: path.join(corpora, ".cache", name) }), {
    quiet: true,
  });
  await engine.index();
  for (const q of questions.filter((x) => x.repo === name)) {
    const row = { repo: name, q: q.q, heldOut: q.heldOut === true, expect: q.expect.map(([f, s]) => handle(f, s)) };
    const t0 = performance.now();
    const hits = await engine.search(q.q, { limit: 10 });
    row.searchMs = performance.now() - t0;
    const rank = hits.findIndex((h) =>
      q.expect.some(([f, s]) => h.qualified === handle(f, s) || (s === "" && h.path === f)),
    );
    row.searchRank = rank < 0 ? undefined : rank + 1;
    row.searchTop = hits.slice(0, 3).map((h) => h.qualified);
    row.context = {};
    for (const budget of budgets) {
      const a = await engine.context(q.q, { budget }).catch((e) => ({ chunks: [], error: e.code ?? e.message }));
      row.context[budget] = {
        hit: q.expect.some((e) => shows(a.chunks, e)),
        first: a.chunks.slice(0, 3).map((c) => c.symbol),
        error: a.error,
      };
    }
    rows.push(row);
  }
  engine.close?.();
}

const pct = (n, d) => `${Math.round((100 * n) / d)}% (${n}/${d})`;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `${rows.length} questions over ${Object.keys(repos).length} repositories; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
);
console.log(
  `| repository | questions | search top 1 | search top 10 | ${budgets.map((b) => `context ${b}`).join(" | ")} | search or context ${budgets.at(-1)} |`,
);
console.log(`| --- | ---: | ---: | ---: | ${budgets.map(() => "---:").join(" | ")} | ---: |`);
for (const name of [...Object.keys(repos), "tuned on", "held out", "all"]) {
  const rs = rows.filter(
    (r) =>
      name === "all" || r.repo === name || (name === "held out" && r.heldOut) || (name === "tuned on" && !r.heldOut),
  );
  const last = budgets.at(-1);
  console.log(
    `| ${name} | ${rs.length} | ${pct(rs.filter((r) => r.searchRank === 1).length, rs.length)} | ${pct(rs.filter((r) => r.searchRank).length, rs.length)} | ${budgets.map((b) => pct(rs.filter((r) => r.context[b].hit).length, rs.length)).join(" | ")} | ${pct(rs.filter((r) => r.searchRank || r.context[last].hit).length, rs.length)} |`,
  );
}
console.log(`search p50 ${median(rows.map((r) => r.searchMs)).toFixed(1)} ms (warm, in-process)`);
if (values.misses) {
  for (const r of rows.filter((x) => !x.searchRank || budgets.some((b) => !x.context[b].hit))) {
    console.log(
      `\n${r.repo}: ${r.q}\n  want ${r.expect.join(" | ")}\n  search ${r.searchRank ?? "-"}: ${r.searchTop.join(", ")}`,
    );
    for (const b of budgets)
      console.log(
        `  context ${b} ${r.context[b].hit ? "hit" : "miss"}: ${r.context[b].first.join(", ")}${r.context[b].error ? ` (${r.context[b].error})` : ""}`,
      );
  }
}
