/**
 * One function's statements as plain data for data flow: its parameters, every binding (what
 * name, at which line, from which names and sources), every call (callee, arguments, the sink
 * kind its callee matches) and every return. Read from the syntax tree with a language's
 * DataflowRules; the tree never leaves this module (STYLE habit 6).
 */
import type { Node } from "web-tree-sitter";
import type { DataflowRules, SinkKind } from "../../languages/types.ts";

/** What an expression reads: names (with the call they sit in), user-input sources, dynamic parts. */
export interface ExprFacts {
  /** The expression's text, one line, cut to 100 characters. */
  text: string;
  /** Each variable read, with the callee of the innermost call whose argument holds it (when one does). */
  uses: { name: string; via?: string; viaLine?: number }[];
  /** User-input sources in it (`request.form`), as written. */
  sources: string[];
  /** For each source, the callee of the innermost call whose argument holds it (`String` in `String(req.query.x)`). */
  sourceVia?: ({ via: string; viaLine: number } | undefined)[];
  /** Dynamic parts no reader can follow: `getattr(o, name)`, `o[key](…)`, spreads. */
  dynamic: string[];
}

/** A binding of a name: a parameter, an assignment, a loop variable, a `with … as`. */
export interface DefFact {
  name: string;
  line: number;
  /** Offset after which the binding holds (uses inside its own value read the earlier binding). */
  pos: number;
  kind: "param" | "assign" | "augment" | "loop" | "field";
  /** The enclosing blocks, outermost first (node ids): a binding reaches past its own block only by its branches. */
  blocks: number[];
  value?: ExprFacts;
  /** For a parameter: its position and whole text (annotation and default included). */
  index?: number;
  paramText?: string;
}

/** A call. */
export interface CallFact {
  callee: string;
  /** The callee's last name (`execute` in `cur.execute`). */
  name: string;
  line: number;
  pos: number;
  blocks: number[];
  args: (ExprFacts & { keyword?: string })[];
  /** Arguments of calls chained on this one's result (`db.query(User).filter(User.id == id)`). */
  chained: ExprFacts[];
  sink?: SinkKind;
  /**
   * The call is a statement of its own: its result goes nowhere (`obj.save(x)`), so only the callee can tell where `x`
   * goes.
   */
  discarded?: boolean;
}

/** A return statement. */
export interface ReturnFact {
  line: number;
  pos: number;
  blocks: number[];
  value: ExprFacts;
}

/** A function's facts. */
export interface FunctionFacts {
  path: string;
  /** Lines of the function node, 1-based. */
  start: number;
  end: number;
  params: DefFact[];
  defs: DefFact[];
  calls: CallFact[];
  returns: ReturnFact[];
  /** Set when the function is a route's handler: its parameters are filled by the framework. */
  handler?: boolean;
}

const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 100 ? `${flat.slice(0, 97)}…` : flat;
};
const compact = (text: string) => text.replace(/\s+/g, "");

/** The facts of the function node `fn` (a node of one of `rules.functions`). */
export function functionFacts(fn: Node, rules: DataflowRules, path: string): FunctionFacts {
  const out: FunctionFacts = {
    path,
    start: fn.startPosition.row + 1,
    end: fn.endPosition.row + 1,
    params: [],
    defs: [],
    calls: [],
    returns: [],
  };
  const params = fn.childForFieldName("parameters") ?? fn.childForFieldName("parameter");
  if (params) readParams(params, rules, out);
  const body = fn.childForFieldName("body");
  if (body) walk(body, rules, out);
  return out;
}

function readParams(params: Node, rules: DataflowRules, out: FunctionFacts): void {
  // An arrow function's single bare parameter is the node itself.
  const list = rules.identifiers.includes(params.type)
    ? [params]
    : params.namedChildren.filter((n): n is Node => n !== null && n.type !== "comment");
  list.forEach((p, index) => {
    const field = rules.parameterFields[p.type];
    const pattern = field ? p.childForFieldName(field) : p;
    for (const name of boundNames(pattern ?? p, rules, true)) {
      out.params.push({
        name,
        line: p.startPosition.row + 1,
        pos: params.endIndex,
        kind: "param",
        blocks: [],
        index,
        paramText: oneLine(p.text),
      });
    }
  });
}

/**
 * Names a target binds: `a`, `a, b`, `{ a, b: c }`, `[a, ...b]`; `first` takes only a parameter's own name, not its
 * annotation or default.
 */
