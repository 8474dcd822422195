/**
 * Which fields of a response model a consumer reads. From the client call that reaches a route,
 * the value it returns is followed through the consumer's lines: `res.json()` / axios's `.data` /
 * supertest's `.body` give the body; assignments, destructuring (`const { title } = item`),
 * iteration (`for x of …`, `.map((item) => …)`, Python's `for x in …`) and subscripts
 * (`content["title"]`) carry it on; a function that returns it hands it to its callers' variables
 * (an API client's `listItems()` to the page that renders the list). Parameters typed by a model's
 * name (`item: ItemPublic`, the frontend's typed client model) start from that model. Each read is
 * a field of the model tree at that point, with `path:line` and the expression as written.
 */
import type { CodeGraph } from "../graph/model.ts";
import type { ModelNode } from "./shape-fields.ts";

/** One read of a model's field by a consumer. */
export interface FieldRead {
  path: string;
  line: number;
  /** The model whose field it is (qualified name). */
  model: string;
  field: string;
  /** The expression as written up to the field (`page.data`, `item.title`, `content["title"]`, `{ title }`). */
  expression: string;
  /** The function the read is in (its qualified name), or the file for module code. */
  consumer: string;
  /** How the value reached it: from a client call's response, or a parameter typed by the model. */
  from: "response" | "typed";
  /** In a repository group: the repository the read is in, when it is not the model's. */
  repo?: string;
}

/** What a name holds: a model's value, or the HTTP response whose body is that model. */
export interface Held {
  node: ModelNode;
  http: boolean;
}

