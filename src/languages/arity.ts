/**
 * How many arguments a function accepts, read from its signature as written: what tells the
 * overloads of one name apart in Java, C# and C++ (see LanguageSpec.arity).
 */

/** The argument counts a definition accepts: from `min` to `max` (Infinity for varargs). */
export interface ArityRange {
  min: number;
  max: number;
}

/** How a language writes parameters that change the count. */
export interface ParameterStyle {
  /** A parameter that takes any number of arguments (`String... a`, `params int[] a`, C `...`). */
  variadic: RegExp;
  /** A parameter with a default value (`int x = 0`) may be left out. */
  defaults: boolean;
  /** `f(void)` takes no argument (C, C++). */
  voidList?: boolean;
  /** A first parameter written `this T x` is the receiver of an extension method (C#): not an argument. */
  thisReceiver?: boolean;
}

/** The index of the `(` that opens `name`'s parameter list in `sig` (after optional `<…>` type parameters), or -1. */
function paramListStart(sig: string, name: string): number {
  for (let at = sig.indexOf(name); at >= 0; at = sig.indexOf(name, at + 1)) {
    const before = at > 0 ? sig.charCodeAt(at - 1) : 32;
    if (/[\w$]/.test(String.fromCharCode(before))) continue;
    let i = at + name.length;
    while (i < sig.length && /\s/.test(sig[i]!)) i++;
    if (sig[i] === "<") {
      let depth = 0;
      for (; i < sig.length; i++) {
        if (sig[i] === "<") depth++;
        else if (sig[i] === ">" && --depth === 0) break;
      }
      i++;
      while (i < sig.length && /\s/.test(sig[i]!)) i++;
    }
    if (sig[i] === "(") return i;
  }
  return -1;
}

/**
 * The parameters of `name`'s list in `sig`, split at top-level commas (brackets, braces, angle
 * brackets and quoted text kept whole), or undefined when the list does not close (a signature cut
 * short).
 */
function splitParameters(sig: string, open: number): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let angle = 0;
  let start = open + 1;
  for (let i = open + 1; i < sig.length; i++) {
    const ch = sig[i]!;
    if (ch === '"' || ch === "'") {
      const close = sig.indexOf(ch, i + 1);
      if (close < 0) return undefined;
      i = close;
    } else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === "]" || ch === "}") depth--;
    else if (ch === "<") angle++;
    else if (ch === ">" && angle > 0 && sig[i - 1] !== "-") angle--;
    else if (ch === ")") {
      if (depth === 0) {
        out.push(sig.slice(start, i).trim());
        return out.length === 1 && out[0] === "" ? [] : out;
      }
      depth--;
    } else if (ch === "," && depth === 0 && angle === 0) {
      out.push(sig.slice(start, i).trim());
      start = i + 1;
    }
  }
  return undefined;
}

/**
 * The parameters of `name`'s list in `signature` as written, split at top-level commas, or
 * undefined when the signature shows no whole list (`def f(a, b=1, *c)` → `a`, `b=1`, `*c`).
 */
export function parameterList(signature: string, name: string): string[] | undefined {
  const open = paramListStart(signature, name);
  return open < 0 ? undefined : splitParameters(signature, open);
}

/** True when a parameter holds a default value: an `=` that is not part of `==`, `<=`, `>=`, `!=`. */
export function hasDefault(param: string): boolean {
  return /(^|[^=<>!])=(?!=)/.test(param);
}

/**
 * The argument counts `name`'s signature accepts, or undefined when the signature does not show a
 * whole parameter list (then every count is taken as accepted).
 */
export function parameterRange(signature: string, name: string, style: ParameterStyle): ArityRange | undefined {
  const open = paramListStart(signature, name);
  if (open < 0) return undefined;
  const params = splitParameters(signature, open);
  if (!params) return undefined;
  if (style.voidList && params.length === 1 && params[0] === "void") return { min: 0, max: 0 };
  let min = 0;
  let max = 0;
  params.forEach((p, i) => {
    if (i === 0 && style.thisReceiver && /^this\s/.test(p)) return;
    if (style.variadic.test(p)) max = Infinity;
    else if (style.defaults && hasDefault(p)) max++;
    else {
      min++;
      max++;
    }
  });
  return { min, max };
}

/**
 * How a language writes parameters and arguments, for checking a call against a signature (`changes`:
 * which call sites a signature change breaks).
 */
export interface ParameterSyntax {
  /** Calls may pass arguments by name (`f(x=1)`). */
  keywords: boolean;
  /** A first parameter that is the receiver, not an argument, when the call goes through an object (`self`, `cls`). */
  receivers: readonly string[];
  /** A parameter that takes the rest of the positional arguments (`*args`, `...rest`). */
  varargs: RegExp;
  /** A parameter that takes the rest of the keyword arguments (`**kwargs`). */
  kwargs?: RegExp;
  /** A marker after which parameters are keyword-only (Python's bare `*`). */
  keywordOnlyMarker?: string;
  /** A marker before which parameters are positional-only (Python's `/`). */
  positionalOnlyMarker?: string;
  /** A parameter that is not an argument at all (TypeScript's `this: T`). */
  notArgument?: RegExp;
  /** A parameter marked optional by its name (TypeScript's `x?: T`), besides a default value. */
  optionalName?: RegExp;
  /** An argument that spreads positional arguments (`*xs`, `...xs`). */
  spread: RegExp;
  /** An argument that spreads keyword arguments (`**kw`). */
  keywordSpread?: RegExp;
}