function boundNames(target: Node, rules: DataflowRules, first = false): string[] {
  if (rules.identifiers.includes(target.type) || target.type === "shorthand_property_identifier_pattern")
    return [target.text];
  if (target.type === "pair_pattern") {
    const v = target.childForFieldName("value");
    return v ? boundNames(v, rules) : [];
  }
  if (target.type === rules.member.type || target.type === "subscript" || target.type === "subscript_expression")
    return [];
  const out: string[] = [];
  for (const child of target.namedChildren) {
    if (!child || child.type === "comment") continue;
    if (first && (child.type === "type" || child.type === "type_annotation")) continue;
    out.push(...boundNames(child, rules));
    if (first && out.length > 0) break;
  }
  return out;
}

/** The object a field assignment writes into: `user` in `user.name = x` or `user["name"] = x`. */
function fieldBase(target: Node, rules: DataflowRules): string | undefined {
  let node: Node | null = target;
  while (
    node &&
    (node.type === rules.member.type || node.type === "subscript" || node.type === "subscript_expression")
  ) {
    node = node.childForFieldName(
      node.type === rules.member.type ? rules.member.object : node.type === "subscript" ? "value" : "object",
    );
  }
  return node && rules.identifiers.includes(node.type) ? node.text : undefined;
}

function blocksOf(node: Node, rules: DataflowRules, stopAt: number): number[] {
  const ids: number[] = [];
  for (let p = node.parent; p && p.id !== stopAt; p = p.parent) if (rules.blocks.includes(p.type)) ids.unshift(p.id);
  return ids;
}

function walk(body: Node, rules: DataflowRules, out: FunctionFacts): void {
  const root = body.parent?.id ?? -1;
  const stack: Node[] = [body];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const assign = rules.assignments.find((a) => a.type === node.type);
    if (assign) recordAssignment(node, assign, rules, out, root);
    else if (node.type === rules.call.type) recordCall(node, rules, out, root);
    else if (rules.returns.includes(node.type)) {
      const v = node.namedChildren.find((c) => c && c.type !== "comment");
      if (v)
        out.returns.push({
          line: node.startPosition.row + 1,
          pos: node.startIndex,
          blocks: blocksOf(node, rules, root),
          value: exprFacts(v, rules),
        });
    } else if (rules.functions.includes(node.type)) {
      // A nested function's parameters are bindings of their own, with no known origin (a callback's).
      const inner = node.childForFieldName("parameters") ?? node.childForFieldName("parameter");
      if (inner) {
        const facts: FunctionFacts = { ...out, params: [] };
        readParams(inner, rules, facts);
        for (const p of facts.params)
          out.defs.push({
            ...p,
            kind: "assign",
            index: undefined as never,
            blocks: blocksOf(inner, rules, root),
            value: {
              text: `parameter of the function at line ${p.line}`,
              uses: [],
              sources: [],
              dynamic: [`callback parameter ${p.name}`],
            },
          });
      }
    }
    for (let i = node.namedChildCount - 1; i >= 0; i--) {
      const child = node.namedChild(i);
      if (child) stack.push(child);
    }
  }
  for (const list of [out.defs, out.calls, out.returns] as { pos: number }[][]) list.sort((a, b) => a.pos - b.pos);
}

function recordAssignment(
  node: Node,
  a: DataflowRules["assignments"][number],
  rules: DataflowRules,
  out: FunctionFacts,
  root: number,
): void {
  const target = node.childForFieldName(a.target);
  const valueNode = a.value
    ? node.childForFieldName(a.value)
    : (node.namedChildren.find((c) => c !== null && c.id !== target?.id) ?? null);
  if (!target) return;
  const value = valueNode ? exprFacts(valueNode, rules) : undefined;
  const line = node.startPosition.row + 1;
  // A loop variable holds inside the loop's body; any other binding from the end of its statement.
  const loopBody = a.loop ? node.childForFieldName("body") : null;
  const blocks = loopBody ? [...blocksOf(node, rules, root), loopBody.id] : blocksOf(node, rules, root);
  const pos = a.loop ? (valueNode?.endIndex ?? node.startIndex) : node.endIndex;
  const base = fieldBase(target, rules);
  if (base && base !== target.text) {
    out.defs.push({ name: base, line, pos, kind: "field", blocks, ...(value ? { value } : {}) });
    return;
  }
  const kind = a.loop ? "loop" : a.augmented ? "augment" : "assign";
  // `x += y` keeps what x held: its value reads x too.
  for (const name of boundNames(target, rules)) {
    const v = value && a.augmented ? { ...value, uses: [...value.uses, { name }] } : value;
    out.defs.push({ name, line, pos, kind, blocks, ...(v ? { value: v } : {}) });
  }
}

