// dataflow on route handlers of a real repository (the FastAPI full-stack template): a hand-checked question set, right answers counted.
//
// Usage: npm run bench -- dataflow [--repo DIR]
//   DIR is a checkout of fastapi/full-stack-fastapi-template at the commit questions.json names
//   (default /work/corpora/explain26/fastapi-template); the script runs the built CLI
//   (`node scripts/build.mjs` first) as `codeslice dataflow <target> [--var X --line N] --json`
//   in its backend folder and checks each answer against the expected one.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(here, "../../../dist/cli/main.js");
const set = JSON.parse(fs.readFileSync(path.join(here, "questions.json"), "utf8"));
const argRepo = process.argv.indexOf("--repo");
const repo = argRepo > 0 ? process.argv[argRepo + 1] : "/work/corpora/explain26/fastapi-template";
const root = path.join(repo, set.root);
if (!fs.existsSync(root)) {
  console.error(`No checkout at ${repo}: clone ${set.repository} and check out ${set.commit}, then pass --repo DIR.`);
  process.exit(2);
}
const head = spawnSync("git", ["-C", repo, "rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim();
console.log(`${set.repository} at ${head.slice(0, 12)} (questions checked at ${set.commit})`);

const at = (s) => `${s.path}:${s.line}`;
let right = 0;
for (const q of set.questions) {
  const args = [
    cli,
    "dataflow",
    q.target,
    "--json",
    "--no-server",
    ...(q.variable ? ["--var", q.variable] : []),
    ...(q.line ? ["--line", String(q.line)] : []),
  ];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  const problems = [];
  if (r.status !== 0) problems.push(`exit ${r.status}: ${r.stderr.trim().split("\n")[0]}`);
  else {
    const a = JSON.parse(r.stdout);
    const reached = a.sinks
      .filter((s) => s.reached)
      .map(at)
      .sort();
    if (q.reached && JSON.stringify(reached) !== JSON.stringify([...q.reached].sort()))
      problems.push(`reached ${JSON.stringify(reached)}, expected ${JSON.stringify(q.reached)}`);
    for (const l of q.notReached ?? [])
      if (!a.sinks.some((s) => at(s) === l && !s.reached))
        problems.push(`${l} not listed as a sink input does not reach`);
    const origins = new Set((a.origins ?? []).flat().map(at));
    for (const l of q.origins ?? []) if (!origins.has(l)) problems.push(`origin ${l} missing`);
  }
  if (problems.length === 0) right++;
  console.log(
    `${problems.length ? "WRONG" : "right"}  ${q.ask}${problems.length ? `\n       ${problems.join("\n       ")}` : ""}`,
  );
}
console.log(`${right} of ${set.questions.length} answered right`);
process.exit(right === set.questions.length ? 0 : 1);
