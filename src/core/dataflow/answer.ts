/**
 * The questions data flow answers about one function, as plain data with its text: does user
 * input reach a sink (SQL, a process, a file write, an HTML response), here or one call deep; and
 * where a variable's value comes from at a line and where it goes. Every step cites `path:line`;
 * a step the reader cannot follow (an unresolved call, a dynamic attribute, a call two levels
 * deep) is listed as unknown, never guessed past.
 */
import type { SinkKind } from "../../languages/types.ts";
import type { CallFact, DefFact, ExprFacts, FunctionFacts } from "./facts.ts";
import {
  analyse,
  chain,
  exprTaint,
  reaching,
  viaNote,
  type CallTarget,
  type FlowStep,
  type FunctionFlow,
  type Taint,
} from "./flow.ts";

/** A function the engine can read one call deep: its facts and how its own calls resolve. */
export interface LoadedFunction {
  facts: FunctionFacts;
  target: (line: number, callee: string) => CallTarget;
}

/** What an answer needs besides the function: how calls resolve, and the callee's facts one level deep. */
export interface DataflowIO {
  target: (line: number, callee: string) => CallTarget;
  load: (t: Extract<CallTarget, { kind: "project" }>) => Promise<LoadedFunction | undefined>;
}

/** One sink call and whether user input reaches it. */
export interface SinkReach {
  kind: SinkKind;
  call: string;
  path: string;
  line: number;
  reached: boolean;
  /** 0: in the function itself; 1: in a function it calls with the input. */
  depth: number;
  /** From where the input enters to the sink (empty when not reached). */
  steps: FlowStep[];
}

/** Unknown steps an answer lists at most (a long function can pass input to hundreds of unresolved calls). */
export const UNKNOWN_KEPT = 40;

/** The answer. */
export interface DataflowAnswer {
  function: { qualified: string; path: string; start: number; end: number; route?: string };
  question: "reach" | "variable" | "line";
  /** Where user input enters the function. */
  inputs: FlowStep[];
  sinks: SinkReach[];
  /** For a variable or a line: each chain that brings a value there, origin first. */
  origins?: FlowStep[][];
  /** For a variable: where its value goes after that line. */
  uses?: FlowStep[];
  /** Steps that could not be followed (the first UNKNOWN_KEPT). */
  unknown: FlowStep[];
  /** Unknown steps past UNKNOWN_KEPT, left out. */
  unknownMore?: number;
  text: string;
}

/** The function being asked about. */
export interface DataflowSubject {
  qualified: string;
  route?: string;
  facts: FunctionFacts;
  /** Parameters that carry user input (a route handler's), with why. */
  inputs: Map<string, FlowStep>;
}

/** Answers one question about `subject`. */
export async function answerDataflow(
  subject: DataflowSubject,
  question: { variable?: string; line?: number },
  io: DataflowIO,
): Promise<DataflowAnswer> {
  const flow = analyse(
    subject.route ? { ...subject.facts, handler: true } : subject.facts,
    subject.inputs,
    io.target,
    await opaqueCalls(subject.facts, io),
  );
  const unknown: FlowStep[] = [];
  const sinks = await sinkReach(flow, io, unknown);
  // A binding that carries input through getattr, a computed call or a spread: where it leads cannot be read.
  flow.defs.forEach((d, i) => {
    if (flow.taint[i] && d.value)
      for (const dyn of d.value.dynamic)
        unknown.push({ path: flow.facts.path, line: d.line, what: `dynamic: ${dyn} (not followed)`, kind: "unknown" });
  });
  const inputs = inputSteps(flow);
  const fn = {
    qualified: subject.qualified,
    path: subject.facts.path,
    start: subject.facts.start,
    end: subject.facts.end,
    ...(subject.route ? { route: subject.route } : {}),
  };
  // The same step is often found from two sinks' chains: each once, the first UNKNOWN_KEPT of them.
  const seen = new Set<string>();
  const distinct = unknown.filter(
    (u) => !seen.has(`${u.path}:${u.line}:${u.what}`) && seen.add(`${u.path}:${u.line}:${u.what}`) !== undefined,
  );
  const base = {
    function: fn,
    inputs,
    sinks,
    unknown: distinct.slice(0, UNKNOWN_KEPT),
    ...(distinct.length > UNKNOWN_KEPT ? { unknownMore: distinct.length - UNKNOWN_KEPT } : {}),
  };
  if (question.variable !== undefined) {
    const v = await variableFlow(flow, question.variable, question.line, io, unknown);
    const answer = { ...base, question: "variable" as const, origins: v.origins, uses: v.uses };
    return { ...answer, text: dataflowText(answer, question) };
  }
  if (question.line !== undefined) {
    const answer = {
      ...base,
      question: "line" as const,
      origins: lineOrigins(flow, question.line, io, unknown),
      sinks: sinks.filter((s) => s.depth > 0 || s.line === question.line),
    };
    return { ...answer, text: dataflowText(answer, question) };
  }
  const answer = { ...base, question: "reach" as const };
  return { ...answer, text: dataflowText(answer, question) };
}

