#!/usr/bin/env node
// Records a fixed set of answers through the library API, one JSON file per answer, so that a
// refactor (a file move, a formatter pass, a split of the engine's state) can be shown to change
// no answer: record with the build before, record with the build after, `diff -r` the two folders.
//
// Per corpus (each indexed in a private copy with a private cache, so the corpus is never touched):
//   graph     engine.graph() (the gold JSON, as `graph --json` prints it)
//   map       at 7 budgets
//   targets   40 symbols picked from the graph (every Nth of the qualified names sorted, functions,
//             methods and classes alike), and for each: context at 6 budgets, callers, callees,
//             tests, impact (up and down), signature, and trace to the next target
//   search    8 queries made from the targets' last name parts; locate and pack on 4 tasks in words
//   errors    a budget too small, an unknown symbol, a typo: the error code, message and data
// Answers that carry wall-clock fields (timings, dates) have them replaced by "<time>".
//
// Rerun:
//   node scripts/build.mjs && node test/bench/record-answers.mjs --out /tmp/answers-after [--dist .] [CORPUS_DIR ...]
//   diff -r /tmp/answers-before /tmp/answers-after && echo identical
// --build-id ID records from engines that loaded what a first engine kept in the cache (the graph's
// resolved edges and the search index, EngineOptions.buildId) instead of deriving it themselves.
// --dist points at a checkout whose dist/ is the build to record (default: this one); record the
// other build by running the same script with --dist /path/to/other/checkout. Default corpora: this
// repository's src/ and test/graph at commit c5b758f (git archive), and /work/corpora/lead/django when it exists.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { execFileSync } from "node:child_process";
import { parseArgs, repoRoot } from "./lib/bench-utils.mjs";

const { flags, positionals: positional } = parseArgs(process.argv.slice(2));
const OUT = path.resolve(flags.out ?? "/tmp/codeslice-answers");
const DIST = path.resolve(flags.dist ?? repoRoot);
/** --build-id ID: the answers of an engine that loaded the derived data a first engine kept (see recordCorpus). */
const BUILD_ID = flags["build-id"] === undefined ? undefined : String(flags["build-id"]);

const { createEngine } = await import(pathToFileURL(path.join(DIST, "dist/index.js")).href);
const { createNodePlatform } = await import(pathToFileURL(path.join(DIST, "dist/platform/node/index.js")).href);
const { SCHEMA_VERSION } = await import(pathToFileURL(path.join(DIST, "dist/core/engine/snapshot.js")).href);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-record-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

/** A git repository holding a copy of `from` (or of this repository's `dirs` at commit `pin`), the same for every build. */
function copyCorpus(name, from, dirs, pin) {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  if (pin)
    execFileSync("sh", [
      "-c",
      `git -C ${JSON.stringify(from)} archive ${pin} ${dirs.join(" ")} | tar -x -C ${JSON.stringify(dir)}`,
    ]);
  else
    fs.cpSync(from, dir, {
      recursive: true,
      filter: (p) => !/(^|\/)(\.codeslice|\.git|node_modules|__pycache__)$/.test(p),
    });
  const git = (...args) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=r@r", "-c", "user.name=r", "commit", "-qm", "corpus");
  return dir;
}

const TIME_KEYS = new Set(["durationMs", "indexedAt", "at", "ms", "elapsedMs", "took", "startedAt"]);
/** The answer with wall-clock fields blanked, as stable JSON. */
function stable(value) {
  return JSON.stringify(value, (k, v) => (TIME_KEYS.has(k) ? "<time>" : v), 1);
}

