/**
 * Which call sites a signature change breaks. For each changed signature in a language that says
 * how it writes parameters (LanguageSpec.parameters), every call the graph links to the definition
 * is read from the file as written (its arguments: how many by position, which by name, any
 * spread) and bound to the old and to the new parameter list. A call that binds to the old list
 * and not to the new one breaks; one that binds to neither was already broken or was misread, and
 * is counted as not decided rather than reported.
 */
import type { CodeGraph } from "../graph/model.ts";
import { languageById } from "../../languages/index.ts";
import { bindError, callArguments, parametersOf } from "../../languages/arity.ts";

/** A call a signature change breaks. */
export interface BreakingCall {
  /** The changed definition, as the graph names it. */
  callee: string;
  /** The definition holding the call (or the module). */
  caller: string;
  callerId: number;
  path: string;
  line: number;
  /** The call as written, on one line and capped. */
  call: string;
  /** Why it no longer binds: `passes 2 positional arguments; it takes at most 1`. */
  reason: string;
  /** The call edge's confidence: a call resolved by name alone may be to another definition. */
  confidence: number;
}

/** The call sites of changed signatures, checked. */
export interface CallSiteCheck {
  /** Call sites read and bound. */
  checked: number;
  /** Of those, calls the change breaks, surest first. */
  breaking: BreakingCall[];
  /** Calls that could not be decided: the arguments could not be read, or bound to neither signature. */
  undecided: number;
}

/** One changed signature to check. */
export interface SignatureChange {
  id: number;
  qualified: string;
  old: string;
  new: string;
}

/** Kinds whose signature is a parameter list a call binds to. */
const CALLABLE_KINDS: ReadonlySet<string> = new Set(["function", "method", "constructor"]);

/** Longest call text shown. */
const MAX_CALL = 100;

/** Checks every call of each changed signature; `readLines` gives a file's lines (1-based index + 1). */
export async function checkCallSites(
  graph: CodeGraph,
  changes: readonly SignatureChange[],
  readLines: (path: string) => Promise<string[]>,
): Promise<CallSiteCheck> {
  const out: CallSiteCheck = { checked: 0, breaking: [], undecided: 0 };
  for (const change of changes) {
    const sym = graph.symbols[change.id]!;
    const syntax = languageById(sym.language)?.parameters;
    // Only what takes parameters: a class's header lists its bases, not what its calls pass (the
    // constructor's own signature change is checked as the constructor).
    if (!syntax || !CALLABLE_KINDS.has(sym.kind)) continue;
    // A constructor is called by its class's name.
    const parent = graph.symbols[sym.parent];
    const isConstructor =
      sym.kind === "constructor" || (sym.name === "__init__" && parent !== undefined && parent.kind === "class");
    const callName = isConstructor && parent ? parent.name : sym.name;
    for (const ei of graph.callsTo.get(change.id) ?? []) {
      const edge = graph.calls[ei]!;
      const lines = await readLines(edge.file);
      const site = readCall(lines, edge.line, callName);
      if (!site) {
        out.undecided++;
        continue;
      }
      out.checked++;
      const throughObject = isConstructor || site.throughObject;
      const defName = sym.name;
      const before = parametersOf(change.old, defName, syntax, throughObject);
      const after = parametersOf(change.new, defName, syntax, throughObject);
      if (!before || !after) {
        out.undecided++;
        continue;
      }
      const args = callArguments(site.args, syntax);
      const now = bindError(after, args);
      if (now === undefined) continue;
      if (bindError(before, args) !== undefined) {
        out.undecided++;
        continue;
      }
      const caller = graph.symbols[edge.caller]!;
      out.breaking.push({
        callee: change.qualified,
        caller: caller.kind === "module" ? caller.file : caller.qualified,
        callerId: edge.caller,
        path: edge.file,
        line: edge.line,
        call: site.text.length > MAX_CALL ? `${site.text.slice(0, MAX_CALL - 1)}…` : site.text,
        reason: now,
        confidence: edge.confidence,
      });
    }
  }
  out.breaking.sort((a, b) => b.confidence - a.confidence || a.path.localeCompare(b.path) || a.line - b.line);
  return out;
}

/** Lines a call's argument list may span. */
const MAX_CALL_LINES = 40;

/**
 * The call of `name` that starts on `line`: its arguments' texts, whether it goes through an object
 * (`x.name(…)`), and its text; undefined when the line holds no such call, or several (which one
 * the edge means is not known), or the list does not close within MAX_CALL_LINES.
 */
export function readCall(
  lines: readonly string[],
  line: number,
  name: string,
): { args: string[]; throughObject: boolean; text: string } | undefined {
  const first = lines[line - 1];
  if (first === undefined) return undefined;
  const pattern = new RegExp(`(^|[^\\w$])${name.replace(/[$]/g, "\\$")}\\s*(?:<[^()]*>)?\\s*\\(`, "g");
  const starts = [...first.matchAll(pattern)];
  if (starts.length !== 1) return undefined;
  const m = starts[0]!;
  const nameAt = m.index! + m[1]!.length;
  const throughObject = /\.\s*$/.test(first.slice(0, nameAt)) || /\?\.\s*$/.test(first.slice(0, nameAt));
  const text = lines.slice(line - 1, line - 1 + MAX_CALL_LINES).join("\n");
  const open = m.index! + m[0].length - 1;
  const args = splitArguments(text, open);
  if (!args) return undefined;
  return { args: args.list, throughObject, text: args.text.slice(nameAt, args.end + 1).replace(/\s+/g, " ") };
}

/** The top-level arguments of the list opening at `open` (a `(`), and where it closes. */
function splitArguments(text: string, open: number): { list: string[]; end: number; text: string } | undefined {
  const list: string[] = [];
  // The text with comments blanked, for the arguments' texts.
  const clean = text.split("");
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'" || ch === "`") {
      const triple = text.startsWith(ch.repeat(3), i);
      const quote = triple ? ch.repeat(3) : ch;
      let j = i + quote.length;
      for (; j < text.length; j++) {
        if (text[j] === "\\") j++;
        else if (text.startsWith(quote, j)) break;
      }
      if (j >= text.length) return undefined;
      i = j + quote.length - 1;
    } else if (ch === "#" && depth >= 0 && /(^|\s)$/.test(text.slice(Math.max(0, i - 1), i))) {
      // A comment to the end of the line (Python): its text is not an argument.
      const nl = text.indexOf("\n", i);
      if (nl < 0) return undefined;
      clean.fill(" ", i, nl);
      i = nl;
    } else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === "]" || ch === "}") depth--;
    else if (ch === ")") {
      if (depth === 0) {
        list.push(clean.slice(start, i).join(""));
        return { list: list.length === 1 && list[0]!.trim() === "" ? [] : list, end: i, text: clean.join("") };
      }
      depth--;
    } else if (ch === "," && depth === 0) {
      list.push(clean.slice(start, i).join(""));
      start = i + 1;
    }
  }
  return undefined;
}
