/**
 * The structural rules of `check`, each over the code graph: layer and forbidden imports, import
 * cycles, exported symbols nothing uses, calls into deprecated symbols, files over a size. Each
 * rule returns findings in the linters' shape (path, line, rule, message); none reads a file
 * except `deprecated`, which looks at the lines of `warn` calls for a DeprecationWarning.
 */
import type { CodeGraph } from "../graph/model.ts";
import type { CheckConfig, LayerRule } from "./config.ts";
import { globMatcher } from "./glob.ts";

/** The rules' ids, as findings and SARIF name them. */
export type CheckRuleId =
  | "layer"
  | "forbidden-import"
  | "import-cycle"
  | "no-callers"
  | "deprecated-call"
  | "file-size";

/** One finding. */
export interface CheckFinding {
  rule: CheckRuleId;
  path: string;
  line: number;
  message: string;
  /** Other files it names (the imported file, the cycle's members, the deprecated symbol's file). */
  related?: { path: string; line: number }[];
}

/** What the rules read besides the graph. */
export interface CheckIO {
  /** Size in bytes of each indexed file. */
  sizes: Map<string, number>;
  /** A file's text (for the lines of `warn` calls), undefined when unreadable. */
  readText(path: string): Promise<string | undefined>;
}

/** Every finding of the rules the config turns on, sorted by path, line and rule. */
export async function runRules(graph: CodeGraph, config: CheckConfig, given: CheckIO): Promise<CheckFinding[]> {
  const texts = new Map<string, Promise<string | undefined>>();
  // Each file is read once however many rules and symbols ask for it.
  const io: CheckIO = {
    sizes: given.sizes,
    readText: (path) => texts.get(path) ?? (texts.set(path, given.readText(path)), texts.get(path)!),
  };
  const out: CheckFinding[] = [];
  if (config.layers) out.push(...layerFindings(graph, config.layers));
  if (config.forbid) out.push(...forbidFindings(graph, config.forbid));
  if (config.cycles) out.push(...cycleFindings(graph, config.cycles.ignore));
  if (config.noCallers) out.push(...(await noCallerFindings(graph, config.noCallers.ignore, io)));
  if (config.deprecated) out.push(...(await deprecatedFindings(graph, config.deprecated.ignore, io)));
  if (config.fileSize) out.push(...fileSizeFindings(graph, config.fileSize, io.sizes));
  return out.sort((a, b) =>
    a.path < b.path
      ? -1
      : a.path > b.path
        ? 1
        : a.line - b.line || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : a.message < b.message ? -1 : 1),
  );
}

/** The layer of a file: the first layer with a matching glob, or undefined (a file in no layer is not checked). */
export function layerFinder(layers: readonly LayerRule[]): (path: string) => LayerRule | undefined {
  const tests = layers.map((l) => ({ layer: l, test: globMatcher(l.files) }));
  return (path) => tests.find((t) => t.test(path))?.layer;
}

/** Why an import from `from` into `to` breaks the layers (the finding's message), or undefined when it may. */
export function layerProblem(
  layerOf: (path: string) => LayerRule | undefined,
  from: string,
  to: string,
): string | undefined {
  const a = layerOf(from);
  const b = layerOf(to);
  if (!a?.mayImport || !b || a.mayImport.includes(b.name)) return undefined;
  return `${a.name} imports ${b.name} (${to}); ${a.name} may import ${a.mayImport.join(", ") || "nothing"}`;
}

/** Imports from a layer into one its `mayImport` does not list. */
function layerFindings(graph: CodeGraph, layers: readonly LayerRule[]): CheckFinding[] {
  const layerOf = layerFinder(layers);
  const out: CheckFinding[] = [];
  for (const e of graph.imports) {
    const message = layerProblem(layerOf, e.from, e.to);
    if (message) out.push({ rule: "layer", path: e.from, line: e.line, related: [{ path: e.to, line: 1 }], message });
  }
  return out;
}

function forbidFindings(graph: CodeGraph, rules: NonNullable<CheckConfig["forbid"]>): CheckFinding[] {
  const tests = rules.map((r) => ({ rule: r, from: globMatcher(r.from), to: globMatcher(r.to) }));
  const out: CheckFinding[] = [];
  for (const e of graph.imports) {
    const hit = tests.find((t) => t.from(e.from) && t.to(e.to));
    if (!hit) continue;
    out.push({
      rule: "forbidden-import",
      path: e.from,
      line: e.line,
      related: [{ path: e.to, line: 1 }],
      message:
        `imports ${e.to}` +
        (hit.rule.message
          ? `: ${hit.rule.message}`
          : ` (forbidden: ${hit.rule.from.join(", ")} → ${hit.rule.to.join(", ")})`),
    });
  }
  return out;
}

/**
 * One finding per strongly connected group of files (Tarjan), at the import that starts a shortest cycle through its
 * first file.
 */
