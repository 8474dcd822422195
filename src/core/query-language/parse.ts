/**
 * The query language's parser: a documented subset of Cypher's read clauses (MATCH … WHERE …
 * RETURN … ORDER BY … SKIP … LIMIT), read by recursive descent into a plain syntax tree. Every
 * error names the line and column that is wrong; write clauses and unbounded variable-length
 * relationships are refused here, before anything is evaluated.
 *
 * Hand-written rather than a dependency: the openCypher grammars on npm are ANTLR-based
 * (`@neo4j-cypher/language-support` is a 2.0 pre-release pulling the antlr4ng runtime) and parse
 * all of Cypher, which this engine would then have to refuse clause by clause; the Datalog engines
 * (datascript) speak another language. The subset below is small enough to read in one file.
 */
import { EngineError } from "../../shared/errors.ts";
import { quoted } from "../../shared/quote.ts";

/** Hops a variable-length relationship may span at most (`*1..6`). */
export const MAX_HOPS = 6;
/** Characters of a query at most. */
export const MAX_QUERY_CHARS = 4_000;
/** Parentheses, lists, NOTs and signs nested at most: deeper would only exhaust the stack. */
export const MAX_NESTING = 64;

/** A literal value. */
export type Literal = string | number | boolean | null;

/** An expression of WHERE, RETURN and ORDER BY. */
export type Expr =
  | { t: "lit"; value: Literal; at: number }
  | { t: "list"; items: Expr[]; at: number }
  | { t: "var"; name: string; at: number }
  | { t: "prop"; of: Expr; key: string; at: number }
  | { t: "not"; of: Expr; at: number }
  | { t: "neg"; of: Expr; at: number }
  | { t: "bin"; op: BinaryOp; left: Expr; right: Expr; at: number }
  | { t: "null"; of: Expr; negated: boolean; at: number }
  | { t: "call"; name: string; args: Expr[]; distinct: boolean; star: boolean; at: number }
  /** A pattern predicate (`(a)<-[:CALLS]-()`): true when the pattern matches with the row's variables. */
  | { t: "pattern"; path: PathPattern; at: number };

/** Binary operators, lower-cased as written (`starts with` with one space). */
export type BinaryOp =
  | "or"
  | "and"
  | "xor"
  | "="
  | "<>"
  | "<"
  | "<="
  | ">"
  | ">="
  | "=~"
  | "contains"
  | "starts with"
  | "ends with"
  | "in"
  | "+"
  | "-";

/** A node pattern: `(a:Symbol {name: 'x'})`. */
export interface NodePattern {
  variable?: string;
  label?: string;
  props: { key: string; value: Literal; at: number }[];
  at: number;
}

/** A relationship pattern: `-[r:CALLS|IMPORTS*1..3 {resolution: 'import'}]->`. */
export interface RelPattern {
  variable?: string;
  types: string[];
  direction: "out" | "in" | "both";
  /** Set for a variable-length relationship: hops from `min` to `max`. */
  hops?: { min: number; max: number };
  props: { key: string; value: Literal; at: number }[];
  at: number;
}

/** A chain of nodes joined by relationships: `nodes.length === rels.length + 1`. */
export interface PathPattern {
  nodes: NodePattern[];
  rels: RelPattern[];
}

/** One RETURN item. */
export interface ReturnItem {
  expr: Expr;
  /** The column's name: the alias, or the expression as written. */
  name: string;
}

/** The parsed query. */
export interface QueryAst {
  patterns: PathPattern[];
  where?: Expr;
  distinct: boolean;
  items: ReturnItem[];
  order: { expr: Expr; descending: boolean }[];
  skip?: number;
  limit?: number;
  /** `limit`'s column, for errors about it. */
  limitAt?: number;
}

/** Clauses that write: refused with `invalid_query` reason `write`. */
const WRITES = new Set(["create", "set", "delete", "detach", "merge", "remove", "drop", "load", "foreach"]);
/** Words that end an expression: never read as a variable. */
const RESERVED = new Set([
  "match",
  "where",
  "return",
  "order",
  "by",
  "skip",
  "limit",
  "distinct",
  "as",
  "and",
  "or",
  "xor",
  "not",
  "in",
  "is",
  "contains",
  "starts",
  "ends",
  "asc",
  "desc",
  "ascending",
  "descending",
]);
/** Read clauses of Cypher outside the subset: refused with reason `unsupported`. */
const UNSUPPORTED = new Set([
  "optional",
  "with",
  "unwind",
  "union",
  "call",
  "return*",
  "exists",
  "case",
  "yield",
  "use",
  "show",
]);

