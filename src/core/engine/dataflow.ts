/**
 * The engine's side of data flow: find the function a target names (a symbol, or a route's
 * handler, inline ones included), read and parse its file (checked against the index), resolve
 * its calls from the code graph, and read a callee one level deep when input is passed to it.
 * Built on demand for the one function asked about; nothing is stored.
 */
import type { Node } from "web-tree-sitter";
import { EngineError } from "../../shared/errors.ts";
import { LANGUAGES, languageById } from "../../languages/index.ts";
import type { DataflowRules, HostEnvironment, LanguageSpec } from "../../languages/types.ts";
import { answerDataflow, type DataflowAnswer, type LoadedFunction } from "../dataflow/answer.ts";
import { functionFacts, type FunctionFacts } from "../dataflow/facts.ts";
import type { CallTarget, FlowStep } from "../dataflow/flow.ts";
import { findSymbol } from "../query/lookup.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import { createParserRuntime, type ParserRuntime } from "../parse/runtime.ts";
import { closestRoutes, ROUTE, routesNamed, severalRoutes } from "../query/route-calls.ts";
import type { Route } from "../query/routes.ts";
import { consistent } from "./consistent.ts";
import type { DataflowOptions, RunOptions } from "./api.ts";
import { graphOf, hostOf, routesOf } from "./graph-cache.ts";
import type { EngineState } from "./state.ts";

/** A language's data-flow rules with its hosts' sinks after its own (the runtimes' file and process calls). */
function withHostSinks(
  rules: DataflowRules | undefined,
  language: string | undefined,
  host: HostEnvironment | undefined,
): DataflowRules | undefined {
  const extra = language === undefined ? undefined : host?.sinks?.[language];
  return rules && extra?.length ? { ...rules, sinks: [...rules.sinks, ...extra] } : rules;
}

/** `Engine.dataflow`. */
export async function answerDataflowQuestion(
  s: EngineState,
  target: string,
  opts: DataflowOptions & RunOptions,
): Promise<DataflowAnswer> {
  if (opts.line !== undefined && (!Number.isInteger(opts.line) || opts.line < 1)) {
    throw new EngineError("invalid_argument", `line must be a whole number ≥ 1, got ${opts.line}.`, {
      hint: "Give the line of the function to ask about.",
      data: { start: opts.line, min: 1 },
    });
  }
  return consistent(s, opts, async (read) => {
    const { graph, snapshot } = await graphOf(s, opts);
    const inputs = read(snapshot);
    const runtime = await createParserRuntime(s.platform.wasm);
    const routes = routesOf(s, graph);
    const found = findFunction(graph, routes, target.trim());
    const spec = languageById(found.file.language);
    const host = hostOf(s);
    const rules = withHostSinks(spec?.dataflow, spec?.id, host);
    if (!spec || !rules) {
      throw new EngineError(
        "invalid_argument",
        `${found.label} is ${spec?.name ?? found.file.language}; data flow reads ${LANGUAGES.filter((l) => l.dataflow)
          .map((l) => l.name)
          .join(", ")}.`,
        { hint: "Ask about a function in one of those languages.", data: { reason: "unsupported_language", target } },
      );
    }
    const facts = await readFunction(
      runtime,
      spec,
      rules,
      found.file.path,
      await inputs.text(found.file.path),
      found.lines,
    );
    if (!facts) {
      throw new EngineError(
        "invalid_argument",
        `${found.label} (${found.file.path}:${found.lines.start}) is not a function data flow can read.`,
        {
          hint: "Ask about a function, a method or a route with a handler.",
          data: { reason: "not_a_function", target },
        },
      );
    }
    const resolver = callTargets(graph);
    const load = async (t: Extract<CallTarget, { kind: "project" }>): Promise<LoadedFunction | undefined> => {
      const sym = graph.byQualified.get(t.qualified);
      const node = sym === undefined ? undefined : graph.symbols[sym];
      const calleeSpec = node && languageById(node.language);
      const calleeRules = withHostSinks(calleeSpec?.dataflow, calleeSpec?.id, host);
      if (!node || !calleeSpec || !calleeRules) return undefined;
      const f = await readFunction(runtime, calleeSpec, calleeRules, node.file, await inputs.text(node.file), {
        start: node.start,
        name: node.nameLine,
      });
      return f ? { facts: f, target: resolver(node.file) } : undefined;
    };
    const route = found.route ?? routes.find((r) => found.symbol && r.handler === found.symbol.id);
    const inputParams = new Map<string, FlowStep>();
    if (route && rules.routeParameter) {
      for (const p of facts.params)
        if (rules.routeParameter(p.paramText ?? p.name))
          inputParams.set(p.name, {
            path: facts.path,
            line: p.line,
            what: `route parameter ${p.paramText} (the framework fills it from the request)`,
            kind: "input",
          });
    }
    const answer = await answerDataflow(
      {
        qualified: found.label,
        ...(route ? { route: `${route.method} ${route.path}` } : {}),
        facts,
        inputs: inputParams,
      },
      {
        ...(opts.variable !== undefined ? { variable: opts.variable } : {}),
        ...(opts.line !== undefined ? { line: opts.line } : {}),
      },
      { target: resolver(found.file.path), load },
    );
    inputs.check();
    return answer;
  });
}