/** One parameter, as a call check reads it. */
export interface Parameter {
  name: string;
  required: boolean;
  kind: "positional" | "positional-only" | "keyword-only" | "varargs" | "kwargs";
}

/**
 * The parameters of `name` in `signature` under `syntax` (the receiver left out when `throughObject`), or undefined.
 */
export function parametersOf(
  signature: string,
  name: string,
  syntax: ParameterSyntax,
  throughObject: boolean,
): Parameter[] | undefined {
  const list = parameterList(signature, name);
  if (!list) return undefined;
  const out: Parameter[] = [];
  let keywordOnly = false;
  list.forEach((raw, i) => {
    const p = raw.trim();
    if (p === "") return;
    if (syntax.notArgument?.test(p)) return;
    if (syntax.positionalOnlyMarker !== undefined && p === syntax.positionalOnlyMarker) {
      for (const q of out) if (q.kind === "positional") q.kind = "positional-only";
      return;
    }
    if (syntax.keywordOnlyMarker !== undefined && p === syntax.keywordOnlyMarker) {
      keywordOnly = true;
      return;
    }
    const name = /[A-Za-z_$][\w$]*/.exec(p)?.[0] ?? p;
    if (i === 0 && throughObject && syntax.receivers.includes(name)) return;
    if (syntax.kwargs?.test(p)) out.push({ name, required: false, kind: "kwargs" });
    else if (syntax.varargs.test(p)) {
      out.push({ name, required: false, kind: "varargs" });
      keywordOnly = true;
    } else {
      const optional = hasDefault(p) || (syntax.optionalName?.test(p) ?? false);
      out.push({ name, required: !optional, kind: keywordOnly ? "keyword-only" : "positional" });
    }
  });
  return out;
}

/** The arguments of one call as written: how many positional, which keywords, and whether any spread. */
export interface CallArguments {
  positional: number;
  keywords: string[];
  spread: boolean;
  keywordSpread: boolean;
}

/** Reads `args` (each argument's text) under `syntax`. */
export function callArguments(args: readonly string[], syntax: ParameterSyntax): CallArguments {
  const out: CallArguments = { positional: 0, keywords: [], spread: false, keywordSpread: false };
  for (const raw of args) {
    const a = raw.trim();
    if (a === "") continue;
    if (syntax.keywordSpread?.test(a)) out.keywordSpread = true;
    else if (syntax.spread.test(a)) out.spread = true;
    else {
      const kw = syntax.keywords ? /^([A-Za-z_]\w*)\s*=(?!=)/.exec(a) : null;
      if (kw) out.keywords.push(kw[1]!);
      else out.positional++;
    }
  }
  return out;
}

/**
 * Why a call with `args` cannot bind to `params`, or undefined when it can (or when a spread
 * leaves it open): the first reason found.
 */
export function bindError(params: readonly Parameter[], args: CallArguments): string | undefined {
  const positional = params.filter((p) => p.kind === "positional" || p.kind === "positional-only");
  const varargs = params.some((p) => p.kind === "varargs");
  const kwargs = params.some((p) => p.kind === "kwargs");
  if (!args.spread && args.positional > positional.length && !varargs) {
    return (
      `passes ${args.positional} positional argument${args.positional === 1 ? "" : "s"}; it takes at most ` +
      `${positional.length}`
    );
  }
  const filled = new Set(positional.slice(0, args.positional).map((p) => p.name));
  for (const k of args.keywords) {
    const p = params.find((q) => q.name === k && (q.kind === "positional" || q.kind === "keyword-only"));
    if (!p && !kwargs) return `passes \`${k}=\`; it has no parameter named \`${k}\``;
    if (p && filled.has(k)) return `passes \`${k}\` twice (by position and by name)`;
    filled.add(k);
  }
  if (args.spread || args.keywordSpread) return undefined;
  const missing = params.find((p) => p.required && !filled.has(p.name));
  return missing ? `leaves out \`${missing.name}\`, which has no default` : undefined;
}

/** Python: keywords, `self`/`cls`, `*args`, `**kwargs`, a bare `*` and `/`. */
export const PYTHON_PARAMETERS: ParameterSyntax = {
  keywords: true,
  receivers: ["self", "cls"],
  varargs: /^\*(?!\*)\s*\w/,
  kwargs: /^\*\*/,
  keywordOnlyMarker: "*",
  positionalOnlyMarker: "/",
  spread: /^\*(?!\*)/,
  keywordSpread: /^\*\*/,
};

/** JavaScript and TypeScript: positional only, `...rest`, `x?`, and `this: T` is no argument. */
export const JS_PARAMETERS: ParameterSyntax = {
  keywords: false,
  receivers: [],
  varargs: /^\.\.\./,
  notArgument: /^this\s*[:?,)]|^this$/,
  optionalName: /^[A-Za-z_$][\w$]*\?/,
  spread: /^\.\.\./,
};
