// In-process loop for `context` on the issue-report cases, the sibling of tune.mts (which scores locate): one
// engine per repository, cases oldest first, each case's task text answered at every budget from the same index,
// scored as run.mjs scores codeslice-context (file Acc@1/3/5 from the order of first appearance at the largest
// budget; gold file / gold function in the answer at each budget: a chunk in a gold file / overlapping a gold
// function's lines). No CLI processes, so a packing change is checked on all 150 cases in a few minutes.
//
//   npx tsx test/bench/issues/context-loop.mts [tune|test|all] [--cases FILE] [--only id,id] [--budgets 2000,4000,8000]
//                                             [--save FILE] [--against FILE]
//
// --save writes the per-case results; --against FILE (an earlier --save) lists the cases whose gold function
// entered or left the answer at each budget. With --only, each case's chunks at the largest budget are printed.
import fs from "node:fs";
import path from "node:path";
import { atEachParent } from "./case-trees.mts";

const corpora = process.env.CODESLICE_CORPORA ?? path.resolve(import.meta.dirname, "../../../../corpora");
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const casesFile = arg("--cases") ?? path.join(corpora, "issues/cases.json");
const split = process.argv[2]?.startsWith("--") ? "all" : (process.argv[2] ?? "all");
const budgets = (arg("--budgets") ?? "2000,4000,8000").split(",").map(Number);
const top = Math.max(...budgets);
const only = arg("--only") ? new Set(arg("--only")!.split(",")) : undefined;
const data = JSON.parse(fs.readFileSync(casesFile, "utf8"));
const cases = data.cases.filter((c: any) => (split === "all" || c.split === split) && (!only || only.has(c.id)));
const byRepo = new Map<string, any[]>();
for (const c of cases) (byRepo.get(c.repo) ?? byRepo.set(c.repo, []).get(c.repo)!).push(c);
const work = process.env.ISSUES_TUNE_WORK ?? path.join(corpora, "issues/tune-work");
fs.mkdirSync(work, { recursive: true });

interface Row {
  roles?: Record<string, number>;
  hitRoles?: string[];
  rank: number | null;
  file: Record<number, boolean>;
  fn: Record<number, boolean>;
  tokens: Record<number, number>;
  error?: string;
}
const rows: Record<string, Row> = {};
for (const list of byRepo.values())
  list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : 1));
await atEachParent(byRepo, { work, casesFile, repos: data.meta.repos }, async (c, engine, tree) => {
  const row: Row = { rank: null, file: {}, fn: {}, tokens: {} };
  const gold = new Set<string>(c.files);
  const overlaps = (ch: { path: string; start: number; end: number }) =>
    c.functions.some((g: any) => g.path === ch.path && ch.start <= g.end && ch.end >= g.start);
  for (const b of budgets) {
    try {
      const a = await engine.context(c.query, { budget: b });
      row.file[b] = a.chunks.some((ch) => gold.has(ch.path));
      row.fn[b] = a.chunks.some(overlaps);
      row.tokens[b] = a.usage.tokens;
      if (b === top) {
        row.roles = {};
        for (const ch of a.chunks)
          row.roles[`${ch.role}:${ch.form}`] = (row.roles[`${ch.role}:${ch.form}`] ?? 0) + ch.tokens;
        row.hitRoles = a.chunks.filter(overlaps).map((ch) => `${ch.role}:${ch.form}`);
      }
      if (b === top) {
        const files = [...new Set(a.chunks.map((ch) => ch.path))];
        row.rank = files.findIndex((f) => gold.has(f)) + 1 || null;
        if (only) {
          console.log(
            `\n${c.id} rank ${row.rank} fn ${row.fn[b]}; gold: ${c.functions.map((g: any) => `${g.path}:${g.start}-${g.end}`).join(", ")}`,
          );
          console.log(`  notes: ${a.notes.join(" | ").slice(0, 600)}`);
          for (const ch of a.chunks)
            console.log(
              `  ${ch.form.padEnd(7)} ${String(ch.tokens).padStart(5)} ${ch.role.padEnd(7)} ${ch.path}:${ch.start}-${ch.end} ${ch.symbol}${overlaps(ch) ? "  <== gold" : ""}`,
            );
          for (const ch of a.cut.slice(0, 30))
            console.log(
              `  cut     ${String(ch.tokens).padStart(5)} ${ch.role.padEnd(7)} ${ch.path}:${ch.start}-${ch.end} ${ch.symbol}${overlaps(ch) ? "  <== gold" : ""}`,
            );
        }
      }
    } catch (e: any) {
      row.file[b] = false;
      row.fn[b] = false;
      row.tokens[b] = 0;
      row.error = e?.code ?? String(e);
    }
  }
  rows[c.id] = row;
  process.stderr.write(".");
});
process.stderr.write("\n");
const ids = Object.keys(rows);
const pct = (n: number) => ((100 * n) / ids.length).toFixed(1);
const count = (f: (r: Row) => boolean) => ids.filter((id) => f(rows[id]!)).length;
console.log(
  `n=${ids.length} Acc@1 ${pct(count((r) => r.rank !== null && r.rank <= 1))} @3 ${pct(count((r) => r.rank !== null && r.rank <= 3))} @5 ${pct(count((r) => r.rank !== null && r.rank <= 5))}` +
    ` | file ${budgets.map((b) => pct(count((r) => r.file[b]!))).join(" / ")}` +
    ` | fn ${budgets.map((b) => pct(count((r) => r.fn[b]!))).join(" / ")}` +
    ` | tokens ${budgets.map((b) => Math.round(ids.reduce((a, id) => a + rows[id]!.tokens[b]!, 0) / ids.length)).join(" / ")}` +
    ` | errors ${count((r) => r.error !== undefined)}`,
);
const against = arg("--against");
if (against) {
  const before: Record<string, Row> = JSON.parse(fs.readFileSync(against, "utf8"));
  for (const b of budgets) {
    const won = ids.filter((id) => before[id] && !before[id]!.fn[b] && rows[id]!.fn[b]);
    const lost = ids.filter((id) => before[id] && before[id]!.fn[b] && !rows[id]!.fn[b]);
    const fileLost = ids.filter((id) => before[id] && before[id]!.file[b] && !rows[id]!.file[b]);
    console.log(
      `@${b}: fn +${won.length} [${won.join(" ")}] -${lost.length} [${lost.join(" ")}]; file lost [${fileLost.join(" ")}]`,
    );
  }
  const moved = ids.filter((id) => before[id] && before[id]!.rank !== rows[id]!.rank);
  console.log(`rank moved: ${moved.map((id) => `${id} ${before[id]!.rank}→${rows[id]!.rank}`).join(", ")}`);
}
const save = arg("--save");
if (save) fs.writeFileSync(save, JSON.stringify(rows));
