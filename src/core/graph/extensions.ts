/**
 * Extension methods: a static method whose first parameter is marked as its receiver
 * (LanguageSpec.extensionReceiver) is callable as a member of values of that type, where the
 * namespace declaring it is in scope (the namespaces around the call, and those the file imports
 * with a star import). A type's own members win; this is asked only when they do not answer.
 */
import { defOf, type FileState, type GraphContext } from "./context.ts";
import { basesOf, type Value } from "./resolve.ts";

/**
 * The receiver type's base name (`IEnumerable<T>` → `IEnumerable`, `A.B` → `B`), and whether it is a type parameter of
 * the method.
 */
function receiverOf(ctx: GraphContext, id: number, re: RegExp): { name: string; generic: boolean } | undefined {
  const d = defOf(ctx, id);
  const m = d ? re.exec(d.signature) : null;
  if (!d || !m?.[1]) return undefined;
  const name = m[1].replace(/<.*$/s, "").replace(/\?$/, "").split(".").at(-1)!.trim();
  const typeParams =
    /<([^>()]*)>\s*\(/
      .exec(d.signature)?.[1]
      ?.split(",")
      .map((s) => s.trim()) ?? [];
  return { name, generic: typeParams.includes(name) };
}

/** The namespaces visible at a scope of a file: those around it (each prefix) and its star imports. */
function visibleNamespaces(st: FileState, scope: number): Set<string> {
  const out = new Set<string>([""]);
  const defs = st.record.definitions;
  for (let s = scope; s >= 0; s = defs[s]!.parent) {
    if (defs[s]!.kind !== "module") continue;
    const parts = defs[s]!.qualified.split(".");
    for (let n = 1; n <= parts.length; n++) out.add(parts.slice(0, n).join("."));
  }
  for (const imp of st.starImports) out.add(imp.module);
  return out;
}

/** The namespace a method's type is declared in ("" at top level). */
function namespaceOf(ctx: GraphContext, id: number): string {
  const owner = ctx.symbols[id]!.parent;
  const cls = owner >= 0 ? ctx.symbols[owner] : undefined;
  if (!cls || cls.parent < 0) return "";
  const ns = ctx.symbols[cls.parent]!;
  return ns.kind === "module" ? (defOf(ctx, ns.id)?.qualified ?? "") : "";
}

/** The names of a class and of its bases, transitively. */
function typeNames(ctx: GraphContext, id: number): Set<string> {
  const out = new Set<string>();
  const queue = [id];
  for (let i = 0; i < queue.length && i < 64; i++) {
    const t = queue[i]!;
    if (out.has(ctx.symbols[t]!.name)) continue;
    out.add(ctx.symbols[t]!.name);
    for (const b of basesOf(ctx, t)) queue.push(b.id);
  }
  return out;
}

/**
 * The extension method a call `recv.name(…)` in `st` reaches, given what the receiver resolved to
 * (undefined when it did not): the visible extension methods of that name whose receiver type
 * fits (a project class or one of its bases, any type for a type parameter; for an outside or
 * unknown receiver, any), when they are one method (overloads share a qualified name). A receiver
 * written as a bare name that resolves to nothing and reads as a type (LanguageSpec.typeNamePattern)
 * is a type, whose static members are not extensions.
 */
export function extensionMethod(
  ctx: GraphContext,
  st: FileState,
  scope: number,
  name: string,
  recv: Value | undefined,
  recvText: string,
): number | undefined {
  const re = st.spec?.extensionReceiver;
  if (!re) return undefined;
  // A bare name that is no value in scope and reads as a type (`double.Parse(…)`, `Math.Max(…)`):
  // a static call, never an extension.
  const typeName = st.spec?.typeNamePattern;
  if (typeName?.test(recvText) && (recv === undefined || (recv.kind === "external" && recv.name === recvText)))
    return undefined;
  const language = st.record.language;
  let visible: Set<string> | undefined;
  const hits: number[] = [];
  for (const id of ctx.byName.get(name) ?? []) {
    const s = ctx.symbols[id]!;
    if (s.kind !== "method" || s.language !== language) continue;
    const r = receiverOf(ctx, id, re);
    if (!r) continue;
    visible ??= visibleNamespaces(st, scope);
    if (!visible.has(namespaceOf(ctx, id))) continue;
    if (recv?.kind === "instance" && !r.generic && !typeNames(ctx, recv.id).has(r.name)) continue;
    if (recv?.kind === "external" && !r.generic && recv.name.replace(/<.*$/s, "").split(".").at(-1) !== r.name)
      continue;
    hits.push(id);
  }
  if (!hits.length) return undefined;
  const q = defOf(ctx, hits[0]!)?.qualified;
  const file = ctx.symbols[hits[0]!]!.file;
  return hits.every((h) => ctx.symbols[h]!.file === file && defOf(ctx, h)?.qualified === q) ? hits[0] : undefined;
}