const ITERATORS = new Set([
  "map",
  "forEach",
  "filter",
  "find",
  "findLast",
  "some",
  "every",
  "flatMap",
  "slice",
  "at",
  "sort",
  "toSorted",
  "reverse",
  "values",
]);
const SEGMENT = /^(?:(\?\.|\.)\s*([A-Za-z_$][\w$]*)|\[\s*(['"])([^'"\]]*)\3\s*\]|\[([^\]]*)\]|\(\s*\))/;
const ASSIGN =
  /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*(?::\s*[^=]+?)?\s*=(?![=>])\s*(?:await\s+)?(.+?);?\s*$/;
const DESTRUCTURE = /^\s*(?:const|let|var)\s*\{([^}]*)\}\s*(?::\s*[^=]+?)?=(?![=>])\s*(?:await\s+)?(.+?);?\s*$/;
const RETURN = /^\s*return\s+(?:await\s+)?(.+?);?\s*$/;
const FOR_OF = /\bfor\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+(.+?)\)\s*\{?\s*$/;
const FOR_IN = /^\s*(?:async\s+)?for\s+([A-Za-z_]\w*)\s+in\s+(.+?):\s*$/;
const esc = (s: string) => s.replace(/[$]/g, "\\$");

/** The reads of one function's lines, and what it returns of the model. */
export class LineScan {
  readonly reads: FieldRead[] = [];
  private readonly seen = new Set<string>();
  returned: Held | undefined;
  constructor(
    private readonly path: string,
    private readonly consumer: string,
    private readonly from: FieldRead["from"],
    /**
     * The language writes blocks in braces (JavaScript and its kin): a response's body is also its `.data` (axios) or
     * `.body` (supertest).
     */
    private readonly braces: boolean,
  ) {}

  /** Scans lines `start..end` of `text` with `vars` held; `at` is a call on a line whose value is `held`. */
  run(
    text: readonly string[],
    start: number,
    end: number,
    vars: Map<string, Held>,
    at?: { line: number; held: Held },
  ): void {
    for (let l = start; l <= end; l++) {
      const line = text[l - 1] ?? "";
      const here = at && at.line === l ? at.held : undefined;
      const destructure = DESTRUCTURE.exec(line);
      const assign = destructure ? undefined : ASSIGN.exec(line);
      const ret = RETURN.exec(line);
      const loop = FOR_OF.exec(line) ?? FOR_IN.exec(line);
      // Reads anywhere on the line; a callback parameter held on it (`.map((item) => item.title)`) is read on it too.
      const done = new Set<string>();
      for (let round = 0; round < 3; round++) {
        const fresh = [...vars].filter(([name]) => !done.has(name));
        if (!fresh.length) break;
        for (const [name, held] of fresh) {
          done.add(name);
          this.chains(line, l, name, held, vars);
        }
      }
      if (destructure) {
        const value = here ?? this.evaluate(destructure[2]!, l, vars);
        if (value && !value.http) this.destructure(destructure[1]!, l, value, vars);
      } else if (assign) {
        const value = here ?? this.evaluate(assign[2]!, l, vars);
        if (value) vars.set(assign[1]!, value);
        else vars.delete(assign[1]!);
      }
      if (ret) {
        const value = here ?? this.evaluate(ret[1]!, l, vars);
        if (value) this.returned = value;
      }
      if (loop) {
        const value = this.evaluate(loop[2]!, l, vars);
        if (value && !value.http) vars.set(loop[1]!, value);
      }
    }
  }

  /** The value of an expression that starts with a held name, or undefined. */
  private evaluate(expr: string, line: number, vars: Map<string, Held>): Held | undefined {
    const m = /^\s*([A-Za-z_$][\w$]*)/.exec(expr);
    const held = m ? vars.get(m[1]!) : undefined;
    if (!m || !held) return undefined;
    return this.walk(held, expr.slice(m[0].length), m[1]!, line, vars).value;
  }

  /** Records the reads of every chain on the line rooted at `name`. */
  private chains(text: string, line: number, name: string, held: Held, vars: Map<string, Held>): void {
    const re = new RegExp(`(?<![\\w$.])${esc(name)}(?![\\w$])`, "g");
    for (const m of text.matchAll(re)) {
      // `name` as a parameter or an assignment target is no read.
      const rest = text.slice(m.index! + m[0].length);
      if (/^\s*(?:=[^=>]|:\s*[A-Za-z_$])/.test(rest)) continue;
      this.walk(held, rest, name, line, vars);
    }
  }

  /** Follows `.a.b[0].c` from a held value, recording each field read; the value at the end. */
  private walk(
    start: Held,
    chain: string,
    root: string,
    line: number,
    vars: Map<string, Held>,
  ): { value: Held | undefined } {
    let held: Held | undefined = start;
    let expr = root;
    let rest = chain;
    while (held) {
      const m = SEGMENT.exec(rest);
      if (!m) break;
      rest = rest.slice(m[0].length);
      const name = m[2] ?? m[4];
      if (m[0].replace(/\s/g, "") === "()") break;
      if (name === undefined) {
        expr += "[i]";
        continue; // an index: an element of the list
      }
      expr += m[2] !== undefined ? `${m[1]}${name}` : `[${m[3]}${name}${m[3]}]`;
      if (held.http) {
        if (name === "json" && /^\s*\(\s*\)/.test(rest)) {
          rest = rest.replace(/^\s*\(\s*\)/, "");
          expr += "()";
          held = { node: held.node, http: false };
        } else if (this.braces && (name === "data" || name === "body") && m[2] !== undefined)
          held = { node: held.node, http: false };
        else held = undefined;
        continue;
      }
      const field = held.node.fields.get(name);
      if (field) {
        this.record(line, held.node, name, expr);
        held = field.child ? { node: field.child, http: false } : undefined;
        continue;
      }
      if (m[2] !== undefined && ITERATORS.has(name)) {
        // `.map((item) => …)`: the callback's parameter holds an element.
        const param = /^\s*\(\s*(?:async\s+)?(?:function\s*)?\(?\s*([A-Za-z_$][\w$]*)/.exec(rest);
        if (param && ["map", "forEach", "filter", "find", "findLast", "some", "every", "flatMap"].includes(name))
          vars.set(param[1]!, held);
        return { value: held };
      }
      held = undefined;
    }
    return { value: held };
  }

  /** `{ a, b: c, d = 1 }` from a model value: reads of a, b, d; c and the others hold their fields' models. */
  private destructure(pattern: string, line: number, value: Held, vars: Map<string, Held>): void {
    for (const part of pattern.split(",")) {
      const m = /^\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)\s*(?::\s*([A-Za-z_$][\w$]*))?/.exec(part);
      if (!m || part.trim().startsWith("...")) continue;
      const field = value.node.fields.get(m[1]!);
      if (!field) continue;
      this.record(line, value.node, m[1]!, `{ ${m[1]} }`);
      if (field.child) vars.set(m[2] ?? m[1]!, { node: field.child, http: false });
    }
  }

  private record(line: number, node: ModelNode, field: string, expression: string): void {
    // A holder (a component's props typed by the model) is no model: reading its field is no read.
    if (node.id < 0) return;
    const key = `${line}\0${node.id}\0${field}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.reads.push({
      path: this.path,
      line,
      model: node.qualified,
      field,
      expression,
      consumer: this.consumer,
      from: this.from,
    });
  }
}

/** The lines a consumer's reads are looked for in: its function, or a few lines after module-level code. */
export function scopeOf(graph: CodeGraph, id: number, line: number): { start: number; end: number; name: string } {
  const s = graph.symbols[id]!;
  if (s.kind !== "module") return { start: s.nameLine, end: s.end, name: s.qualified };
  const total = graph.records.get(s.file)?.lines ?? line;
  return { start: line, end: Math.min(total, line + 20), name: s.file };
}
