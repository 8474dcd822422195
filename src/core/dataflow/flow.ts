/**
 * Data flow over one function's facts: the bindings that reach a use (in source order; a binding
 * inside a branch reaches past it along with the ones before it, a binding in the use's own block
 * or one around it hides the earlier ones), and which bindings carry user input, each with the
 * chain of steps that brought it there. Loops are read once, top to bottom: a value that reaches
 * an earlier line through a loop's back edge is not followed.
 */
import type { DefFact, ExprFacts, FunctionFacts } from "./facts.ts";

/** One step of a chain, cited `path:line`. */
export interface FlowStep {
  path: string;
  line: number;
  /** What happens there, in words with the code quoted. */
  what: string;
  /**
   * `input`: where user input enters; `unknown`: the chain cannot be followed past here; `assumed`: followed on an
   * assumption the text states.
   */
  kind: "input" | "param" | "assign" | "call" | "return" | "sink" | "unknown" | "assumed";
}

/** Why a binding carries user input: its step and the binding it came from. */
export interface Taint {
  step: FlowStep;
  from?: Taint;
}

/** How a call made in the function is resolved (the engine answers from the code graph). */
export type CallTarget =
  | { kind: "project"; qualified: string; path: string; line: number }
  | { kind: "external"; target: string }
  | { kind: "unresolved" };

/** The analysis of one function. */
export interface FunctionFlow {
  facts: FunctionFacts;
  /** Bindings in source order, parameters first. */
  defs: DefFact[];
  /** Taint of each binding (by index in `defs`), when it carries user input. */
  taint: (Taint | undefined)[];
  /**
   * Project calls (`line:callee`) whose return carries none of their arguments: a value read in one does not pass
   * through it.
   */
  opaque: ReadonlySet<string>;
}

/** Where a def sits in `defs`. */
const indexOf = (flow: FunctionFlow, def: DefFact) => flow.defs.indexOf(def);

/** The bindings of `name` that reach offset `pos` from inside `blocks`. */
export function reaching(flow: FunctionFlow, name: string, pos: number, blocks: readonly number[]): DefFact[] {
  const out: DefFact[] = [];
  for (let i = flow.defs.length - 1; i >= 0; i--) {
    const d = flow.defs[i]!;
    if (d.name !== name || d.pos > pos) continue;
    // A binding inside a block that does not hold the use counts only if the use sits in it (a loop variable).
    if (d.kind === "loop" && !isPrefix(d.blocks, blocks)) continue;
    out.push(d);
    // A plain binding on every path to the use hides the ones before it; a field write or `+=` adds to them.
    if (isPrefix(d.blocks, blocks) && d.kind !== "field" && d.kind !== "augment") break;
  }
  return out;
}

/** How a binding's step reads before its value: `x = `, `x.… = `, `x += `, `x iterates over `. */
function assignedAs(d: DefFact): string {
  if (d.kind === "field") return `${d.name}.… = `;
  if (d.kind === "loop") return `${d.name} iterates over `;
  if (d.kind === "augment") return `${d.name} += `;
  return `${d.name} = `;
}

function isPrefix(a: readonly number[], b: readonly number[]): boolean {
  return a.length <= b.length && a.every((x, i) => b[i] === x);
}

/**
 * Runs the function's flow. `inputs` says which parameters carry user input (a route handler's,
 * or the one a caller passed input to), with the words for why.
 */
export function analyse(
  facts: FunctionFacts,
  inputs: Map<string, FlowStep>,
  target: (line: number, callee: string) => CallTarget,
  opaque: ReadonlySet<string> = new Set(),
): FunctionFlow {
  const defs = [...facts.params, ...facts.defs];
  const flow: FunctionFlow = { facts, defs, taint: new Array(defs.length).fill(undefined), opaque };
  facts.params.forEach((p, i) => {
    const step = inputs.get(p.name);
    if (step) flow.taint[i] = { step };
  });
  for (let i = facts.params.length; i < defs.length; i++) {
    const d = defs[i]!;
    if (!d.value) continue;
    const t = exprTaint(flow, d.value, d.pos, d.blocks, d.line, target);
    if (t)
      flow.taint[i] = {
        step: {
          path: facts.path,
          line: d.line,
          what: `${assignedAs(d)}${d.value.text}${t.note}`,
          kind: t.note.includes("assumed") ? "assumed" : "assign",
        },
        ...(t.from ? { from: t.from } : {}),
      };
  }
  return flow;
}

/** The first taint an expression carries: a source in it, or a name whose reaching binding carries one. */
export function exprTaint(
  flow: FunctionFlow,
  e: ExprFacts,
  pos: number,
  blocks: readonly number[],
  line: number,
  target: (line: number, callee: string) => CallTarget,
): { from?: Taint; note: string } | undefined {
  if (e.sources.length > 0) {
    const via = e.sourceVia?.[0];
    return {
      from: { step: { path: flow.facts.path, line, what: `user input enters: ${e.sources[0]}`, kind: "input" } },
      note: via ? viaNote(via.via, target(via.viaLine, via.via)) : "",
    };
  }
  for (const use of e.uses) {
    if (use.via && flow.opaque.has(`${use.viaLine}:${use.via}`)) continue;
    for (const d of reaching(flow, use.name, pos, blocks)) {
      const t = flow.taint[indexOf(flow, d)];
      if (!t) continue;
      return { from: t, note: use.via ? viaNote(use.via, target(use.viaLine!, use.via)) : "" };
    }
  }
  return undefined;
}

/** The words for a value that passes through a call on its way (`int(x)`, `helper(x)`). */
export function viaNote(callee: string, t: CallTarget): string {
  if (t.kind === "project") return ` (through ${callee}, ${t.qualified} at ${t.path}:${t.line})`;
  if (t.kind === "external") return ` (through ${callee}, outside the project: assumed to pass its argument on)`;
  return ` (through ${callee}, a call the graph cannot resolve: assumed to pass its argument on)`;
}

/** A taint as steps, from where the input entered to the binding. */
export function chain(t: Taint | undefined): FlowStep[] {
  const out: FlowStep[] = [];
  for (let cur = t; cur; cur = cur.from) out.unshift(cur.step);
  return out;
}