function cycleFindings(graph: CodeGraph, ignore: readonly string[]): CheckFinding[] {
  const skip = globMatcher(ignore);
  const next = (f: string) => (graph.importsFrom.get(f) ?? []).filter((t) => t !== f && !skip(t));
  const files = [...graph.moduleSymbol.keys()].filter((f) => !skip(f)).sort();
  const out: CheckFinding[] = [];
  for (const group of stronglyConnected(files, next)) {
    if (group.length < 2) continue;
    const members = new Set(group);
    const start = [...group].sort()[0]!;
    const cycle = shortestCycle(start, (f) => next(f).filter((t) => members.has(t)));
    const line = graph.imports.find((e) => e.from === start && e.to === cycle[1])?.line ?? 1;
    const rest = group.length > cycle.length - 1 ? ` (${group.length} files import each other in all)` : "";
    out.push({
      rule: "import-cycle",
      path: start,
      line,
      related: cycle.slice(1, -1).map((p) => ({ path: p, line: 1 })),
      message: `import cycle: ${cycle.join(" → ")}${rest}`,
    });
  }
  return out;
}

/** Tarjan's strongly connected components, iterative (deep import chains must not overflow the stack). */
export function stronglyConnected(nodes: readonly string[], next: (n: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: { node: string; edges: string[]; i: number }[] = [];
    const visit = (n: string) => {
      index.set(n, counter);
      low.set(n, counter++);
      stack.push(n);
      onStack.add(n);
      work.push({ node: n, edges: next(n), i: 0 });
    };
    visit(root);
    while (work.length) {
      const top = work[work.length - 1]!;
      if (top.i < top.edges.length) {
        const t = top.edges[top.i++]!;
        if (!index.has(t)) visit(t);
        else if (onStack.has(t)) low.set(top.node, Math.min(low.get(top.node)!, index.get(t)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          group.push(n);
        } while (n !== top.node);
        groups.push(group);
      }
    }
  }
  return groups;
}

/** The shortest path from `start` back to itself (breadth first), as [start, …, start]. */
function shortestCycle(start: string, next: (n: string) => string[]): string[] {
  const from = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i]!;
    for (const t of next(n)) {
      if (t === start) {
        const back: string[] = [];
        for (let at = n; at !== start; at = from.get(at)!) back.push(at);
        return [start, ...back.reverse(), start];
      }
      if (t !== start && !from.has(t)) {
        from.set(t, n);
        queue.push(t);
      }
    }
  }
  return [start, start];
}

const CALLABLE = new Set(["function", "class", "interface", "type", "enum"]);

/**
 * Exported top-level definitions that no other code calls, names as a type, subclasses or imports
 * by name, and whose own file names nowhere outside their definition (a function passed as a
 * callback, a type in an annotation: references the call graph does not hold).
 */
async function noCallerFindings(graph: CodeGraph, ignore: readonly string[], io: CheckIO): Promise<CheckFinding[]> {
  const skip = globMatcher(ignore);
  const typed = new Set<number>();
  for (const [user, targets] of graph.typeUses) for (const t of targets) if (!within(graph, user, t)) typed.add(t);
  // Names imported by name from each file (a value passed on, a re-export, a type import).
  const importedNames = new Map<string, Set<string>>();
  for (const [file, record] of graph.records) {
    for (const imp of record.imports) {
      if (!imp.name) continue;
      for (const target of graph.importsFrom.get(file) ?? []) {
        let names = importedNames.get(target);
        if (!names) importedNames.set(target, (names = new Set()));
        names.add(imp.name);
      }
    }
  }
  const out: CheckFinding[] = [];
  for (const s of graph.symbols) {
    if (s.kind === "module" || !CALLABLE.has(s.kind) || skip(s.file)) continue;
    if (graph.symbols[s.parent]?.kind !== "module") continue;
    const def = graph.records.get(s.file)?.definitions[s.index];
    if (!def?.exported) continue;
    const callers = (graph.callsTo.get(s.id) ?? []).some((i) => !within(graph, graph.calls[i]!.caller, s.id));
    if (callers || typed.has(s.id) || graph.subclasses.get(s.id)?.length || importedNames.get(s.file)?.has(s.name))
      continue;
    if (await namedElsewhere(graph, s, io)) continue;
    out.push({
      rule: "no-callers",
      path: s.file,
      line: s.nameLine,
      message: `exported ${s.kind} ${s.qualified} has no callers and is imported by name nowhere`,
    });
  }
  return out;
}

/**
 * The symbol's name appears as a word in its file outside its own lines, or in a file that
 * imports its file (a destructured dynamic import, a namespace import's `ns.name`).
 */
async function namedElsewhere(
  graph: CodeGraph,
  s: { file: string; name: string; start: number; end: number },
  io: CheckIO,
): Promise<boolean> {
  const word = new RegExp(`(^|[^\\w$])${s.name.replace(/[$]/g, "\\$")}($|[^\\w$])`);
  const own = (await io.readText(s.file))?.split("\n") ?? [];
  if (own.some((line, i) => (i + 1 < s.start || i + 1 > s.end) && word.test(line))) return true;
  for (const importer of graph.importedBy.get(s.file) ?? []) {
    if (importer !== s.file && word.test((await io.readText(importer)) ?? "")) return true;
  }
  return false;
}

