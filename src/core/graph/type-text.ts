/** Reading type annotations and call expressions as written: pure text helpers for the resolver. */

/** Splits `text` on `sep` at bracket depth 0. */
export function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "<" || c === "[" || c === "(" || c === "{") depth++;
    else if ((c === ">" && text[i - 1] !== "=") || c === "]" || c === ")" || c === "}") depth--;
    else if (c === sep && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((p) => p.trim()).filter(Boolean);
}

/**
 * The class names a type annotation may stand for, best first: `Optional[X]`, `X | None`, `"X"`,
 * `X<T>`, `Union[A, B]` → X / A, B. Arrays, tuples and literal types name no class. The wrappers may be
 * read through any module alias (`typing.Optional`, `t.Optional` after `import typing as t`).
 */
export function typeCandidates(text: string): string[] {
  let t = text.trim().replace(/^["']|["']$/g, "");
  // A pointer (`*T`, `&T`, `&'a mut T`) holds a T; `dyn T` and `impl T` name T; a scoped name
  // (C++ `ns::T`, Rust `a::T`) reads as a dotted one; a parenthesized result list (`(*T, error)`) gives its first.
  t = t
    .replace(/^([*&]+\s*('\w+\s+)?(mut\s+|const\s+)?)+/, "")
    .replace(/^(dyn|impl)\s+/, "")
    .replace(/\s*::\s*/g, ".")
    .replace(/^\./, "");
  if (t.startsWith("(") && t.endsWith(")") && !t.includes("=>")) {
    const first = splitTop(t.slice(1, -1), ",")[0];
    if (first) return typeCandidates(first.replace(/^[A-Za-z_]\w*\s+(?=[*\w])/, ""));
  }
  const wrapper =
    /^(?:[A-Za-z_]\w*\.)?(Optional|Final|ClassVar|Annotated|Union|Type|type|Readonly|Promise|Awaitable)\[(.*)\]$/s.exec(
      t,
    ) ?? /^(Readonly|Promise|Awaited|NonNullable)<(.*)>$/s.exec(t);
  if (wrapper) {
    const inner = splitTop(wrapper[2]!, ",");
    const parts = wrapper[1] === "Union" ? inner : inner.slice(0, 1);
    return parts.flatMap((p) => typeCandidates(p));
  }
  const parts = splitTop(t, "|");
  if (parts.length > 1) return parts.flatMap((p) => typeCandidates(p));
  if (/^(None|null|undefined|void|any|unknown|never)$/.test(t) || t.endsWith("[]")) return [];
  // A bare `Final` or `ClassVar` says how a name is bound, not what it holds (pytest's `self._fixture_defs: Final`).
  if (/^(?:[A-Za-z_]\w*\.)?(Final|ClassVar)$/.test(t)) return [];
  t = t.replace(/(<.*>|\[.*\])$/s, "").trim();
  // (a namespace path written with backslashes, `\A\B\C`, stays whole: the language resolves it)
  return /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(t) || /^\\?[A-Za-z_]\w*(\\[A-Za-z_]\w*)+$/.test(t) ? [t] : [];
}

/** Parameter types of a function type `(a: A, b?: B) => R` (a `this:` parameter is dropped). */
export function functionTypeParams(text: string): string[] | undefined {
  let t = text.trim();
  while (t.startsWith("(") && t.endsWith(")") && !/=>/.test(t.slice(t.lastIndexOf(")")))) {
    // `((a: A) => R)` or `((a: A) => R) | undefined`-style parens around the whole type
    const inner = t.slice(1, -1);
    if (!/=>/.test(inner)) break;
    t = inner.trim();
  }
  t = splitTop(t, "|")[0] ?? t;
  if (!t.startsWith("(")) return undefined;
  let depth = 0;
  let close = -1;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === "(") depth++;
    else if (t[i] === ")" && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close < 0 || !/^\s*=>/.test(t.slice(close + 1))) return undefined;
  return splitTop(t.slice(1, close), ",")
    .filter((p) => !/^this\s*:/.test(p))
    .map((p) => {
      const parts = splitTop(p, ":");
      return parts.length > 1 ? parts.slice(1).join(":").trim() : "";
    });
}

/** A collection type and its element type (`List[X]`, `Iterable<X>`, `typing.Set[X]`). */
const COLLECTION_OF = new RegExp(
  String.raw`^(?:[A-Za-z_]\w*\.)*(?:List|Iterable|Iterator|Sequence|MutableSequence|Collection|Set|` +
    String.raw`FrozenSet|AbstractSet|Tuple|Deque|Generator|list|set|frozenset|tuple|Array|ReadonlyArray|Set|` +
    String.raw`Iterable|IterableIterator)\s*[[<](.*)[\]>]$`,
  "s",
);

/** The element type of a collection annotation (`List[X]`, `Iterable[X]`, `X[]`, `Array<X>`), or undefined. */
export function elementType(text: string): string | undefined {
  const t = text.trim().replace(/^["']|["']$/g, "");
  // (the module may be written as imported: `typing.List`, `t.List`, `collections.abc.Iterable`)
  const generic = COLLECTION_OF.exec(t);
  if (generic) return splitTop(generic[1]!, ",")[0];
  // Go: a slice or array `[]T` / `[4]T`, and a map's values `map[K]V`.
  const slice = /^\[\d*\](.+)$/s.exec(t);
  if (slice) return slice[1];
  if (t.startsWith("map[")) {
    let depth = 0;
    for (let i = 3; i < t.length; i++) {
      if (t[i] === "[") depth++;
      else if (t[i] === "]" && --depth === 0) return t.slice(i + 1) || undefined;
    }
  }
  return /^(.*)\[\]$/.exec(t)?.[1];
}

/** Splits `a.b(c).d` into the callee part and whether it ends in a call: returns [expr, isCall]. */
export function splitCall(text: string): [string, boolean] {
  if (!text.endsWith(")")) return [text, false];
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ")") depth++;
    else if (c === "(") {
      depth--;
      if (depth === 0) return [text.slice(0, i).trim(), true];
    }
  }
  return [text, false];
}