interface Found {
  label: string;
  file: { path: string; language: string };
  lines: { start: number; name?: number; end?: number; inline?: boolean };
  symbol?: SymbolNode;
  route?: Route;
}

/**
 * The function a target names: `METHOD /path` (its handler, or the inline function registered there), else a symbol.
 */
function findFunction(graph: CodeGraph, routes: Route[], target: string): Found {
  const m = ROUTE.exec(target);
  if (m) {
    const hits = closestRoutes(routesNamed(routes, m[1]!, m[2]!, target), m[2]!).filter((r) => !r.test);
    const route = hits[0];
    if (!route || hits.length > 1) throw severalRoutes(target, hits);
    if (route.handler !== undefined) {
      const sym = graph.symbols[route.handler]!;
      return {
        label: sym.qualified,
        file: { path: sym.file, language: sym.language },
        lines: { start: sym.start, name: sym.nameLine },
        symbol: sym,
        route,
      };
    }
    const language = graph.records.get(route.file)?.language ?? "";
    return {
      label: `the handler of ${route.method} ${route.path}`,
      file: { path: route.file, language },
      lines: { start: route.span.start, end: route.span.end, inline: true },
      route,
    };
  }
  const sym = findSymbol(graph, target);
  return {
    label: sym.qualified,
    file: { path: sym.file, language: sym.language },
    lines: { start: sym.start, name: sym.nameLine },
    symbol: sym,
  };
}

/**
 * Parses `text` and reads the function at `lines`: the one starting there (or holding its name line), or for an inline
 * route the last function registered in that span.
 */
async function readFunction(
  runtime: ParserRuntime,
  spec: LanguageSpec,
  rules: DataflowRules,
  path: string,
  text: string,
  lines: Found["lines"],
): Promise<FunctionFacts | undefined> {
  const lang = await runtime.load(spec);
  runtime.parser.setLanguage(lang.language);
  const tree = runtime.parser.parse(spec.sourceForParse ? spec.sourceForParse(text) : text);
  if (!tree) return undefined;
  try {
    const fns: Node[] = [];
    const stack: Node[] = [tree.rootNode];
    while (stack.length) {
      const n = stack.pop()!;
      const row = n.startPosition.row + 1;
      if (row > (lines.end ?? lines.name ?? lines.start) || n.endPosition.row + 1 < lines.start) continue;
      if (rules.functions.includes(n.type)) fns.push(n);
      for (const c of n.namedChildren) if (c) stack.push(c);
    }
    const pick = lines.inline
      ? fns
          .filter(
            (f) =>
              f.startPosition.row + 1 >= lines.start &&
              f.endPosition.row + 1 <= lines.end! &&
              !fns.some(
                (g) =>
                  g.id !== f.id &&
                  g.startIndex <= f.startIndex &&
                  g.endIndex >= f.endIndex &&
                  g.startPosition.row + 1 >= lines.start,
              ),
          )
          .sort((a, b) => b.startIndex - a.startIndex)[0]
      : fns
          .filter(
            (f) => f.startPosition.row + 1 >= lines.start && f.startPosition.row + 1 <= (lines.name ?? lines.start),
          )
          .sort((a, b) => a.startIndex - b.startIndex)[0];
    return pick ? functionFacts(pick, rules, path) : undefined;
  } finally {
    tree.delete();
  }
}

/** How each call in a file resolves, from the graph's edges at its line, by the callee's last name. */
function callTargets(graph: CodeGraph): (path: string) => (line: number, callee: string) => CallTarget {
  return (path) => {
    const calls = graph.calls.filter((c) => c.file === path);
    const external = graph.external.filter((c) => c.file === path);
    return (line, callee) => {
      const name =
        callee
          .replace(/^new\s*/, "")
          .split(/[.?]+/)
          .pop() ?? callee;
      const edge =
        calls.find((c) => c.line === line && graph.symbols[c.callee]!.name === name) ??
        calls.find(
          (c) => c.line === line && c.via === "constructor" && graph.symbols[c.callee]!.qualified.endsWith(`.${name}`),
        );
      if (edge) {
        const sym = graph.symbols[edge.callee]!;
        return { kind: "project", qualified: sym.qualified, path: sym.file, line: sym.nameLine };
      }
      const ext = external.find((c) => c.line === line && (c.target === name || c.target.endsWith(`.${name}`)));
      return ext ? { kind: "external", target: ext.target } : { kind: "unresolved" };
    };
  };
}