/** `inner` is `outer` or nested inside it. */
function within(graph: CodeGraph, inner: number, outer: number): boolean {
  for (let at = inner; at >= 0; at = graph.symbols[at]!.parent) if (at === outer) return true;
  return false;
}

const DEPRECATED_DECORATOR = /^@?(?:[\w$]+\.)*deprecated\b/i;
const DEPRECATED_DOC = /@deprecated\b|^\s*\.\. deprecated::/m;
/**
 * DeprecationWarning, PendingDeprecationWarning and projects' own (`RemovedInDjango40Warning`,
 * `FooDeprecationWarning`).
 */
const DEPRECATION_WARNING = /\b\w*(?:Deprecation\w*|Removed\w*)Warning\b/;

/** Why a symbol is deprecated, or undefined. */
async function deprecationOf(graph: CodeGraph, io: CheckIO): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const s of graph.symbols) {
    if (s.kind === "module") continue;
    const def = graph.records.get(s.file)?.definitions[s.index];
    if (def?.decorators?.some((d) => DEPRECATED_DECORATOR.test(d.trim()))) out.set(s.id, "decorated @deprecated");
    else if (def?.doc && DEPRECATED_DOC.test(def.doc)) out.set(s.id, "documented @deprecated");
  }
  // `warnings.warn(…, DeprecationWarning)` at the top of a definition's body deprecates it (and, in a
  // constructor, its class). One inside an `if` deprecates a way of calling it (an argument, a
  // setting), not the definition: on django those were 38 of 38 findings before this check.
  for (const [file, record] of graph.records) {
    const warns = record.calls.filter((c) => c.name === "warn" && c.caller >= 0);
    if (!warns.length) continue;
    const lines = (await io.readText(file))?.split("\n");
    if (!lines) continue;
    for (const c of warns) {
      const text = lines.slice(c.line - 1, Math.max(c.line, c.end ?? c.line + 5)).join("\n");
      if (!DEPRECATION_WARNING.test(text)) continue;
      const id = graph.moduleSymbol.get(file)! + 1 + c.caller;
      const s = graph.symbols[id];
      if (!s || out.has(id)) continue;
      const def = record.definitions[c.caller];
      const indent = (line: string | undefined) => /^\s*/.exec(line ?? "")![0].length;
      if (!def?.bodyStart || indent(lines[c.line - 1]) !== indent(lines[def.bodyStart - 1])) continue;
      out.set(id, `warns DeprecationWarning (${file}:${c.line})`);
      if (s.kind === "constructor" || s.name === "__init__")
        out.set(s.parent, `its constructor warns DeprecationWarning (${file}:${c.line})`);
    }
  }
  return out;
}

async function deprecatedFindings(graph: CodeGraph, ignore: readonly string[], io: CheckIO): Promise<CheckFinding[]> {
  const skip = globMatcher(ignore);
  const deprecated = await deprecationOf(graph, io);
  const out: CheckFinding[] = [];
  const seen = new Set<string>();
  for (const e of graph.calls) {
    const why = deprecated.get(e.callee);
    if (!why || skip(e.file) || e.resolution === "ambiguous" || e.resolution === "via-base") continue;
    // Calls from inside the deprecated code itself (or from other deprecated code) are its own business.
    if (insideAny(graph, e.caller, deprecated)) continue;
    const callee = graph.symbols[e.callee]!;
    const key = `${e.file}\0${e.line}\0${callee.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      rule: "deprecated-call",
      path: e.file,
      line: e.line,
      related: [{ path: callee.file, line: callee.nameLine }],
      message: `calls ${callee.qualified}, deprecated: ${why} (${callee.file}:${callee.nameLine})`,
    });
  }
  return out;
}

function fileSizeFindings(
  graph: CodeGraph,
  rule: NonNullable<CheckConfig["fileSize"]>,
  sizes: Map<string, number>,
): CheckFinding[] {
  const skip = globMatcher(rule.ignore);
  const out: CheckFinding[] = [];
  for (const [file, record] of graph.records) {
    if (skip(file)) continue;
    const bytes = sizes.get(file);
    if (rule.maxLines !== undefined && record.lines > rule.maxLines)
      out.push({
        rule: "file-size",
        path: file,
        line: 1,
        message: `${record.lines} lines, over the limit of ${rule.maxLines}`,
      });
    else if (rule.maxBytes !== undefined && bytes !== undefined && bytes > rule.maxBytes)
      out.push({
        rule: "file-size",
        path: file,
        line: 1,
        message: `${bytes} bytes, over the limit of ${rule.maxBytes}`,
      });
  }
  return out;
}

/** `id` or one of the definitions around it is in `set`. */
function insideAny(graph: CodeGraph, id: number, set: Map<number, unknown>): boolean {
  for (let at = id; at >= 0; at = graph.symbols[at]!.parent) if (set.has(at)) return true;
  return false;
}
