#!/usr/bin/env node
/**
 * Hostile shapes, timed: a cold `codeslice index` of one TypeScript file with 250 … 3,000 nested
 * functions (cost must grow linearly: within 2× per doubling), and of a git repository whose
 * .gitignore holds 100,000 patterns against the same repository without it (added cost < 2 s).
 * Median of --runs (default 3).
 *
 * Then every shipped language × five shapes (blocks, calls, lambdas, brackets, objects; see
 * lib/hostile-shapes.mjs) nested 1k / 3k / 10k / 30k deep, each file between a function before and
 * one after it, indexed in process with a second file (issue 22): the CPU time per file (median of --runs, the
 * grammar and query compiled beforehand), its growth per doubling of depth (linear is 2×), no file
 * under 1 MB over 10 s, the other file always indexed, and whether before/after were kept.
 * Writes results/hostile.json.
 *
 *   node test/bench/hostile-bench.mjs [--runs N] [--shapes-only] [--langs ts,py] [--shapes blocks,calls] [--depths 1000,3000]
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import {
  codesliceRevision,
  ensureBuilt,
  fmt,
  machine,
  mdTable,
  parseArgs,
  repoRoot,
  resultsDir,
  runCli,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";

const { flags } = parseArgs(process.argv.slice(2), ["shapes-only"]);
const runs = Number(flags.runs ?? 3);
const shapesOnly = Boolean(flags["shapes-only"]);
ensureBuilt();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-hostile-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

/** Median wall / CPU seconds of a cold index of `root` (a fresh cache each run). */
async function coldIndex(root, extra = []) {
  const walls = [],
    cpus = [];
  for (let i = 0; i < runs; i++) {
    const cache = path.join(scratch, `cache-${path.basename(root)}-${i}`);
    const r = await runCli(["index", "--root", root, "--cache-dir", cache, "--quiet", ...extra]);
    walls.push(r.wall);
    if (r.cpu != null) cpus.push(r.cpu);
    fs.rmSync(cache, { recursive: true, force: true });
  }
  return { wall: stats(walls), cpu: cpus.length ? stats(cpus) : null };
}

const nesting = [];
for (const depth of shapesOnly ? [] : [250, 500, 1000, 2000, 3000]) {
  const root = path.join(scratch, `nest-${depth}`);
  fs.mkdirSync(root);
  const open = Array.from({ length: depth }, (_, i) => `function f${i}(x${i}: number) { g${i}(x${i});`);
  fs.writeFileSync(path.join(root, "deep.ts"), `${open.join("\n")}\nreturn 1;\n${"}\n".repeat(depth)}`);
  const m = await coldIndex(root);
  nesting.push({
    depth,
    bytes: fs.statSync(path.join(root, "deep.ts")).size,
    wallS: m.wall.median,
    cpuS: m.cpu?.median ?? null,
  });
  console.error(`nesting ${depth}: ${fmt(m.wall.median, 2)} s`);
}

let gitignore = null;
if (!shapesOnly) {
  const repo = path.join(scratch, "gitignore");
  fs.mkdirSync(repo);
  const git = (...a) =>
    execFileSync("git", ["-c", "user.email=b@example.com", "-c", "user.name=bench", ...a], {
      cwd: repo,
      stdio: ["ignore", "ignore", "pipe"],
    });
  git("init", "-q");
  for (let i = 0; i < 1000; i++) {
    fs.mkdirSync(path.join(repo, `pkg${i % 20}`), { recursive: true });
    fs.writeFileSync(path.join(repo, `pkg${i % 20}`, `m${i}.py`), `def f${i}():\n    return ${i}\n`);
  }
  git("add", "pkg0");
  git("commit", "-q", "-m", "some tracked, the rest untracked");
  const without = await coldIndex(repo);
  const patterns = Array.from(
    { length: 100_000 },
    (_, i) => [`build${i}/`, `*.ext${i}`, `/path/to/file${i}.txt`, `dir${i}/**/x${i}`][i % 4],
  );
  fs.writeFileSync(path.join(repo, ".gitignore"), `${patterns.join("\n")}\n`);
  const withRules = await coldIndex(repo);
  gitignore = {
    patterns: 100_000,
    untrackedFiles: 950,
    withoutS: without.wall.median,
    withS: withRules.wall.median,
    addedS: withRules.wall.median - without.wall.median,
  };
}

const shapes = await hostileShapes();

const ratios = nesting
  .slice(1)
  .map((n, i) => ({ from: nesting[i].depth, to: n.depth, ratio: n.wallS / nesting[i].wallS }));
const result = { machine: machine(), revision: codesliceRevision(), runs, nesting, ratios, gitignore, shapes };
writeJson(path.join(resultsDir, shapesOnly ? "hostile-shapes.json" : "hostile.json"), result);
if (!shapesOnly) {
  console.log(
    mdTable(
      ["nested functions", "file bytes", "cold index wall s", "CPU s"],
      nesting.map((n) => [n.depth, n.bytes, fmt(n.wallS, 2), fmt(n.cpuS, 2)]),
    ),
  );
  console.log(`\nper step: ${ratios.map((r) => `${r.from}→${r.to} ×${fmt(r.ratio, 2)}`).join(", ")}`);
  console.log(
    `\n.gitignore of 100,000 patterns, 950 untracked files: ${fmt(gitignore.withS, 2)} s against ${fmt(gitignore.withoutS, 2)} s without (+${fmt(gitignore.addedS, 2)} s)\n`,
  );
}
console.log(
  mdTable(
    [
      "language",
      "shape",
      ...shapes.depths.map((d) => `${d / 1000}k s`),
      "worst ×/doubling",
      "before/after kept",
      "other file",
    ],
    shapes.rows.map((r) => [
      r.language,
      r.shape,
      ...r.runs.map((x) => (x.skipped ? `skip (${x.skipped})` : fmt(x.seconds, 2))),
      r.worstGrowth === null ? "–" : fmt(r.worstGrowth, 2),
      r.runs.map((x) => x.kept).join(" "),
      r.runs.every((x) => x.otherIndexed) ? "always" : "LOST",
    ]),
  ),
);
console.log(
  `\n${shapes.rows.length} language × shape rows, ${shapes.rows.length * shapes.depths.length} files: slowest ${fmt(shapes.slowest.seconds, 2)} s (${shapes.slowest.label}); over 10 s under 1 MB: ${shapes.overTen.length ? shapes.overTen.join(", ") : "none"}; growth over 2× per doubling (between runs over 0.2 s CPU): ${shapes.superLinear.length ? shapes.superLinear.join(", ") : "none"}; other file lost: ${shapes.lost.length ? shapes.lost.join(", ") : "never"}`,
);