/**
 * The project calls in a function (one level deep) whose return carries none of their
 * parameters: each callee read with every parameter marked, its returns checked. A value passed
 * to one does not come back through its result (`stamp = make_stamp(name)` returning a constant).
 */
async function opaqueCalls(facts: FunctionFacts, io: DataflowIO): Promise<Set<string>> {
  const out = new Set<string>();
  const seen = new Map<string, boolean>();
  for (const c of facts.calls) {
    const t = io.target(c.line, c.callee);
    if (t.kind !== "project") continue;
    const key = `${t.path}:${t.line}`;
    if (!seen.has(key)) {
      const callee = await io.load(t);
      if (!callee) seen.set(key, false);
      else {
        const marked = new Map(
          callee.facts.params.map((p): [string, FlowStep] => [
            p.name,
            { path: t.path, line: p.line, what: p.name, kind: "param" },
          ]),
        );
        const inner = analyse(callee.facts, marked, callee.target);
        seen.set(
          key,
          callee.facts.returns.length > 0 &&
            !callee.facts.returns.some((r) => exprTaint(inner, r.value, r.pos, r.blocks, r.line, callee.target)),
        );
      }
    }
    if (seen.get(key)) out.add(`${c.line}:${c.callee}`);
  }
  return out;
}

/** Where input enters: input parameters and source expressions, in line order. */
function inputSteps(flow: FunctionFlow): FlowStep[] {
  const out: FlowStep[] = [];
  const seen = new Set<string>();
  const add = (s: FlowStep) => {
    const key = `${s.line}:${s.what}`;
    if (!seen.has(key)) out.push(s), seen.add(key);
  };
  flow.taint.forEach((t) => {
    const first = chain(t)[0];
    if (first && (first.kind === "input" || first.kind === "param")) add(first);
  });
  for (const c of flow.facts.calls)
    for (const a of [...c.args, ...c.chained])
      for (const src of a.sources)
        add({ path: flow.facts.path, line: c.line, what: `user input enters: ${src}`, kind: "input" });
  for (const r of flow.facts.returns)
    for (const src of r.value.sources)
      add({ path: flow.facts.path, line: r.line, what: `user input enters: ${src}`, kind: "input" });
  return out.sort((a, b) => a.line - b.line);
}

/** The taint a call's arguments carry, with the argument it is in. */
function callTaint(
  flow: FunctionFlow,
  c: CallFact,
  io: DataflowIO,
): { taint: Taint; arg: number; keyword?: string; text: string } | undefined {
  const all: (ExprFacts & { keyword?: string })[] = [...c.args, ...c.chained];
  for (let i = 0; i < all.length; i++) {
    const t = exprTaint(flow, all[i]!, c.pos, c.blocks, c.line, io.target);
    if (!t) continue;
    const taint: Taint = t.from ?? { step: { path: flow.facts.path, line: c.line, what: all[i]!.text, kind: "input" } };
    return {
      taint,
      arg: i < c.args.length ? i : -1,
      ...(all[i]!.keyword !== undefined ? { keyword: all[i]!.keyword } : {}),
      text: all[i]!.text,
    };
  }
  return undefined;
}

