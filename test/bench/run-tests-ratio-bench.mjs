// run_tests on real repositories: a one-line edit makes tests fail, `codeslice tests <target> --run` answers; prints the command, exit code, answer tokens, raw log tokens and their ratio.
//
// Usage: npm run bench -- run-tests-ratio [--corpora DIR] [--runs N] [--only NAME] [--show]
//   DIR holds checkouts of pallets/flask (pytest; its deps importable, PYTHONPATH=src is set here),
//   pallets/click (pytest, nothing else; PYTHONPATH=src), honojs/hono (Vitest; node_modules with
//   vitest, @vitest/coverage-v8 and vite-plugin-fastly-js-compute, which its config loads) and
//   immerjs/immer (Vitest 3.2.6; node_modules with vitest, deep-freeze, lodash, redux, type-plus and
//   immutable), default /work/corpora/explain26. A checkout that is missing is skipped, and said so.
//   --show prints each answer's text.
//   Each case edits one line of the source, runs the built CLI (`node scripts/build.mjs` first),
//   and puts the line back (git checkout) whatever happens. The issue's bar: an answer of at most
//   600 tokens that shows the failing id and its assertion, where the raw log is ≥ 10× longer.
//   Token counts are the CLI's own (o200k): `usage.tokens` of the answer, `rawTokens` of each run.
//   With --runs N each case runs N times and the median ratio is printed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(here, "../../dist/cli/main.js");
const arg = (name, d) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : d;
};
const corpora = arg("corpora", "/work/corpora/explain26");
const runs = Number(arg("runs", "1"));
const only = arg("only", "");
const show = process.argv.includes("--show");

/** Each case: the repository, the target `tests` is asked about, the one-line edit, and what the answer must show. */
const CASES = [
  {
    name: "flask",
    repo: "flask",
    runner: "pytest",
    target: "flask.helpers.get_flashed_messages",
    edit: { file: "src/flask/helpers.py", from: "f[0] in category_filter", to: "f[0] not in category_filter" },
    env: (root) => ({ PYTHONPATH: path.join(root, "src") }),
    failing: "test_extended_flashing",
  },
  {
    name: "hono",
    repo: "hono",
    runner: "vitest",
    target: "src/utils/cookie.ts#serialize",
    edit: { file: "src/utils/cookie.ts", from: "cookie += '; HttpOnly'", to: "cookie += '; Httponly'" },
    env: () => ({}),
    failing: "Should serialize cookie with all options",
  },
  {
    // One failing test: the 400-day cap on Max-Age raised tenfold, so only the test of the cap fails.
    name: "hono-one",
    repo: "hono",
    runner: "vitest",
    target: "src/utils/cookie.ts#serialize",
    edit: { file: "src/utils/cookie.ts", from: "opt.maxAge > 34560000", to: "opt.maxAge > 345600000" },
    env: () => ({}),
    failing: "Should throw Error cookie with maxAge grater than 400days",
  },
  {
    // One failing test: `format_filename(…, shorten=True)` keeps the folder instead of the file name.
    name: "click",
    repo: "click",
    runner: "pytest",
    target: "click.utils.format_filename",
    edit: {
      file: "src/click/utils.py",
      from: "filename = os.path.basename(filename)",
      to: "filename = os.path.dirname(filename)",
    },
    env: (root) => ({ PYTHONPATH: path.join(root, "src") }),
    failing: "test_filename_formatting",
  },
  {
    // Two failing tests of one cause: a JSON-patch `add` at `-` prepends instead of appending. The
    // function's tests are whole files (every file that enables patches), so this case has no -file twin.
    name: "immer",
    repo: "immer",
    runner: "vitest",
    target: "enablePatches",
    edit: { file: "src/plugins/patches.ts", from: "? base.push(value)", to: "? base.unshift(value)" },
    env: () => ({}),
    failing: "appends to array when last part of path is '-'",
    noFileTwin: true,
  },
];
// The same edits with the file as the target: `tests` then finds every test file that reaches the
// file, and runs them whole, where the symbol's own tests are a few ids.
for (const c of [...CASES]) if (!c.noFileTwin) CASES.push({ ...c, name: `${c.name}-file`, target: c.edit.file });

function git(root, ...args) {
  return spawnSync("git", ["-C", root, ...args], { encoding: "utf8" }).stdout.trim();
}

function runCase(c) {
  const root = path.join(corpora, c.repo);
  if (!fs.existsSync(root)) {
    console.log(`${c.name}: no checkout at ${root}, skipped`);
    return undefined;
  }
  const file = path.join(root, c.edit.file);
  const before = fs.readFileSync(file, "utf8");
  if (before.split(c.edit.from).length !== 2)
    throw new Error(`${c.name}: "${c.edit.from}" is not on exactly one line of ${c.edit.file}`);
  fs.writeFileSync(file, before.replace(c.edit.from, c.edit.to));
  try {
    const out = [];
    for (let i = 0; i < runs; i++) {
      const r = spawnSync(
        process.execPath,
        [cli, "tests", c.target, "--run", "--json", "--no-server", "--timeout", "600"],
        { cwd: root, encoding: "utf8", env: { ...process.env, ...c.env(root) }, maxBuffer: 64 << 20 },
      );
      if (!r.stdout.trim().startsWith("{"))
        throw new Error(`${c.name}: no JSON answer (exit ${r.status}): ${r.stderr.slice(0, 500)}`);
      out.push(JSON.parse(r.stdout));
    }
    return out;
  } finally {
    fs.writeFileSync(file, before);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`run_tests ratio; ${runs} run(s) per case; load ${load}`);
let ok = true;
for (const c of CASES) {
  if (only && c.name !== only) continue;
  const answers = runCase(c);
  if (!answers) continue;
  const a = answers[answers.length - 1];
  const raw = (x) => x.runs.reduce((n, r) => n + r.rawTokens, 0);
  const ratios = answers.map((x) => raw(x) / x.usage.tokens);
  const shows = a.text.includes(c.failing);
  console.log(
    `\n${c.name} (${git(path.join(corpora, c.repo), "rev-parse", "--short=12", "HEAD")}): ${c.target}; edit ${c.edit.file}: ${JSON.stringify(c.edit.from)} → ${JSON.stringify(c.edit.to)}`,
  );
  for (const r of a.runs)
    console.log(
      `  $ ${r.command.length > 200 ? `${r.command.slice(0, 200)}…` : r.command}\n    exit ${r.exitCode}${r.timedOut ? " (timed out)" : ""} in ${(r.durationMs / 1000).toFixed(1)} s; raw log ${r.rawTokens} tokens (${r.outputBytes} bytes); ${r.result.summary ?? "no summary line"}`,
    );
  console.log(
    `  tests found: ${a.tests}; answer ${a.usage.tokens} tokens (budget ${a.usage.budget}); raw log ${raw(a)} tokens; ratio ${median(ratios).toFixed(1)}× (median of ${ratios.length}); failing test "${c.failing}" shown: ${shows}`,
  );
  if (show) console.log(a.text.replace(/^/gm, "  | "));
  if (a.usage.tokens > 600 || median(ratios) < 10 || !shows) ok = false;
}
console.log(
  ok
    ? "\nevery case: answer ≤ 600 tokens, raw log ≥ 10×, failing test shown"
    : "\nsome case misses the bar (answer ≤ 600 tokens, raw log ≥ 10×, failing test shown)",
);
