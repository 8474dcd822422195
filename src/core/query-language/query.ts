/**
 * `query`: one graph query, parsed, evaluated within its bounds and rendered within a token budget.
 * Read-only and bounded three ways: time (`timeMs`), intermediate rows (`LIMITS`), and the answer's
 * size (LIMIT rows at most, default 50, and the token budget). A result that does not fit is refused
 * with the number of rows that would, never cut silently.
 */
import { EngineError } from "../../shared/errors.ts";
import { cite } from "../../shared/paths.ts";
import { fitPrefix } from "../budget/fit.ts";
import type { Encoding } from "../budget/tokenizer.ts";
import type { CodeGraph } from "../graph/model.ts";
import { BUDGET_DIGITS_MARGIN, listArgs, withUsage, type Usage } from "../query/pages.ts";
import { LIMITS } from "../limits.ts";
import type { Route } from "../query/routes.ts";
import { evaluate, type Value } from "./evaluate.ts";
import { parseQuery } from "./parse.ts";
import { queryGraph, type QueryGraph } from "./view.ts";
import { defined } from "../../shared/defined.ts";

/** Bounds of a query. */
export const QUERY_LIMITS = {
  /** Milliseconds of evaluation. */
  timeMs: { min: 10, max: 60_000, default: 5_000 },
  /** Intermediate rows (pattern bindings) before RETURN. */
  maxBindings: 500_000,
  /** Rows an answer returns: LIMIT's default and its most. */
  rows: { default: LIMITS.page.default, max: LIMITS.page.max },
} as const;

/** Options of a query. */
export interface QueryOptions {
  /** Tokens for the whole answer (default LIMITS.budget.list). */
  budget?: number;
  encoding?: Encoding;
  /** Evaluation time limit in ms (default 5,000). */
  timeMs?: number;
  /** The front end sends the rows as JSON beside the text: the budget covers both. */
  json?: boolean;
}

/** A value in an answer: literals, lists, and nodes and edges as plain objects. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The answer to a query. */
export interface QueryAnswer {
  query: string;
  columns: string[];
  /** This answer's rows (after SKIP and LIMIT). */
  rows: JsonValue[][];
  /** Rows the query matched before SKIP and LIMIT. */
  total: number;
  skip: number;
  limit: number;
  /** True when LIMIT was not written and the default cut rows. */
  truncated: boolean;
  notes: string[];
  usage: Usage;
  text: string;
}

