/**
 * Overloads by arity: a method name a type declares several times is told apart by how many
 * arguments a call passes (LanguageSemantics.overloads, LanguageSpec.arity). Resolution finds one
 * member of the name; this widens it to the overloads that accept the call's argument count.
 */
import { languageById } from "../../languages/index.ts";
import type { ArityRange } from "../../languages/arity.ts";
import { attachedOwner, defOf, isClassLike, membersOf, type GraphContext } from "./context.ts";
import { basesOf, MAX_DEPTH } from "./resolve.ts";

const OVERLOADABLE = new Set(["method", "constructor", "function"]);

/** A definition's accepted argument counts, memoized (see Memos.arity). */
function arityOf(ctx: GraphContext, id: number): ArityRange | undefined {
  const memo = ctx.memos.arity;
  const known = memo.get(id);
  if (known !== undefined) return known ?? undefined;
  const s = ctx.symbols[id]!;
  const d = defOf(ctx, id);
  const range = d ? languageById(s.language)?.arity?.(d.signature, s.name) : undefined;
  memo.set(id, range ?? null);
  return range;
}

/** True when `id` takes `argc` arguments, or when its signature or the count is unknown. */
export function acceptsArgs(ctx: GraphContext, id: number, argc: number | undefined): boolean {
  if (argc === undefined) return true;
  const r = arityOf(ctx, id);
  return !r || (argc >= r.min && argc <= r.max);
}

/** The members of `owner` named `name` that can be called (its overloads of that name), memoized. */
function sameNamed(ctx: GraphContext, owner: number, name: string): readonly number[] {
  const key = `${owner}\0${name}`;
  let list = ctx.memos.overloads.get(key);
  if (!list) {
    list = membersOf(ctx, owner).filter((m) => ctx.symbols[m]!.name === name && OVERLOADABLE.has(ctx.symbols[m]!.kind));
    ctx.memos.overloads.set(key, list);
  }
  return list;
}

/**
 * The overloads a call with `argc` arguments reaches, given the one member `id` resolution found:
 * the same-named members of its type whose parameters accept `argc` (for `inherited` overloads,
 * those of the nearest base that has such when the type itself has none), else all of the type's.
 * Undefined when that is `id` alone (its language has no overloads, or its type declares the name
 * once and it accepts the count): the common case allocates nothing.
 */
export function overloadsFor(ctx: GraphContext, id: number, argc: number | undefined): readonly number[] | undefined {
  const s = ctx.symbols[id]!;
  if (!OVERLOADABLE.has(s.kind)) return undefined;
  const spec = languageById(s.language);
  const mode = spec?.semantics?.overloads;
  if (!mode || !spec.arity) return undefined;
  const owner = attachedOwner(ctx, id) ?? (isClassLike(ctx, s.parent) ? s.parent : undefined);
  if (owner === undefined) return undefined;
  const own = sameNamed(ctx, owner, s.name);
  if (own.length < 2 && (mode !== "inherited" || acceptsArgs(ctx, id, argc))) return undefined;
  if (argc === undefined) return own;
  const fits = own.filter((m) => acceptsArgs(ctx, m, argc));
  if (fits.length) return withBodies(ctx, fits);
  if (mode === "inherited") {
    // The nearest base (breadth first) that declares an overload accepting the count.
    const seen = new Set<number>([owner]);
    const queue = basesOf(ctx, owner).map((b) => b.id);
    for (let i = 0; i < queue.length && i < MAX_DEPTH * 8; i++) {
      const cls = queue[i]!;
      if (seen.has(cls)) continue;
      seen.add(cls);
      const inBase = sameNamed(ctx, cls, s.name).filter((m) => acceptsArgs(ctx, m, argc));
      if (inBase.length) return inBase;
      for (const b of basesOf(ctx, cls)) queue.push(b.id);
    }
  }
  return own.length > 1 ? own : undefined;
}

/**
 * Where declarations and definitions are apart (C++: `void f(int);` in the class, `T::f(int) {…}`
 * elsewhere, both members), the definitions among `ids` when it holds any: a declaration would
 * lead to a same-named definition whatever its parameters.
 */
function withBodies(ctx: GraphContext, ids: number[]): number[] {
  if (ids.length < 2 || !ctx.files.get(ctx.symbols[ids[0]!]!.file)?.semantics.linkage) return ids;
  const bodies = ids.filter((m) => (defOf(ctx, m)?.bodyStart ?? 0) > 0);
  return bodies.length ? bodies : ids;
}
