/**
 * Budgets only ever add: for a fixed target, every chunk shown at a budget (whole or as an outline)
 * is still shown at every larger budget (and one shown whole stays whole), the seed is always there, no answer is over its budget,
 * no neighbour takes more than its share of it (an outline a fifth, a body a third), and no target
 * fails `budget_too_small` at 2,000 tokens or more. Checked on three real projects — Debian's python3-requests and python3-click (.ci/run
 * installs them) and zod's TypeScript sources (a dependency of this package, so `npm ci` brings
 * them) — over a deterministic sample of their functions, methods, classes and files, in-process
 * through `createEngine` with the Node platform.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine, type Engine } from "../../src/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { isEngineError } from "../../src/shared/errors.ts";
import type { ContextAnswer } from "../../src/core/slice/context.ts";

const BUDGETS = [600, 900, 1200, 1600, 2000, 3000, 4500, 8000];
/** Symbols sampled per project (plus FILES file targets): 3 × (67 + 3) = 210 targets. */
const SYMBOLS = 67;
const FILES = 3;

const DEBIAN = "/usr/lib/python3/dist-packages";
const ZOD = new URL("../../node_modules/zod/src/v4/", import.meta.url).pathname;
const CORPORA = [
  { name: "requests", from: join(DEBIAN, "requests"), source: /\.py$/, install: "apt-get install python3-requests" },
  { name: "click", from: join(DEBIAN, "click"), source: /\.py$/, install: "apt-get install python3-click" },
  { name: "zod", from: ZOD, source: /\.ts$/, install: "npm ci (zod is a dependency)" },
];

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the project's sources (no tests, no caches) in a fresh folder, indexed by a Node engine. */
async function engineOver(from: string, source: RegExp): Promise<Engine> {
  const root = mkdtempSync(join(tmpdir(), "codeslice-monotone-"));
  scratch.push(root);
  cpSync(from, root, {
    recursive: true,
    // Sources only: no tests (a project's own tests are not what these targets are about), no caches.
    filter: (src) => (statSync(src).isDirectory() ? !/(^|\/)(tests?|__pycache__)$/.test(src) : source.test(src)),
  });
  return createEngine(await createNodePlatform({ root }));
}

/** Every `n`-th of `items` so that about `want` are taken: a deterministic spread over the project. */
function spread<T>(items: T[], want: number): T[] {
  const step = Math.max(1, items.length / want);
  const out: T[] = [];
  for (let i = 0; i < items.length && out.length < want; i += step) out.push(items[Math.floor(i)]!);
  return out;
}

/** Targets: functions, methods and classes a qualified name names alone, and a few files. */
async function targetsOf(engine: Engine): Promise<string[]> {
  const graph = await engine.codeGraph();
  const symbols = graph.symbols
    .filter((s) => ["function", "method", "class"].includes(s.kind) && graph.byQualified.get(s.qualified) === s.id)
    .map((s) => s.qualified)
    .sort();
  const files = [...graph.moduleSymbol.keys()].sort();
  return [...spread(symbols, SYMBOLS), ...spread(files, FILES)];
}

type Shown = ContextAnswer["chunks"][number];
const key = (c: { path: string; start: number; end: number }) => `${c.path}:${c.start}-${c.end}`;
/** Shown at this budget: listed as a chunk, or inside a chunk shown whole. */
const present = (c: Shown, answer: ContextAnswer) =>
  answer.chunks.some(
    (o) => key(o) === key(c) || (o.form === "full" && o.path === c.path && o.start <= c.start && o.end >= c.end),
  );

interface Figures {
  targets: number;
  answers: number;
  tooSmall: number;
  /** budget_too_small at 2,000 tokens or more: a seed outline too long to be capped (must be none). */
  tooSmallLarge: string[];
  /** Pairs of consecutive budgets (both answered) and the chunks checked across them. */
  pairs: number;
  checked: number;
  violations: string[];
  /** Chunks shown whole at a budget and only as an outline at the next one (violations too: a larger budget only upgrades). */
  downgrades: number;
  /** Tokens used / budget, and chunks shown (whole, outline), summed over answers (for the means). */
  fill: number;
  whole: number;
  outlines: number;
}