const SINK_WORDS: Record<SinkKind, string> = {
  sql: "SQL call",
  exec: "process/eval call",
  file: "file write",
  html: "HTML response",
};

/** Each sink in the function, reached or not, and the sinks of the project functions it passes input to. */
async function sinkReach(flow: FunctionFlow, io: DataflowIO, unknown: FlowStep[], depth = 0): Promise<SinkReach[]> {
  const out: SinkReach[] = [];
  const path = flow.facts.path;
  for (const c of flow.facts.calls) {
    const hit = callTaint(flow, c, io);
    if (c.sink) {
      const steps = hit
        ? [
            ...chain(hit.taint),
            {
              path,
              line: c.line,
              what: `${SINK_WORDS[c.sink]}: ${c.callee}(…) gets ${hit.text}`,
              kind: "sink" as const,
            },
          ]
        : [];
      out.push({ kind: c.sink, call: c.callee, path, line: c.line, reached: hit !== undefined, depth, steps });
      continue;
    }
    if (!hit) continue;
    for (const a of [...c.args, ...c.chained])
      for (const d of a.dynamic)
        unknown.push({ path, line: c.line, what: `dynamic: ${d} (not followed)`, kind: "unknown" });
    const t = io.target(c.line, c.callee);
    if (t.kind === "unresolved") {
      // A result that is used is followed on (with the assumption said where it is); one that goes nowhere leaves only
      // the callee to tell.
      if (c.discarded)
        unknown.push({
          path,
          line: c.line,
          what: `${hit.text} is passed to ${c.callee}(…), a call the graph cannot resolve: not followed`,
          kind: "unknown",
        });
      continue;
    }
    if (t.kind !== "project") continue;
    if (depth > 0) {
      unknown.push({
        path,
        line: c.line,
        what:
          `${hit.text} is passed to ${c.callee}(…) (${t.qualified} at ${t.path}:${t.line}), two calls deep: ` +
          `not followed`,
        kind: "unknown",
      });
      continue;
    }
    const callee = await io.load(t);
    if (!callee) {
      if (c.discarded)
        unknown.push({
          path,
          line: c.line,
          what: `${hit.text} is passed to ${t.qualified}, which could not be read: not followed`,
          kind: "unknown",
        });
      continue;
    }
    const param = paramFor(callee.facts, c, hit);
    if (!param) {
      unknown.push({
        path,
        line: c.line,
        what:
          `${hit.text} is passed to ${t.qualified} (${t.path}:${t.line}) in a position no parameter names: ` +
          `not followed`,
        kind: "unknown",
      });
      continue;
    }
    const pass: FlowStep = {
      path,
      line: c.line,
      what: `${hit.text} is passed to ${c.callee}(…) as ${param.name} (${t.qualified}, ${t.path}:${param.line})`,
      kind: "call",
    };
    const inner = analyse(callee.facts, new Map([[param.name, pass]]), callee.target);
    const before = chain(hit.taint);
    for (const s of await sinkReach(inner, { ...io, target: callee.target }, unknown, depth + 1)) {
      if (s.reached) out.push({ ...s, steps: [...before, ...s.steps] });
    }
  }
  return out;
}

/**
 * The callee's parameter an argument binds: by keyword, else by position (after `self`/`cls` for a method called on an
 * object).
 */
function paramFor(facts: FunctionFacts, c: CallFact, hit: { arg: number; keyword?: string }): DefFact | undefined {
  if (hit.keyword) return facts.params.find((p) => p.name === hit.keyword);
  if (hit.arg < 0) return undefined;
  const params = facts.params.filter((p) => !/^\s*(\*|\.\.\.)/.test(p.paramText ?? ""));
  const shift = params[0] && /^(self|cls)$/.test(params[0].name) && c.callee.includes(".") ? 1 : 0;
  return params[hit.arg + shift];
}

