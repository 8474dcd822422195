// In-process tuning loop for `locate` on the issue-report cases (run.mjs builds them): one engine per
// repository, cases oldest first, every tuning variant scored on each case from the same index, so
// variants compare on identical inputs in a fraction of run.mjs's time (no CLI processes).
//
//   npx tsx test/bench/issues/tune.mts [tune|test|all] ['{"name": {<TaskTuning fields>}, …}'] [--cases FILE] [--only id,id]
//
// Prints file Acc@1/3/5 and function Acc@5/10 per variant ("base" is TASK_TUNING as committed).
// Tune on the tune half only; report both halves with run.mjs.
import fs from "node:fs";
import path from "node:path";
import { atEachParent } from "./case-trees.mts";
import { buildSearchIndex } from "../../../src/core/search/search.ts";
import { buildLocate } from "../../../src/core/locate/locate.ts";
import { TASK_TUNING } from "../../../src/core/locate/rank-task.ts";

const corpora = process.env.CODESLICE_CORPORA ?? path.resolve(import.meta.dirname, "../../../../corpora");
const casesAt = process.argv.indexOf("--cases");
const casesFile = casesAt > 0 ? process.argv[casesAt + 1]! : path.join(corpora, "issues/cases.json");
const split = process.argv[2] ?? "tune";
const variants: Record<string, any> = JSON.parse(process.argv[3] ?? "{}");
variants.base ??= {};
const data = JSON.parse(fs.readFileSync(casesFile, "utf8"));
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt > 0 ? new Set(process.argv[onlyAt + 1]!.split(",")) : undefined;
/** With --only: each case's gold functions and the base variant's listed symbols, to read a miss. */
const cases = data.cases.filter((c: any) => (split === "all" || c.split === split) && (!only || only.has(c.id)));
const byRepo = new Map<string, any[]>();
for (const c of cases) (byRepo.get(c.repo) ?? byRepo.set(c.repo, []).get(c.repo)!).push(c);
const work = process.env.ISSUES_TUNE_WORK ?? path.join(corpora, "issues/tune-work");
fs.mkdirSync(work, { recursive: true });
const tally: Record<string, { n: number; a1: number; a3: number; a5: number; f5: number; f10: number }> = {};
const perCase: Record<string, Record<string, number | null>> = {};
for (const list of byRepo.values()) list.sort((a, b) => (a.date < b.date ? -1 : 1));
await atEachParent(byRepo, { work, casesFile, repos: data.meta.repos }, async (c, engine, tree) => {
  const graph = await engine.codeGraph();
  const index = buildSearchIndex(graph);
  const readText = async (p: string) => fs.readFileSync(path.join(tree, p), "utf8");
  perCase[c.id] = {};
  for (const [name, v] of Object.entries(variants)) {
    let files: string[] = [];
    let detail: string[] = [];
    let syms: { path: string; line: number; score: number }[] = [];
    try {
      const { symbols: nsym, ...rest } = v as any;
      const a = await buildLocate(
        graph,
        index,
        c.query,
        { limit: 10, ...(nsym ? { symbols: nsym } : {}) },
        { root: tree, readText },
        { ...TASK_TUNING, ...rest },
      );
      files = a.files.map((f) => f.path);
      detail = a.files.slice(0, 3).map((f) => `${f.path} ${f.score} [${f.why.join(" | ")}]`);
      syms = a.files
        .flatMap((f) => f.symbols.map((s) => ({ path: f.path, line: s.line, score: s.score })))
        .sort((x, y) => y.score - x.score);
    } catch {}
    const gold = new Set(c.files);
    const rank = files.findIndex((f) => gold.has(f)) + 1 || null;
    const fnRank =
      syms.findIndex((s) => c.functions.some((g: any) => g.path === s.path && s.line >= g.start && s.line <= g.end)) +
        1 || null;
    const t = (tally[name] ??= { n: 0, a1: 0, a3: 0, a5: 0, f5: 0, f10: 0 });
    t.n++;
    if (rank && rank <= 1) t.a1++;
    if (rank && rank <= 3) t.a3++;
    if (rank && rank <= 5) t.a5++;
    if (fnRank && fnRank <= 5) t.f5++;
    if (fnRank && fnRank <= 10) t.f10++;
    perCase[c.id]![name] = rank;
    perCase[c.id]![`${name}:fn`] = fnRank;
    if (only && name === "base") {
      console.log(
        `\n${c.id} file ${rank} fn ${fnRank}; gold: ${c.functions.map((g: any) => `${g.path}:${g.start}-${g.end} ${g.name ?? ""}`).join(", ")}`,
      );
      console.log(`  files: ${files.slice(0, 5).join(", ")}`);
      for (const d of detail) console.log(`    ${d}`);
      console.log(
        `  symbols: ${syms
          .slice(0, 12)
          .map((s) => `${s.path.split("/").at(-1)}:${s.line} (${s.score.toFixed(1)})`)
          .join(", ")}`,
      );
    }
  }
  process.stderr.write(".");
});
process.stderr.write("\n");
const pct = (x: number, n: number) => ((100 * x) / n).toFixed(1);
for (const [name, t] of Object.entries(tally))
  console.log(
    `${name.padEnd(14)} n=${t.n} Acc@1 ${pct(t.a1, t.n)} @3 ${pct(t.a3, t.n)} @5 ${pct(t.a5, t.n)} fn@5 ${pct(t.f5, t.n)} fn@10 ${pct(t.f10, t.n)}`,
  );
fs.writeFileSync(path.join(work, `ranks-${split}.json`), JSON.stringify(perCase));
