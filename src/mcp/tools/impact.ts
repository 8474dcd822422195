/** `impact`: the blast radius of a symbol, a file or lines, one page within the budget, with a risk summary. */
import { z } from "zod";
import { LIMITS, type ImpactAnswer } from "../../index.ts";
import {
  budget,
  completeness,
  cursor,
  depth,
  limit,
  page,
  pageOf,
  site,
  symbolRef,
  targetArg,
  testCode,
  testsMode,
} from "../schemas.ts";
import { defineTool } from "../tool.ts";
import { DEFAULT_LIST_BUDGET, listCall, withNotes } from "./list.ts";
import { crossRepoCallers } from "../group.ts";

const MAX_DEPTH = LIMITS.depth.max;

/** The structured content: the page's entries and the whole walk's summary, without the text. */
function data(a: ImpactAnswer, notes: string[]) {
  return {
    resolvedAs: a.resolvedAs,
    targets: a.targets,
    direction: a.direction,
    depth: a.depth,
    // The share is the larger of the two fractions the counts beside it give.
    risk: { ...a.risk, reach: { ...a.risk.reach, share: undefined } },
    total: a.total,
    byDepth: a.byDepth,
    routes: a.routes,
    tests: a.tests,
    ...(a.consumers
      ? {
          consumers: a.consumers.map((c) => ({
            at: `${c.path}:${c.line}`,
            caller: c.caller,
            via: c.via,
            ...(c.test ? { test: true } : {}),
          })),
        }
      : {}),
    entries: a.entries.map((e) => ({
      qualified: e.qualified,
      kind: e.kind,
      path: e.path,
      line: e.line,
      direction: e.direction,
      depth: e.depth,
      site: e.site,
      resolution: e.resolution,
      confidence: e.confidence,
      pathConfidence: e.pathConfidence,
      ...(e.test ? { test: e.test } : {}),
      ...(e.inTest ? { inTest: true } : {}),
    })),
    testCode: a.testCode,
    page: pageOf(a.page),
    completeness: a.completeness,
    notes: [...a.notes, ...notes],
  };
}

export const impactTool = defineTool({
  name: "impact",
  title: "Blast radius of a change",
  description:
    "What a change to a symbol, file or path:start-end could break: callers (direction up, default), callees " +
    ("(down) or both to depth (default 3), by depth, each with its call site, resolution and confidence; a risk " +
      ("summary (production callers and their directories, routes, tests with runnable ids, deepest path). Paged " +
        "like callers.")),
  input: z.strictObject({
    target: targetArg("target", "A symbol, a file, path:start-end, or METHOD /path (adds the route's client calls)."),
    direction: z.enum(["up", "down", "both"], { error: "direction must be up, down or both" }).optional(),
    depth: depth.describe(`Hops (default 3, at most ${MAX_DEPTH}).`),
    limit,
    cursor,
    tests: testsMode,
    budget: budget("", DEFAULT_LIST_BUDGET),
  }),
  output: z.object({
    resolvedAs: z.string().describe("symbol, file or lines."),
    targets: z.array(symbolRef),
    direction: z.string(),
    depth: z.int(),
    risk: z.object({
      level: z.string(),
      productionCallers: z.int(),
      directCallers: z.int(),
      directories: z.array(z.object({ path: z.string(), count: z.int() })),
      directoryCount: z.int(),
      routes: z.int(),
      tests: z.int(),
      reach: z
        .object({ tests: z.int(), testsTotal: z.int(), routes: z.int(), routesTotal: z.int() })
        .describe("Tests and routes whose calls lead to the target, of all."),
      deepest: z.object({ depth: z.int(), path: z.array(z.string()) }),
    }),
    total: z.object({ targets: z.int(), up: z.int(), down: z.int(), tests: z.int(), routes: z.int() }),
    byDepth: z.array(z.object({ direction: z.string(), depth: z.int(), production: z.int(), test: z.int() })),
    routes: z.array(
      z.object({
        method: z.string(),
        path: z.string(),
        file: z.string(),
        line: z.int(),
        handler: z.string().optional(),
        depth: z.int(),
      }),
    ),
    tests: z.array(
      z.object({
        path: z.string(),
        line: z.int(),
        id: z.string().optional(),
        qualified: z.string(),
        depth: z.int(),
        via: z.string(),
      }),
    ),
    consumers: z
      .array(
        z.object({
          at: z.string().describe("path:line"),
          caller: z.string(),
          via: z.string().describe("call: an HTTP call reaching the route; caller: a function calling one."),
          test: z.boolean().optional(),
        }),
      )
      .optional()
      .describe("For a METHOD /path target: the client calls reaching the route and their callers."),
    entries: z.array(
      symbolRef.extend({
        direction: z.string(),
        depth: z.int(),
        site,
        resolution: z.string(),
        confidence: z.number(),
        pathConfidence: z.number(),
        test: z.string().optional(),
        inTest: z.boolean().optional(),
      }),
    ),
    testCode,
    page,
    completeness,
    notes: z.array(z.string()),
    crossRepoCallers: z
      .array(z.string())
      .optional()
      .describe("In a group: calls in the other repositories that reach the routes reached, repo:path:line."),
  }),
  async run(args, ctx) {
    const { options, notes, run } = listCall(ctx, args);
    const a = await run(() =>
      ctx.engine.impact(args.target, { ...options, ...(args.direction ? { direction: args.direction } : {}) }),
    );
    // In a group, the routes the change reaches lead on to their callers in the other repositories.
    const answer = { text: withNotes(a.text, notes), data: data(a, notes) };
    const cross = await crossRepoCallers(ctx, a.routes, answer);
    return {
      text: answer.text,
      data: { ...answer.data, ...(ctx.group ? { crossRepoCallers: cross.callers } : {}) },
      ...(cross.suffix ? { suffix: cross.suffix } : {}),
    };
  },
});