function recordCall(node: Node, rules: DataflowRules, out: FunctionFacts, root: number): void {
  const fn = node.childForFieldName(rules.call.function);
  const argsNode = node.childForFieldName(rules.call.arguments);
  if (!fn) return;
  const callee = compact(fn.text);
  const name =
    fn.type === rules.member.type ? compact(fn.childForFieldName(rules.member.property)?.text ?? callee) : callee;
  const args: CallFact["args"] = [];
  for (const arg of argsNode?.namedChildren ?? []) {
    if (!arg || arg.type === "comment") continue;
    if (arg.type === "keyword_argument") {
      const v = arg.childForFieldName("value");
      if (v) args.push({ ...exprFacts(v, rules), keyword: arg.childForFieldName("name")?.text ?? "" });
    } else args.push(exprFacts(arg, rules));
  }
  if (argsNode && argsNode.type !== "argument_list" && argsNode.type !== "arguments")
    args.push(exprFacts(argsNode, rules));
  const chained: ExprFacts[] = [];
  for (let cur: Node = node; ; ) {
    const member = cur.parent;
    const call = member?.parent;
    if (!member || member.type !== rules.member.type || !call || call.type !== rules.call.type) break;
    const a = call.childForFieldName(rules.call.arguments);
    if (a) chained.push(exprFacts(a, rules));
    cur = call;
  }
  const sink = rules.sinks.find((s) => s.pattern.test(callee))?.kind;
  const up = node.parent?.type === "await_expression" ? node.parent.parent : node.parent;
  const discarded = up?.type === "expression_statement";
  out.calls.push({
    callee,
    name,
    line: node.startPosition.row + 1,
    pos: node.startIndex,
    blocks: blocksOf(node, rules, root),
    args,
    chained,
    ...(sink ? { sink } : {}),
    ...(discarded ? { discarded } : {}),
  });
}

/** What an expression reads. */
export function exprFacts(expr: Node, rules: DataflowRules): ExprFacts {
  const facts: ExprFacts = { text: oneLine(expr.text), uses: [], sources: [], dynamic: [] };
  const stack: { node: Node; via?: string; viaLine?: number }[] = [{ node: expr }];
  while (stack.length > 0) {
    const { node, via, viaLine } = stack.pop()!;
    if (node.type === rules.member.type) {
      const text = compact(node.text);
      if (rules.sources.some((s) => s.pattern.test(text))) {
        facts.sources.push(text);
        (facts.sourceVia ??= []).push(via ? { via, viaLine: viaLine! } : undefined);
        continue;
      }
    }
    if (rules.identifiers.includes(node.type) && !isNotUse(node, rules)) {
      facts.uses.push({ name: node.text, ...(via ? { via, viaLine: viaLine! } : {}) });
      continue;
    }
    let inner = via;
    let innerLine = viaLine;
    if (node.type === rules.call.type) {
      const fn = node.childForFieldName(rules.call.function);
      const callee = compact(fn?.text ?? "");
      if (callee === "getattr" || callee === "setattr") facts.dynamic.push(oneLine(node.text));
      if (fn && (fn.type === "subscript" || fn.type === "subscript_expression")) facts.dynamic.push(oneLine(node.text));
      inner = callee;
      innerLine = node.startPosition.row + 1;
    }
    if (node.type === "dictionary_splat" || node.type === "list_splat" || node.type === "spread_element")
      facts.dynamic.push(oneLine(node.text));
    for (let i = node.namedChildCount - 1; i >= 0; i--) {
      const child = node.namedChild(i);
      // A nested function's body is read with the statements; its parameters are its own.
      if (child && !rules.functions.includes(child.type))
        stack.push({ node: child, ...(inner ? { via: inner, viaLine: innerLine! } : {}) });
    }
  }
  return facts;
}

function isNotUse(node: Node, rules: DataflowRules): boolean {
  const parent = node.parent;
  if (!parent) return false;
  return rules.notUses.some(([type, field]) => parent.type === type && parent.childForFieldName(field)?.id === node.id);
}