/**
 * Every language × shape × depth, in this process through the built package's memory platform.
 * Times are CPU seconds, the median of --runs. Growth per doubling between two depths d1 < d2 with
 * times t1, t2 is (t2/t1)^(1/log2(d2/d1)): 2 is linear. Only pairs whose slower run takes over
 * 0.2 s count (below, start-up noise rules).
 */
async function hostileShapes() {
  const { LANGUAGES, SHAPES, hostileFile } = await import("./lib/hostile-shapes.mjs");
  const dist = (p) => pathToFileURL(path.join(repoRoot, "dist", p)).href;
  const { createEngine } = await import(dist("index.js"));
  const { MemoryFileSystem, MemoryStore } = await import(dist("platform/memory/index.js"));
  const { NodeWasmSource } = await import(dist("platform/node/index.js"));
  const wasm = new NodeWasmSource();
  const enc = new TextEncoder();
  const list = (flag, all) => (flags[flag] ? String(flags[flag]).split(",") : all);
  const languages = list("langs", Object.keys(LANGUAGES));
  const shapeNames = list("shapes", SHAPES);
  const depths = list("depths", ["1000", "3000", "10000", "30000"]).map(Number);
  const rows = [];
  const other = enc.encode("def keep_me():\n    return 1\n");
  for (const language of languages) {
    // Compile the grammar and query first: a cold process pays it once, not per file.
    const warm = hostileFile(language, "calls", 1);
    await createEngine({
      fs: new MemoryFileSystem({ [warm.path]: enc.encode(warm.text) }),
      store: new MemoryStore(),
      wasm,
    }).index();
    for (const shape of shapeNames) {
      const row = { language, shape, runs: [] };
      for (const depth of depths) {
        const file = hostileFile(language, shape, depth);
        const bytes = enc.encode(file.text);
        // CPU seconds of this process (the parse pool's threads included), median of --runs: on a
        // shared machine wall time mostly measures the neighbours.
        const cpus = [];
        let engine, summary;
        for (let run = 0; run < runs; run++) {
          engine?.close();
          engine = createEngine({
            fs: new MemoryFileSystem({ [file.path]: bytes, "other.py": other }),
            store: new MemoryStore(),
            wasm,
          });
          const started = process.cpuUsage();
          summary = await engine.index();
          const used = process.cpuUsage(started);
          cpus.push((used.user + used.system) / 1e6);
        }
        const seconds = stats(cpus).median;
        const records = await engine.records();
        const deep = records.find((r) => r.path === file.path);
        const names = new Set(deep?.definitions.map((d) => d.name.toLowerCase()) ?? []);
        const skipped = summary.skipped.find((s) => s.path === file.path)?.reason;
        row.runs.push({
          depth,
          bytes: bytes.length,
          seconds,
          skipped: skipped ?? null,
          kept: skipped
            ? "–"
            : `${names.has("before") || names.has("before1") ? "b" : "·"}${names.has("after") || names.has("after1") ? "a" : "·"}`,
          otherIndexed: records.some((r) => r.path === "other.py" && r.definitions.some((d) => d.name === "keep_me")),
          stopped: deep?.diagnostics.some((d) => d.message.startsWith("extraction stopped")) ?? false,
        });
        engine.close();
        console.error(`${language} ${shape} ${depth}: ${skipped ? `skipped (${skipped})` : `${fmt(seconds, 2)} s`}`);
      }
      const timed = row.runs.filter((r) => !r.skipped);
      const growth = timed
        .slice(1)
        .map((r, i) =>
          Math.max(r.seconds, timed[i].seconds) > 0.2
            ? (r.seconds / timed[i].seconds) ** (1 / Math.log2(r.depth / timed[i].depth))
            : null,
        )
        .filter((g) => g !== null);
      row.worstGrowth = growth.length ? Math.max(...growth) : null;
      rows.push(row);
    }
  }
  const all = rows.flatMap((r) => r.runs.map((x) => ({ ...x, label: `${r.language} ${r.shape} ${x.depth}` })));
  return {
    depths,
    rows,
    slowest: all.reduce((a, b) => (b.seconds > a.seconds ? b : a)),
    overTen: all.filter((x) => !x.skipped && x.bytes < 1 << 20 && x.seconds > 10).map((x) => x.label),
    superLinear: rows
      .filter((r) => r.worstGrowth !== null && r.worstGrowth > 2)
      .map((r) => `${r.language} ${r.shape} ×${fmt(r.worstGrowth, 2)}`),
    lost: all.filter((x) => !x.otherIndexed).map((x) => x.label),
  };
}