async function check(engine: Engine, targets: string[]): Promise<Figures> {
  const f: Figures = {
    targets: targets.length,
    answers: 0,
    tooSmall: 0,
    tooSmallLarge: [],
    pairs: 0,
    checked: 0,
    violations: [],
    downgrades: 0,
    fill: 0,
    whole: 0,
    outlines: 0,
  };
  for (const target of targets) {
    let previous: { budget: number; answer: ContextAnswer } | undefined;
    for (const budget of BUDGETS) {
      let answer: ContextAnswer;
      try {
        answer = await engine.context(target, { budget });
      } catch (error) {
        if (!isEngineError(error, "budget_too_small"))
          throw new Error(`${target} @ ${budget}: ${String(error)}`, { cause: error });
        f.tooSmall++;
        if (budget >= 2000) f.tooSmallLarge.push(`${target} @ ${budget}`);
        if (previous) f.violations.push(`${target}: answered at ${previous.budget}, budget_too_small at ${budget}`);
        continue;
      }
      f.answers++;
      f.fill += answer.usage.tokens / budget;
      f.whole += answer.chunks.filter((c) => c.form === "full").length;
      f.outlines += answer.chunks.filter((c) => c.form === "outline").length;
      if (answer.usage.tokens > budget) f.violations.push(`${target} @ ${budget}: ${answer.usage.tokens} tokens`);
      if (!answer.chunks.some((c) => c.role === "seed")) f.violations.push(`${target} @ ${budget}: no seed`);
      // No neighbour takes more than its share: an outline a fifth of the budget, a body a third.
      for (const c of answer.chunks) {
        if (c.role !== "seed" && c.tokens > budget * (c.form === "outline" ? 0.2 : 1 / 3))
          f.violations.push(`${target} @ ${budget}: ${c.role} ${c.symbol} (${c.form}) takes ${c.tokens} tokens`);
      }
      if (previous) {
        f.pairs++;
        for (const c of previous.answer.chunks) {
          f.checked++;
          if (!present(c, answer))
            f.violations.push(
              `${target}: ${c.role} ${c.symbol} (${c.form}, ${c.tokens}) shown at ${previous.budget}, gone at ${budget}`,
            );
          else if (c.form === "full" && answer.chunks.some((o) => key(o) === key(c) && o.form === "outline")) {
            f.downgrades++;
            f.violations.push(`${target}: ${c.role} ${c.symbol} whole at ${previous.budget}, an outline at ${budget}`);
          }
        }
      }
      previous = { budget, answer };
    }
  }
  return f;
}

describe("budgets only ever add", () => {
  for (const corpus of CORPORA) {
    const have = existsSync(corpus.from);
    it.skipIf(!have)(
      `${corpus.name}: ~70 targets × ${BUDGETS.length} budgets, no chunk dropped as the budget grows${have ? "" : ` (skipped: ${corpus.from} is missing; ${corpus.install})`}`,
      async () => {
        const engine = await engineOver(corpus.from, corpus.source);
        try {
          const targets = await targetsOf(engine);
          expect(targets.length).toBeGreaterThanOrEqual(SYMBOLS);
          const f = await check(engine, targets);
          const meanFill = f.answers ? f.fill / f.answers : 0;
          console.log(
            `${corpus.name}: ${f.targets} targets × ${BUDGETS.length} budgets: ${f.answers} answers, ${f.tooSmall} budget_too_small (${f.tooSmallLarge.length} at ≥ 2,000), ` +
              `${f.pairs} budget pairs, ${f.checked} chunks checked, ${f.violations.length} violations (${f.violations.filter((v) => v.includes(", gone at")).length} chunks dropped, ${f.downgrades} whole→outline, ${f.violations.filter((v) => / takes \d+ tokens$/.test(v)).length} over their share, ${f.violations.filter((v) => v.includes("budget_too_small at")).length} too small after an answer), mean fill ${(100 * meanFill).toFixed(1)}%, ` +
              `chunks per answer ${(f.whole / f.answers).toFixed(2)} whole + ${(f.outlines / f.answers).toFixed(2)} outlines` +
              (f.violations.length ? `\n  ${f.violations.slice(0, 12).join("\n  ")}` : ""),
          );
          expect(f.violations.slice(0, 20)).toEqual([]);
          expect(f.tooSmallLarge).toEqual([]);
        } finally {
          engine.close();
        }
      },
      120_000,
    );
  }
});