/** Each chain that brings values to the names read on `line`. */
function lineOrigins(flow: FunctionFlow, line: number, io: DataflowIO, unknown: FlowStep[]): FlowStep[][] {
  const at = usesOnLine(flow, line);
  const out: FlowStep[][] = [];
  for (const { name, pos, blocks } of at)
    for (const d of reaching(flow, name, pos, blocks)) out.push(...originsOf(flow, d, io, unknown, new Set()));
  return dedupe(out);
}

/** Names read on a line, with where they are read. */
function usesOnLine(flow: FunctionFlow, line: number): { name: string; pos: number; blocks: number[] }[] {
  const out: { name: string; pos: number; blocks: number[] }[] = [];
  for (const c of flow.facts.calls)
    if (c.line === line)
      for (const a of [...c.args, ...c.chained])
        for (const u of a.uses) out.push({ name: u.name, pos: c.pos, blocks: c.blocks });
  for (const d of flow.defs)
    if (d.line === line && d.kind !== "param" && d.value)
      for (const u of d.value.uses) out.push({ name: u.name, pos: d.pos, blocks: d.blocks });
  for (const r of flow.facts.returns)
    if (r.line === line) for (const u of r.value.uses) out.push({ name: u.name, pos: r.pos, blocks: r.blocks });
  const seen = new Set<string>();
  return out.filter((u) => !seen.has(u.name) && seen.add(u.name) && flow.defs.some((d) => d.name === u.name));
}

/** Chains from the origins of a binding's value to the binding (depth-first, each binding once). */
function originsOf(
  flow: FunctionFlow,
  d: DefFact,
  io: DataflowIO,
  unknown: FlowStep[],
  seen: Set<DefFact>,
): FlowStep[][] {
  const path = flow.facts.path;
  if (seen.has(d)) return [];
  seen.add(d);
  const here = defStep(flow, d, io);
  if (d.kind === "param") return [[here]];
  const v = d.value;
  if (!v) return [[here]];
  const out: FlowStep[][] = [];
  for (const src of v.sources)
    out.push([{ path, line: d.line, what: `user input enters: ${src}`, kind: "input" }, here]);
  for (const dyn of v.dynamic)
    unknown.push({ path, line: d.line, what: `dynamic: ${dyn} (not followed)`, kind: "unknown" });
  const names = [...new Set(v.uses.map((u) => u.name))].filter((n) => n !== d.name || d.kind === "augment");
  for (const name of names) {
    const prev = reaching(flow, name, d.kind === "augment" || d.kind === "field" ? d.pos - 1 : d.pos, d.blocks).filter(
      (p) => p !== d,
    );
    for (const p of prev) for (const c of originsOf(flow, p, io, unknown, seen)) out.push([...c, here]);
  }
  // A value from a call with nothing local in it (`get_db()`): the call is its origin.
  if (out.length === 0) out.push([here]);
  return out;
}

/** A binding as a step, with where a call in its value leads. */
function defStep(flow: FunctionFlow, d: DefFact, io: DataflowIO): FlowStep {
  const path = flow.facts.path;
  if (d.kind === "param") {
    const t = flow.taint[flow.defs.indexOf(d)];
    if (t) return t.step;
    const from = flow.facts.handler ? "a dependency the framework fills, not request data" : "from the caller";
    return { path, line: d.line, what: `parameter ${d.paramText ?? d.name} (${from})`, kind: "param" };
  }
  const v = d.value!;
  const calls = [...new Set(v.uses.filter((u) => u.via).map((u) => `${u.via}@${u.viaLine}`))];
  const first = calls[0]?.split("@");
  const note = first ? viaNote(first[0]!, io.target(Number(first[1]), first[0]!)) : "";
  const unknownCall = first && io.target(Number(first[1]), first[0]!).kind === "unresolved";
  const lead =
    d.kind === "field"
      ? `${d.name}.… = `
      : d.kind === "loop"
        ? `${d.name} iterates over `
        : d.kind === "augment"
          ? `${d.name} += `
          : `${d.name} = `;
  return { path, line: d.line, what: `${lead}${v.text}${note}`, kind: unknownCall ? "unknown" : "assign" };
}