let written = 0;
function save(corpus, name, value) {
  const file = path.join(OUT, corpus, `${name.replace(/[^\w.#@-]+/g, "_").slice(0, 150)}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, stable(value) + "\n");
  written++;
}

/** Runs one call and records its answer or its error (code, message, data). */
async function record(corpus, name, call) {
  try {
    save(corpus, name, await call());
  } catch (error) {
    save(corpus, name, { error: { code: error?.code, message: String(error?.message), data: error?.data } });
  }
}

async function recordCorpus(corpus, dir) {
  const cacheDir = path.join(scratch, `cache-${corpus}`);
  let keptAt;
  const platform = await createNodePlatform({ root: dir, cacheDir });
  if (BUILD_ID !== undefined) {
    // --build-id: one engine indexes and keeps its derived data (the graph's edges, the search
    // index) in the cache; the answers come from a second engine, which loads them.
    const priming = createEngine(platform, { quiet: true, buildId: BUILD_ID });
    await priming.index();
    await priming.graph();
    const kept = path.join(cacheDir, `v${SCHEMA_VERSION}`, "derived.bin");
    for (let i = 0; i < 600 && !fs.existsSync(kept); i++) await new Promise((r) => setTimeout(r, 50));
    priming.close();
    if (!fs.existsSync(kept)) throw new Error(`--build-id: no derived data was kept in ${cacheDir}`);
    keptAt = fs.statSync(kept).mtimeMs;
  }
  const engine = createEngine(platform, { quiet: true, ...(BUILD_ID !== undefined ? { buildId: BUILD_ID } : {}) });
  try {
    await engine.index();
    const graph = await engine.graph();
    save(corpus, "graph", graph);
    for (const budget of [500, 1000, 2000, 4000, 8000, 16000, 32000])
      await record(corpus, `map@${budget}`, () => engine.map({ budget }));
    const code = await engine.codeGraph();
    const names = [...code.symbols.values()]
      .filter((s) => ["function", "method", "class"].includes(s.kind))
      .map((s) => s.qualified)
      .sort();
    const stride = Math.max(1, Math.floor(names.length / 40));
    const targets = names.filter((_, i) => i % stride === 0).slice(0, 40);
    for (const [i, t] of targets.entries()) {
      for (const budget of [300, 800, 1500, 3000, 6000, 12000])
        await record(corpus, `context@${budget}-${t}`, () => engine.context(t, { budget }));
      await record(corpus, `callers-${t}`, () => engine.callers(t, { depth: 2 }));
      await record(corpus, `callees-${t}`, () => engine.callees(t, { depth: 2 }));
      await record(corpus, `tests-${t}`, () => engine.tests(t));
      await record(corpus, `impact-up-${t}`, () => engine.impact(t));
      await record(corpus, `impact-down-${t}`, () => engine.impact(t, { direction: "down" }));
      await record(corpus, `signature-${t}`, () => engine.signature(t));
      const next = targets[(i + 1) % targets.length];
      await record(corpus, `trace-${t}-${next}`, () => engine.trace(t, next));
    }
    const words = targets.map((t) => t.split(/[.#/]/).pop()).filter(Boolean);
    for (let i = 0; i < 8; i++)
      await record(corpus, `search-${i}`, () =>
        engine.search(`${words[i]} ${words[(i + 5) % words.length]}`, { limit: 10 }),
      );
    for (let i = 0; i < 4; i++) {
      const task = `Fix the bug where ${words[i * 3]} returns the wrong value when ${words[i * 3 + 1]} is called twice`;
      await record(corpus, `locate-${i}`, () => engine.locate(task));
      await record(corpus, `pack-${i}`, () => engine.pack(task, { budget: 4000 }));
    }
    await record(corpus, "error-budget", () => engine.context(targets[0], { budget: 5 }));
    await record(corpus, "error-unknown", () => engine.context("no_such_symbol_anywhere_here"));
    await record(corpus, "error-typo", () => engine.callers(`${targets[1]}x`));
    // Loaded, not built again: a build would have kept its data anew.
    if (
      keptAt !== undefined &&
      fs.statSync(path.join(cacheDir, `v${SCHEMA_VERSION}`, "derived.bin")).mtimeMs !== keptAt
    )
      throw new Error(`--build-id: the second engine on ${corpus} derived its data again instead of loading it`);
  } finally {
    engine.close();
  }
}

const corpora =
  positional.length > 0
    ? positional.map((p) => [path.basename(p), copyCorpus(path.basename(p), path.resolve(p))])
    : [
        // This repository's own code as it was at a fixed commit: the corpus must not move with the change under test.
        ["codeslice", copyCorpus("codeslice", repoRoot, ["src", "test/graph"], "c5b758f")],
        ...(fs.existsSync("/work/corpora/lead/django")
          ? [["django", copyCorpus("django", "/work/corpora/lead/django")]]
          : []),
      ];
fs.rmSync(OUT, { recursive: true, force: true });
for (const [name, dir] of corpora) {
  const started = Date.now();
  await recordCorpus(name, dir);
  console.error(`${name}: recorded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
console.log(`${written} answers in ${OUT}`);
