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

/** True when a parameter holds a default value: an `=` that is not part of `==`, `<=`, `>=`, `!=`. */
function hasDefault(param: string): boolean {
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