/** Where a variable's value comes from at a line (or from all its bindings) and where it goes. */
async function variableFlow(
  flow: FunctionFlow,
  name: string,
  line: number | undefined,
  io: DataflowIO,
  unknown: FlowStep[],
): Promise<{ origins: FlowStep[][]; uses: FlowStep[] }> {
  const defs = line === undefined ? flow.defs.filter((d) => d.name === name) : atLine(flow, name, line);
  const origins = dedupe(defs.flatMap((d) => originsOf(flow, d, io, unknown, new Set())));
  // Steps grouped by the line of the function they start at: a callee's steps follow the call that leads there.
  const groups: { line: number; steps: FlowStep[] }[] = [];
  const uses = { push: (...steps: FlowStep[]) => steps.length && groups.push({ line: steps[0]!.line, steps }) };
  const path = flow.facts.path;
  const fromDefs = (e: ExprFacts, pos: number, blocks: number[]) =>
    e.uses.some((u) => u.name === name && reaching(flow, name, pos, blocks).some((d) => defs.includes(d)));
  for (const d of flow.defs)
    if (d.value && d.kind !== "param" && fromDefs(d.value, d.pos, d.blocks) && d.name !== name)
      uses.push({ path, line: d.line, what: `flows into ${d.name} = ${d.value.text}`, kind: "assign" });
  for (const c of flow.facts.calls) {
    const i = c.args.findIndex((a) => fromDefs(a, c.pos, c.blocks));
    // A call chained on this one's result counts only for a sink (`db.query(User).filter(User.id == id)`).
    const chainedHit = i < 0 && c.sink !== undefined && c.chained.some((a) => fromDefs(a, c.pos, c.blocks));
    if (i < 0 && !chainedHit) continue;
    const step: FlowStep = {
      path,
      line: c.line,
      what:
        `${c.sink ? `${SINK_WORDS[c.sink]}: ` : ""}passed to ` +
        `${c.callee}(…)${i >= 0 ? ` as argument ${i + 1}` : " (in a call chained on it)"}`,
      kind: c.sink ? "sink" : "call",
    };
    uses.push(step, ...(c.sink || i < 0 ? [] : await oneDeep(flow, c, i, io, unknown)));
  }
  for (const r of flow.facts.returns)
    if (fromDefs(r.value, r.pos, r.blocks))
      uses.push({ path, line: r.line, what: `returned: ${r.value.text}`, kind: "return" });
  return { origins, uses: groups.sort((a, b) => a.line - b.line).flatMap((g) => g.steps) };
}

/** Where an argument goes inside the project function a call reaches: its sinks and returns. */
async function oneDeep(
  flow: FunctionFlow,
  c: CallFact,
  arg: number,
  io: DataflowIO,
  unknown: FlowStep[],
): Promise<FlowStep[]> {
  const t = io.target(c.line, c.callee);
  if (t.kind === "unresolved") {
    unknown.push({
      path: flow.facts.path,
      line: c.line,
      what: `${c.callee}(…) is a call the graph cannot resolve: where the value goes from there is not known`,
      kind: "unknown",
    });
    return [];
  }
  if (t.kind !== "project") return [];
  const callee = await io.load(t);
  const keyword = c.args[arg]!.keyword;
  const param = callee && paramFor(callee.facts, c, { arg, ...(keyword !== undefined ? { keyword } : {}) });
  if (!callee || !param) return [];
  const pass: FlowStep = {
    path: t.path,
    line: param.line,
    what: `in ${t.qualified} it is parameter ${param.name}`,
    kind: "param",
  };
  const inner = analyse(callee.facts, new Map([[param.name, pass]]), callee.target);
  const out: FlowStep[] = [pass];
  for (const s of await sinkReach(inner, { ...io, target: callee.target }, unknown, 1))
    if (s.reached) out.push(s.steps[s.steps.length - 1]!);
  for (const r of callee.facts.returns)
    if (exprTaint(inner, r.value, r.pos, r.blocks, r.line, callee.target))
      out.push({ path: t.path, line: r.line, what: `returned by ${t.qualified}: ${r.value.text}`, kind: "return" });
  return out;
}