/** Runs `text` over the graph (and its routes). */
export async function runQuery(
  graph: CodeGraph,
  routes: Route[],
  text: string,
  opts: QueryOptions = {},
  now?: () => number,
): Promise<QueryAnswer> {
  const a = await listArgs({
    ...defined({ budget: opts.budget }),
    ...(opts.encoding ? { encoding: opts.encoding } : {}),
    json: opts.json === true,
  });
  const timeMs = opts.timeMs ?? QUERY_LIMITS.timeMs.default;
  if (!Number.isInteger(timeMs) || timeMs < QUERY_LIMITS.timeMs.min || timeMs > QUERY_LIMITS.timeMs.max) {
    throw new EngineError(
      "invalid_argument",
      `timeMs must be a whole number from ${QUERY_LIMITS.timeMs.min} to ${QUERY_LIMITS.timeMs.max}, got ` +
        `${String(opts.timeMs)}.`,
      { data: { key: "timeMs", timeMs: opts.timeMs, min: QUERY_LIMITS.timeMs.min, max: QUERY_LIMITS.timeMs.max } },
    );
  }
  if (text.trim() === "")
    throw new EngineError("invalid_argument", "The query is empty.", {
      hint: "Write MATCH (a)-[:CALLS]->(b) RETURN a, b LIMIT 10.",
      data: { key: "query" },
    });
  const ast = parseQuery(text);
  if (ast.limit !== undefined && ast.limit > QUERY_LIMITS.rows.max) {
    throw new EngineError(
      "query_over_budget",
      `LIMIT ${ast.limit} is over the ${QUERY_LIMITS.rows.max} rows an answer returns.`,
      {
        hint: `Ask for ${QUERY_LIMITS.rows.max} rows at most, and page with SKIP; or count them with count(*).`,
        data: { limit: "rows", maxRows: QUERY_LIMITS.rows.max, rows: ast.limit },
      },
    );
  }
  const view = queryGraph(graph, routes);
  const result = evaluate(view, ast, text, { timeMs, maxBindings: QUERY_LIMITS.maxBindings, ...(now ? { now } : {}) });
  const skip = ast.skip ?? 0;
  const limit = ast.limit ?? QUERY_LIMITS.rows.default;
  const page = result.rows.slice(skip, skip + limit).map((r) => r.map((v) => jsonValue(view, v)));
  const truncated = ast.limit === undefined && result.total - skip > limit;
  const notes: string[] = [];
  if (truncated)
    notes.push(
      `${limit} of ${result.total - skip} rows shown (the default LIMIT); add LIMIT n (at most ` +
        `${QUERY_LIMITS.rows.max}) or SKIP n for more`,
    );
  const cells = page.map((r) => r.map((v) => cell(v)));
  const make = (k: number): QueryAnswer => {
    const { text: body, tokens } = withUsage((usage) => {
      const lines = [
        "# Query: " +
          (k === result.total
            ? `${k} row${k === 1 ? "" : "s"}`
            : `rows ${Math.min(skip + 1, skip + k)}-${skip + k} of ${result.total}`),
      ];
      for (const n of notes) lines.push(`Note: ${n}`);
      lines.push(result.columns.join(" | "));
      for (const row of cells.slice(0, k)) lines.push(`- ${row.join(" | ")}`);
      if (result.total === 0) lines.push("(no rows)");
      lines.push(usage);
      return lines.join("\n");
    }, a);
    return {
      query: text,
      columns: result.columns,
      rows: page.slice(0, k),
      total: result.total,
      skip,
      limit,
      truncated,
      notes,
      usage: { tokens, budget: a.budget, encoding: a.encoding },
      text: body,
    };
  };
  const cost = (answer: QueryAnswer) =>
    answer.usage.tokens + (a.json ? a.count(JSON.stringify({ ...answer, text: undefined })) : 0);
  const { k, answer, fits } = fitPrefix(page.length, make, cost, a.budget);
  if (!fits || k < page.length) {
    const needed = cost(make(page.length)) + BUDGET_DIGITS_MARGIN;
    throw new EngineError(
      "query_over_budget",
      `The ${page.length} rows asked for need ${needed} tokens; the budget is ` +
        `${a.budget}${fits ? `, which holds ${k}` : ""}.`,
      {
        hint: fits
          ? `Add LIMIT ${k} (and SKIP to page), return fewer columns, or raise the budget to ${needed}.`
          : `Raise the budget to ${needed}.`,
        data: { limit: "tokens", rows: page.length, fits: fits ? k : 0, budget: a.budget, needed },
      },
    );
  }
  return answer;
}

/**
 * A node as the text shows it: a symbol by name and place, a file by path, a route by method and path, a test by id.
 */
function handle(view: QueryGraph, id: number): string {
  const n = view.nodes[id]!;
  const p = n.props;
  switch (n.label) {
    case "Symbol":
      return p.kind === "module"
        ? `module ${p.path}`
        : `${p.qualified} (${p.kind}, ${cite(p.path as string, p.line as number)})`;
    case "File":
      return String(p.path);
    case "Route":
      return `${p.method} ${p.path} (${cite(p.file as string, p.line as number)})`;
    case "Test":
      return `${p.id}`;
  }
}

function jsonValue(view: QueryGraph, v: Value): JsonValue {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map((x) => jsonValue(view, x));
  if ("node" in v) {
    const n = view.nodes[v.node]!;
    return { label: n.label, ...n.props } as JsonValue;
  }
  if ("edge" in v) {
    const e = view.edges[v.edge]!;
    return { type: e.type, from: handle(view, e.from), to: handle(view, e.to), ...e.props } as JsonValue;
  }
  return { hops: v.hops, through: v.edges.slice(0, -1).map((ei) => handle(view, view.edges[ei]!.to)) };
}

/** A value in one cell of the text. */
function cell(v: JsonValue): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return `[${v.map(cell).join(", ")}]`;
  if (typeof v === "object") {
    if ("label" in v) {
      const p = v as Record<string, JsonValue>;
      switch (p.label) {
        case "Symbol":
          return p.kind === "module"
            ? `module ${p.path}`
            : `${p.qualified} (${p.kind}, ${cite(p.path as string, p.line as number)})`;
        case "File":
          return String(p.path);
        case "Route":
          return `${p.method} ${p.path} (${cite(p.file as string, p.line as number)})`;
        default:
          return String(p.id);
      }
    }
    if ("type" in v)
      return (
        `${v.type} ${v.from} → ${v.to}${v.line !== undefined ? ` at line ${v.line}` : ""} ` +
        `[${v.resolution ? `${v.resolution}, ` : ""}${v.confidence}]`
      );
    return `${v.hops} hop${v.hops === 1 ? "" : "s"}`;
  }
  return typeof v === "string" ? v : String(v);
}
