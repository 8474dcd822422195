/**
 * The string a name or expression holds, read through the graph's bindings: literals, f-strings
 * and template literals, concatenation, module constants (followed through imports), and class
 * attributes with a default, reached through a class, an instance (`settings = Settings()`) or a
 * module. Route prefixes are written this way (`prefix=settings.API_V1_STR`, `` `${API}/users` ``).
 * The language-specific part is only the literal syntax below, which is shared by the languages
 * whose bindings carry `literal` (the quote forms of Python, JavaScript and TypeScript).
 */
import type { BindingRecord } from "../extract/record.ts";
import { importTarget } from "./imports.ts";
import type { CodeGraph } from "./model.ts";
import { basesOf, lookupDefinition, resolveExpr } from "./resolve.ts";

const MAX_DEPTH = 8;
const NAME = /^[A-Za-z_$][\w$]*$/;
const CHAIN = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/**
 * Splits `text` on `separator` where it stands outside quotes and brackets (template holes are
 * brackets), each part trimmed: `a, f(b, c), "d,e"` on `,` is three parts.
 */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    else if (ch === separator && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/** The pieces of an interpolated string: text, and the expressions of its holes. */
function holes(body: string, open: string): ({ text: string } | { expr: string })[] | undefined {
  const out: ({ text: string } | { expr: string })[] = [];
  let i = 0;
  let text = "";
  while (i < body.length) {
    if (body.startsWith(open, i) && !(open === "{" && body[i + 1] === "{")) {
      const close = body.indexOf("}", i + open.length);
      if (close < 0) return undefined;
      if (text) out.push({ text });
      text = "";
      // A format spec or conversion (`{x!r}`, `{x:>4}`) is not a path piece: refuse it.
      const expr = body.slice(i + open.length, close).trim();
      if (/[!:]/.test(expr)) return undefined;
      out.push({ expr });
      i = close + 1;
    } else if (open === "{" && (body.startsWith("{{", i) || body.startsWith("}}", i))) {
      text += body[i];
      i += 2;
    } else {
      text += body[i];
      i++;
    }
  }
  if (text) out.push({ text });
  return out;
}

/**
 * What string `expr`, written in `file` at module level, evaluates to; undefined when any piece
 * is not a string the project spells out (an environment variable, a call, a parameter).
 */
export function stringValue(graph: CodeGraph, file: string, expr: string, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const e = expr.trim();
  if (!e) return undefined;
  const parts = splitTopLevel(e, "+");
  if (parts.length > 1) {
    const values = parts.map((p) => stringValue(graph, file, p, depth + 1));
    return values.every((v) => v !== undefined) ? values.join("") : undefined;
  }
  const lit = /^([rRbBuUfF]{0,2})("""|'''|"|'|`)([\s\S]*)\2$/.exec(e);
  if (lit) {
    const [, prefix, quote, body] = lit as unknown as [string, string, string, string];
    const interpolated = quote === "`" ? "${" : /f/i.test(prefix) ? "{" : undefined;
    if (!interpolated) return body;
    const pieces = holes(body, interpolated);
    if (!pieces) return undefined;
    let out = "";
    for (const p of pieces) {
      if ("text" in p) out += p.text;
      else {
        const v = stringValue(graph, file, p.expr, depth + 1);
        if (v === undefined) return undefined;
        out += v;
      }
    }
    return out;
  }
  // Adjacent literals (Python's implicit concatenation): "a" "b".
  const adjacent = e.match(/([rRbBuUfF]{0,2})("|')(?:\\.|(?!\2).)*\2/g);
  if (adjacent && adjacent.length > 1 && adjacent.join("").replace(/\s+/g, "") === e.replace(/\s+/g, "")) {
    const values = adjacent.map((p) => stringValue(graph, file, p, depth + 1));
    return values.every((v) => v !== undefined) ? values.join("") : undefined;
  }
  if (NAME.test(e)) return nameValue(graph, file, e, depth);
  if (CHAIN.test(e)) {
    const dot = e.lastIndexOf(".");
    const attr = e.slice(dot + 1);
    const st = graph.context.files.get(file);
    if (!st) return undefined;
    const head = e.slice(0, dot);
    const base = resolveExpr(graph.context, st, -1, head);
    if (base?.kind === "module") return nameValue(graph, base.file, attr, depth + 1);
    if (base?.kind === "instance" || base?.kind === "def") return classAttribute(graph, base.id, attr, depth + 1);
    // A module-level instance (`settings = Settings()`), here or imported from where it is made.
    const cls = NAME.test(head) ? instanceClass(graph, file, head, depth + 1) : undefined;
    if (cls !== undefined) return classAttribute(graph, cls, attr, depth + 1);
  }
  return undefined;
}

/** The class a module-level name is an instance of, when it is assigned a constructor call. */
function instanceClass(graph: CodeGraph, file: string, name: string, depth: number): number | undefined {
  const found = moduleBinding(graph, file, name, depth);
  if (found?.binding.value === undefined) return undefined;
  const id = lookupDefinition(graph.context, found.file, -1, found.binding.value);
  return id !== undefined && graph.symbols[id]!.kind === "class" ? id : undefined;
}

/** A module-level assignment of `name` in `file`, or in the module it imports `name` from. */
function moduleBinding(
  graph: CodeGraph,
  file: string,
  name: string,
  depth: number,
): { file: string; binding: BindingRecord } | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const own = graph.records
    .get(file)
    ?.bindings.filter((b) => b.scope < 0 && b.name === name && b.kind === "assign")
    .at(-1);
  if (own) return { file, binding: own };
  const target = importTarget(graph.context, file, name);
  return target && target.file !== file ? moduleBinding(graph, target.file, target.name ?? name, depth + 1) : undefined;
}

/** A module-level name's string in `file`, or the string of the name it imports. */
function nameValue(graph: CodeGraph, file: string, name: string, depth: number): string | undefined {
  const found = moduleBinding(graph, file, name, depth);
  return found?.binding.literal !== undefined
    ? stringValue(graph, found.file, found.binding.literal, depth + 1)
    : undefined;
}

/** A class attribute's default (`API_V1_STR: str = "/api/v1"`), looked up through the bases. */
function classAttribute(
  graph: CodeGraph,
  classId: number,
  attr: string,
  depth: number,
  seen = new Set<number>(),
): string | undefined {
  if (seen.has(classId) || depth > MAX_DEPTH) return undefined;
  seen.add(classId);
  const sym = graph.symbols[classId];
  const record = sym && graph.records.get(sym.file);
  const moduleId = sym && graph.moduleSymbol.get(sym.file);
  if (!sym || !record || moduleId === undefined) return undefined;
  const index = classId - moduleId - 1;
  const own = record.bindings
    .filter((b) => b.scope === index && b.name === attr && b.kind === "assign" && b.literal !== undefined)
    .at(-1);
  if (own) return stringValue(graph, sym.file, own.literal!, depth + 1);
  for (const base of basesOf(graph.context, classId)) {
    const v = classAttribute(graph, base.id, attr, depth + 1, seen);
    if (v !== undefined) return v;
  }
  return undefined;
}