type TokenKind = "word" | "string" | "number" | "punct" | "end";
interface Token {
  kind: TokenKind;
  text: string;
  /** Offset in the query, and the offset just past the token. */
  at: number;
  end: number;
  value?: string | number;
}

const PUNCT = [
  "->",
  "<-",
  "<>",
  "<=",
  ">=",
  "=~",
  "..",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ":",
  ",",
  ".",
  "|",
  "*",
  "-",
  "<",
  ">",
  "=",
  "+",
  ";",
];

/** Line and column (both 1-based) of an offset. */
export function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < at && i < text.length; i++)
    if (text[i] === "\n") {
      line++;
      start = i + 1;
    }
  return { line, column: at - start + 1 };
}

/** Why a query was refused (`invalid_query`'s `reason`). */
export type QueryReason =
  | "syntax"
  | "write"
  | "unsupported"
  | "unbounded"
  | "unknown_label"
  | "unknown_type"
  | "unknown_property"
  | "unknown_variable"
  | "unknown_function"
  | "type_error";

/** An `invalid_query` error pointing at `at`. */
export function queryError(
  text: string,
  at: number,
  reason: QueryReason,
  message: string,
  hint: string,
  extra: Record<string, unknown> = {},
): EngineError<"invalid_query"> {
  const { line, column } = lineColumn(text, at);
  const lineText = text.split("\n")[line - 1] ?? "";
  return new EngineError("invalid_query", `Line ${line}, column ${column}: ${message}`, {
    hint,
    data: {
      reason,
      line,
      column,
      offset: at,
      excerpt: `${lineText}\n${" ".repeat(Math.max(0, column - 1))}^`,
      ...extra,
    },
  });
}

function lex(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    const at = i;
    if (c === "'" || c === '"') {
      let value = "";
      i++;
      for (;;) {
        if (i >= text.length) throw queryError(text, at, "syntax", "this string is never closed.", `End it with ${c}.`);
        const d = text[i]!;
        if (d === "\\" && i + 1 < text.length) {
          const e = text[i + 1]!;
          value += e === "n" ? "\n" : e === "t" ? "\t" : e;
          i += 2;
          continue;
        }
        i++;
        if (d === c) break;
        value += d;
      }
      out.push({ kind: "string", text: text.slice(at, i), at, end: i, value });
      continue;
    }
    if (c === "`") {
      const end = text.indexOf("`", i + 1);
      if (end < 0) throw queryError(text, at, "syntax", "this quoted name is never closed.", "End it with `.");
      out.push({ kind: "word", text: text.slice(at + 1, end), at, end: end + 1, value: text.slice(at + 1, end) });
      i = end + 1;
      continue;
    }
    const num = /^\d+(\.\d+)?/.exec(text.slice(i, i + 40));
    if (num && !(text[i + num[0].length] === "." && text[i + num[0].length + 1] === "." && num[1])) {
      // `1..3` is 1, `..`, 3: a decimal point followed by a second dot is the range.
      const raw = text.slice(i, i + 40).match(/^\d+(?=\.\.)/)?.[0] ?? num[0];
      out.push({ kind: "number", text: raw, at, end: at + raw.length, value: Number(raw) });
      i += raw.length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i, i + 200));
    if (word) {
      out.push({ kind: "word", text: word[0], at, end: at + word[0].length });
      i += word[0].length;
      continue;
    }
    if (c === "$")
      throw queryError(
        text,
        at,
        "unsupported",
        "parameters ($name) are not supported.",
        "Write the value into the query as a literal ('text' or a number).",
      );
    const p = PUNCT.find((x) => text.startsWith(x, i));
    if (!p)
      throw queryError(
        text,
        at,
        "syntax",
        `unexpected character ${quoted(c)}.`,
        "Check the query against the grammar in the schema.",
      );
    out.push({ kind: "punct", text: p, at, end: at + p.length });
    i += p.length;
  }
  out.push({ kind: "end", text: "", at: text.length, end: text.length });
  return out;
}