/** The bindings of `name` that hold at `line`: one made on that line, else the ones reaching its first read there. */
function atLine(flow: FunctionFlow, name: string, line: number): DefFact[] {
  const made = flow.defs.filter((d) => d.name === name && d.line === line);
  if (made.length > 0) return made;
  const read = usesOnLine(flow, line).find((u) => u.name === name);
  if (read) return reaching(flow, name, read.pos, read.blocks);
  // Not read on that line: the bindings before it.
  const before = flow.defs.filter((d) => d.name === name && d.line <= line);
  return before.length > 0 ? [before[before.length - 1]!] : [];
}

function dedupe(chains: FlowStep[][]): FlowStep[][] {
  const seen = new Set<string>();
  return chains.filter((c) => {
    const key = c.map((s) => `${s.path}:${s.line}:${s.what}`).join("|");
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}

const at = (s: FlowStep) => `${s.path}:${s.line}`;

/** The answer as text: each step `path:line  what`. */
export function dataflowText(a: Omit<DataflowAnswer, "text">, question: { variable?: string; line?: number }): string {
  const fn = a.function;
  const lines = [
    `dataflow of ${fn.qualified} (${fn.path}:${fn.start}-${fn.end})${fn.route ? `, handler of ${fn.route}` : ""}`,
  ];
  lines.push(
    a.inputs.length
      ? "user input enters at:"
      : "no user input enters this function (no route parameter, no request data read).",
  );
  for (const s of a.inputs) lines.push(`  ${at(s)}  ${s.what}`);
  if (a.question === "variable" || a.question === "line") {
    const subject =
      a.question === "variable"
        ? `${question.variable}${question.line !== undefined ? ` at line ${question.line}` : ""}`
        : `the values read on line ${question.line}`;
    const verb = a.question === "variable" ? "comes" : "come";
    lines.push(
      a.origins!.length ? `where ${subject} ${verb} from:` : `no binding of ${subject} found in ${fn.qualified}.`,
    );
    a.origins!.forEach((c, i) => {
      lines.push(`  ${i + 1}.`);
      for (const s of c) lines.push(`    ${at(s)}  ${s.what}`);
    });
  }
  if (a.question === "variable") {
    lines.push(a.uses!.length ? `where ${question.variable} goes:` : `${question.variable} is not read after that.`);
    for (const s of a.uses!) lines.push(`  ${at(s)}  ${s.what}`);
  }
  if (a.question !== "variable") {
    const reached = a.sinks.filter((s) => s.reached);
    lines.push(
      a.sinks.length === 0
        ? "no SQL, process, file-write or HTML-response call here or one call deep."
        : `user input reaches ${reached.length} of ${a.sinks.length} sink call${a.sinks.length === 1 ? "" : "s"}:`,
    );
    for (const s of a.sinks) {
      lines.push(
        `  ${s.reached ? "REACHED" : "not reached"}  ${s.kind} ${s.call}(…) at ` +
          `${s.path}:${s.line}${s.depth ? " (one call deep)" : ""}`,
      );
      for (const step of s.steps) lines.push(`    ${at(step)}  ${step.what}`);
    }
  }
  if (a.unknown.length) {
    lines.push("not followed (unknown):");
    const seen = new Set<string>();
    for (const s of a.unknown)
      if (!seen.has(at(s) + s.what) && seen.add(at(s) + s.what)) lines.push(`  ${at(s)}  ${s.what}`);
    if (a.unknownMore) lines.push(`  … and ${a.unknownMore} more`);
  }
  lines.push("(read in source order: a value carried back by a loop is not followed)");
  return lines.join("\n");
}