/** Parses a query of the subset; throws `invalid_query` with the line and column of the first error. */
export function parseQuery(text: string): QueryAst {
  if (text.length > MAX_QUERY_CHARS) {
    throw new EngineError(
      "invalid_argument",
      `The query is ${text.length} characters; the limit is ${MAX_QUERY_CHARS}.`,
      { data: { length: text.length, max: MAX_QUERY_CHARS, key: "query" } },
    );
  }
  const p = new Parser(text, lex(text));
  return p.query();
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {}

  private get tok(): Token {
    return this.tokens[this.i]!;
  }
  private peek(n = 1): Token {
    return this.tokens[Math.min(this.i + n, this.tokens.length - 1)]!;
  }
  private isWord(w: string, t = this.tok): boolean {
    return t.kind === "word" && t.text.toLowerCase() === w;
  }
  private isPunct(p: string, t = this.tok): boolean {
    return t.kind === "punct" && t.text === p;
  }
  private fail(message: string, hint: string, t = this.tok, reason: QueryReason = "syntax"): never {
    throw queryError(this.text, t.at, reason, message, hint, { found: t.kind === "end" ? "end of query" : t.text });
  }
  private shown(t = this.tok): string {
    return t.kind === "end" ? "the end of the query" : quoted(t.text);
  }
  private expectPunct(p: string, what: string): Token {
    if (!this.isPunct(p)) this.fail(`expected ${quoted(p)} ${what}, found ${this.shown()}.`, `Add ${quoted(p)} here.`);
    return this.tokens[this.i++]!;
  }
  private expectWord(w: string, what: string): void {
    if (!this.isWord(w))
      this.fail(`expected ${w.toUpperCase()} ${what}, found ${this.shown()}.`, `Write ${w.toUpperCase()} here.`);
    this.i++;
  }
  private identifier(what: string): string {
    if (this.tok.kind !== "word")
      this.fail(
        `expected ${what}, found ${this.shown()}.`,
        "Names start with a letter or _; quote others in backticks.",
      );
    return this.tokens[this.i++]!.text;
  }

  /** Refuses a clause that writes or that the subset leaves out, at its keyword. */
  private clauseGuard(): void {
    const t = this.tok;
    if (t.kind !== "word") return;
    const w = t.text.toLowerCase();
    if (WRITES.has(w)) {
      this.fail(
        `${t.text.toUpperCase()} writes to the graph; queries are read-only.`,
        "Use MATCH … RETURN to read; the code graph changes only when the files do.",
        t,
        "write",
      );
    }
    if (UNSUPPORTED.has(w)) {
      this.fail(
        `${t.text.toUpperCase()} is not in the supported subset.`,
        "The subset is MATCH pattern[, pattern] [MATCH …] [WHERE …] RETURN [DISTINCT] … [ORDER BY …] [SKIP n] " +
          "[LIMIT n].",
        t,
        "unsupported",
      );
    }
  }

  query(): QueryAst {
    this.clauseGuard();
    if (!this.isWord("match"))
      this.fail(`a query starts with MATCH, found ${this.shown()}.`, "Write MATCH (a)-[:CALLS]->(b) RETURN a, b.");
    const patterns: PathPattern[] = [];
    while (this.isWord("match")) {
      this.i++;
      patterns.push(this.path());
      while (this.isPunct(",")) {
        this.i++;
        patterns.push(this.path());
      }
      this.clauseGuard();
    }
    let where: Expr | undefined;
    if (this.isWord("where")) {
      this.i++;
      where = this.expr();
      this.clauseGuard();
      if (this.isWord("match"))
        this.fail("MATCH after WHERE is not supported.", "Put every MATCH first, then one WHERE.");
    }
    this.clauseGuard();
    this.expectWord("return", "(every query ends with RETURN …)");
    const distinct = this.isWord("distinct") ? (this.i++, true) : false;
    if (this.isPunct("*")) this.fail("RETURN * is not supported.", "Name what to return: RETURN a, b.name.");
    const items: ReturnItem[] = [this.returnItem()];
    while (this.isPunct(",")) {
      this.i++;
      items.push(this.returnItem());
    }
    const ast: QueryAst = { patterns, distinct, items, order: [], ...(where ? { where } : {}) };
    this.tail(ast);
    return ast;
  }

  /** ORDER BY, SKIP, LIMIT and the end of the query. */
  private tail(ast: QueryAst): void {
    if (this.isWord("order")) {
      this.i++;
      this.expectWord("by", "after ORDER");
      do {
        if (this.isPunct(",")) this.i++;
        const expr = this.expr();
        let descending = false;
        if (this.isWord("desc") || this.isWord("descending")) {
          descending = true;
          this.i++;
        } else if (this.isWord("asc") || this.isWord("ascending")) this.i++;
        ast.order.push({ expr, descending });
      } while (this.isPunct(","));
    }
    if (this.isWord("skip")) {
      this.i++;
      ast.skip = this.count("SKIP");
    }
    if (this.isWord("limit")) {
      this.i++;
      ast.limitAt = this.tok.at;
      ast.limit = this.count("LIMIT");
    }
    if (this.isPunct(";")) this.i++;
    this.clauseGuard();
    if (this.tok.kind !== "end")
      this.fail(
        `unexpected ${this.shown()} after the query's end.`,
        "A query is MATCH … [WHERE …] RETURN … [ORDER BY …] [SKIP n] [LIMIT n]; one query at a time.",
      );
  }

  private count(what: string): number {
    const t = this.tok;
    if (t.kind !== "number" || !Number.isInteger(t.value))
      this.fail(`${what} takes a whole number, found ${this.shown()}.`, `Write ${what} 20.`);
    this.i++;
    return t.value as number;
  }

  private returnItem(): ReturnItem {
    const start = this.tok.at;
    const expr = this.expr();
    const end = this.tokens[this.i - 1]!;
    let name = this.text.slice(start, end.end).trim();
    if (this.isWord("as")) {
      this.i++;
      name = this.identifier("a column name after AS");
    }
    return { expr, name };
  }

  private path(): PathPattern {
    const nodes = [this.node()];
    const rels: RelPattern[] = [];
    while (this.isPunct("-") || this.isPunct("<-") || this.isPunct("->")) {
      rels.push(this.rel());
      nodes.push(this.node());
    }
    return { nodes, rels };
  }

  private node(): NodePattern {
    const open = this.tok;
    this.expectPunct("(", "to open a node pattern");
    const n: NodePattern = { props: [], at: open.at };
    if (this.tok.kind === "word") n.variable = this.identifier("a variable");
    if (this.isPunct(":")) {
      this.i++;
      n.label = this.identifier("a label after ':' (File, Symbol, Route, Test)");
      if (this.isPunct(":") || this.isPunct("|"))
        this.fail("a node takes one label here.", "Keep one label, and test others in WHERE.");
    }
    if (this.isPunct("{")) n.props = this.props();
    this.expectPunct(")", "to close the node pattern");
    return n;
  }

  private rel(): RelPattern {
    const start = this.tok;
    let direction: RelPattern["direction"] = "both";
    if (this.isPunct("<-")) {
      direction = "in";
      this.i++;
    } else if (this.isPunct("-")) this.i++;
    else this.fail("a relationship starts with - or <-.", "Write (a)-[:CALLS]->(b) or (a)<-[:CALLS]-(b).");
    const r: RelPattern = { types: [], direction, props: [], at: start.at };
    if (this.isPunct("[")) {
      this.i++;
      if (this.tok.kind === "word") r.variable = this.identifier("a variable");
      if (this.isPunct(":")) {
        this.i++;
        r.types.push(this.identifier("a relationship type after ':'"));
        while (this.isPunct("|")) {
          this.i++;
          if (this.isPunct(":")) this.i++;
          r.types.push(this.identifier("a relationship type after '|'"));
        }
      }
      if (this.isPunct("*")) r.hops = this.hops();
      if (this.isPunct("{")) r.props = this.props();
      this.expectPunct("]", "to close the relationship");
    }
    if (this.isPunct("->")) {
      if (direction === "in")
        this.fail("a relationship cannot point both ways.", "Write <-[…]- or -[…]->, not <-[…]->.");
      direction = "out";
      this.i++;
    } else this.expectPunct("-", "to end the relationship (- or ->)");
    r.direction = direction;
    return r;
  }

  private hops(): { min: number; max: number } {
    const star = this.tok;
    this.i++;
    let min = 1;
    let max: number | undefined;
    if (this.tok.kind === "number") {
      min = this.count("a hop count");
      if (!this.isPunct("..")) max = min;
    }
    if (this.isPunct("..")) {
      this.i++;
      if (this.tok.kind === "number") max = this.count("a hop count");
    }
    if (max === undefined) {
      throw queryError(
        this.text,
        star.at,
        "unbounded",
        "a variable-length relationship needs an upper bound.",
        `Write *1..${MAX_HOPS} at most (e.g. [:CALLS*1..3]).`,
        { maxHops: MAX_HOPS },
      );
    }
    if (max > MAX_HOPS) {
      throw queryError(
        this.text,
        star.at,
        "unbounded",
        `${max} hops is over the cap of ${MAX_HOPS}.`,
        `Write *1..${MAX_HOPS} at most; beyond a few hops the answer is most of the repository.`,
        { maxHops: MAX_HOPS, hops: max },
      );
    }
    if (min > max)
      throw queryError(
        this.text,
        star.at,
        "syntax",
        `the range *${min}..${max} is empty.`,
        "Write the smaller bound first.",
      );
    return { min, max };
  }

  private props(): { key: string; value: Literal; at: number }[] {
    this.expectPunct("{", "");
    const out: { key: string; value: Literal; at: number }[] = [];
    if (!this.isPunct("}")) {
      do {
        if (this.isPunct(",")) this.i++;
        const at = this.tok.at;
        const key = this.identifier("a property name");
        this.expectPunct(":", "after the property name");
        const v = this.primary();
        if (v.t === "neg" && v.of.t === "lit" && typeof v.of.value === "number")
          out.push({ key, value: -v.of.value, at });
        else if (v.t !== "lit")
          throw queryError(
            this.text,
            v.at,
            "syntax",
            "a pattern's property takes a literal value.",
            "Write {name: 'x'} here, and other conditions in WHERE.",
          );
        else out.push({ key, value: v.value, at });
      } while (this.isPunct(","));
    }
    this.expectPunct("}", "to close the properties");
    return out;
  }

  /** Enters one level of nesting, refusing past MAX_NESTING at the token that would go deeper. */
  private deeper<T>(read: () => T): T {
    if (++this.depth > MAX_NESTING) {
      this.fail(
        `the expression nests deeper than ${MAX_NESTING} levels.`,
        "Write it flatter: fewer parentheses, NOTs or signs in a row.",
      );
    }
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  // Expressions, loosest first.
  expr(): Expr {
    return this.deeper(() => this.or());
  }
  private or(): Expr {
    let left = this.xor();
    while (this.isWord("or")) {
      const at = this.tok.at;
      this.i++;
      left = { t: "bin", op: "or", left, right: this.xor(), at };
    }
    return left;
  }
  private xor(): Expr {
    let left = this.and();
    while (this.isWord("xor")) {
      const at = this.tok.at;
      this.i++;
      left = { t: "bin", op: "xor", left, right: this.and(), at };
    }
    return left;
  }
  private and(): Expr {
    let left = this.not();
    while (this.isWord("and")) {
      const at = this.tok.at;
      this.i++;
      left = { t: "bin", op: "and", left, right: this.not(), at };
    }
    return left;
  }
  private not(): Expr {
    if (this.isWord("not")) {
      const at = this.tok.at;
      this.i++;
      return { t: "not", of: this.deeper(() => this.not()), at };
    }
    return this.comparison();
  }
  private comparison(): Expr {
    let left = this.additive();
    for (;;) {
      const t = this.tok;
      const at = t.at;
      let op: BinaryOp | undefined;
      if (t.kind === "punct" && ["=", "<>", "<", "<=", ">", ">=", "=~"].includes(t.text)) {
        op = t.text as BinaryOp;
        this.i++;
      } else if (this.isWord("contains")) {
        op = "contains";
        this.i++;
      } else if (this.isWord("in")) {
        op = "in";
        this.i++;
      } else if ((this.isWord("starts") || this.isWord("ends")) && this.isWord("with", this.peek())) {
        op = this.isWord("starts") ? "starts with" : "ends with";
        this.i += 2;
      } else if (this.isWord("is")) {
        this.i++;
        const negated = this.isWord("not") ? (this.i++, true) : false;
        this.expectWord("null", "after IS");
        left = { t: "null", of: left, negated, at };
        continue;
      }
      if (!op) return left;
      left = { t: "bin", op, left, right: this.additive(), at };
    }
  }
  private additive(): Expr {
    let left = this.unary();
    while (this.isPunct("+") || this.isPunct("-")) {
      const t = this.tokens[this.i++]!;
      left = { t: "bin", op: t.text as "+" | "-", left, right: this.unary(), at: t.at };
    }
    return left;
  }
  private unary(): Expr {
    if (this.isPunct("-")) {
      const at = this.tok.at;
      this.i++;
      return { t: "neg", of: this.deeper(() => this.unary()), at };
    }
    let e = this.primary();
    while (this.isPunct(".")) {
      this.i++;
      const at = this.tok.at;
      e = { t: "prop", of: e, key: this.identifier("a property name after '.'"), at };
    }
    return e;
  }
  private primary(): Expr {
    const t = this.tok;
    if (t.kind === "string") {
      this.i++;
      return { t: "lit", value: t.value as string, at: t.at };
    }
    if (t.kind === "number") {
      this.i++;
      return { t: "lit", value: t.value as number, at: t.at };
    }
    if (this.isPunct("(") && this.patternAhead()) return { t: "pattern", path: this.path(), at: t.at };
    if (this.isPunct("(")) {
      this.i++;
      const e = this.expr();
      this.expectPunct(")", "to close the parenthesis");
      return e;
    }
    if (this.isPunct("[")) {
      this.i++;
      const items: Expr[] = [];
      if (!this.isPunct("]")) {
        items.push(this.expr());
        while (this.isPunct(",")) {
          this.i++;
          items.push(this.expr());
        }
      }
      this.expectPunct("]", "to close the list");
      return { t: "list", items, at: t.at };
    }
    if (t.kind === "word") {
      const w = t.text.toLowerCase();
      if (w === "true" || w === "false") {
        this.i++;
        return { t: "lit", value: w === "true", at: t.at };
      }
      if (w === "null") {
        this.i++;
        return { t: "lit", value: null, at: t.at };
      }
      if (UNSUPPORTED.has(w) || WRITES.has(w)) this.clauseGuard();
      if (RESERVED.has(w))
        this.fail(
          `expected a value, found ${t.text.toUpperCase()}.`,
          "Finish the expression before it: a variable (a), a property (a.name), a literal ('x', 3) or a " +
            "function (count(*)).",
        );
      this.i++;
      if (this.isPunct("(")) return this.call(t);
      return { t: "var", name: t.text, at: t.at };
    }
    this.fail(
      `expected a value, found ${this.shown()}.`,
      "Write a variable (a), a property (a.name), a literal ('x', 3) or a function (count(*)).",
    );
  }
  /**
   * True when a `(` starts a node pattern followed by a relationship (`(a)<-[:CALLS]-()`, `(a)--(b)`):
   * `(`, an optional variable, label and properties, `)`, then `<-`, or `-` before `[`, `-` or `->`.
   */
  private patternAhead(): boolean {
    let k = this.i + 1;
    const at = (n: number) => this.tokens[Math.min(n, this.tokens.length - 1)]!;
    if (at(k).kind === "word") k++;
    if (this.isPunct(":", at(k))) k += 2;
    if (this.isPunct("{", at(k))) {
      while (at(k).kind !== "end" && !this.isPunct("}", at(k))) k++;
      k++;
    }
    if (!this.isPunct(")", at(k))) return false;
    const next = at(k + 1);
    if (this.isPunct("<-", next)) return true;
    return (
      this.isPunct("-", next) &&
      (this.isPunct("[", at(k + 2)) || this.isPunct("-", at(k + 2)) || this.isPunct("->", at(k + 2)))
    );
  }

  private call(name: Token): Expr {
    this.i++;
    const out: Expr & { t: "call" } = {
      t: "call",
      name: name.text.toLowerCase(),
      args: [],
      distinct: false,
      star: false,
      at: name.at,
    };
    if (this.isPunct("*")) {
      this.i++;
      out.star = true;
    } else if (!this.isPunct(")")) {
      if (this.isWord("distinct")) {
        this.i++;
        out.distinct = true;
      }
      out.args.push(this.expr());
      while (this.isPunct(",")) {
        this.i++;
        out.args.push(this.expr());
      }
    }
    this.expectPunct(")", "to close the function's arguments");
    return out;
  }
}
