/**
 * Links the build adds once every file's scope exists, by resolving names (so they live apart from
 * the package tables that resolution itself reads): structural `implements` edges, and methods
 * declared outside their type's body attached to the type their qualifier names.
 */
import { isClassLike, membersOf, stateOf, symbolOf, TYPE_KINDS, type GraphContext } from "./context.ts";
import { emptyMemos } from "./memos.ts";
import type { InheritEdge } from "./model.ts";
import { basesOf, resolveExpr } from "./resolve.ts";

/** The method names of a type, with those it gets from embedded or base types. */
function methodSet(ctx: GraphContext, id: number, memo: Map<number, Set<string>>, depth = 0): Set<string> {
  let set = memo.get(id);
  if (set) return set;
  set = new Set();
  memo.set(id, set); // cycle guard
  for (const m of membersOf(ctx, id)) if (ctx.symbols[m]!.kind === "method") set.add(ctx.symbols[m]!.name);
  if (depth < 8) for (const b of basesOf(ctx, id)) for (const n of methodSet(ctx, b.id, memo, depth + 1)) set.add(n);
  return set;
}

/**
 * Structural `implements` edges: each project type (not an interface) to each interface of its
 * language whose every method (embedded interfaces' too) it has, by name. Candidates come from the
 * types that have the interface's first method, so the cost follows the method names, not types × interfaces.
 */
export function structuralImplements(ctx: GraphContext): InheritEdge[] {
  const memo = new Map<number, Set<string>>();
  const byMethod = new Map<string, number[]>();
  const interfaces: number[] = [];
  for (const s of ctx.symbols) {
    if (s.kind === "module" || !stateOf(ctx, s.id).semantics.structuralInterfaces) continue;
    if (s.kind === "interface") interfaces.push(s.id);
    else if (isClassLike(ctx, s.id))
      for (const n of methodSet(ctx, s.id, memo)) (byMethod.get(n) ?? byMethod.set(n, []).get(n)!).push(s.id);
  }
  const out: InheritEdge[] = [];
  for (const i of interfaces) {
    const wanted = [...methodSet(ctx, i, memo)];
    if (wanted.length === 0) continue;
    const language = ctx.symbols[i]!.language;
    for (const t of byMethod.get(wanted[0]!) ?? []) {
      if (ctx.symbols[t]!.language !== language) continue;
      const has = methodSet(ctx, t, memo);
      if (wanted.every((n) => has.has(n))) out.push({ child: t, base: i, kind: "implements" });
    }
  }
  return out;
}

/**
 * Methods declared outside their type's body for a type the file does not define at that level
 * (a Rust `impl Display for Version` in display.rs, `impl S` inside `mod b` for `b::S`): the
 * qualifier is resolved in the file's scope (nested definitions, then imports) and the method
 * attached to the type it names. The interfaces such a block implements (captured as the method's
 * `implements`) become bases of the type. Runs once the file scopes exist; clears the memos.
 */
export function attachThroughScope(ctx: GraphContext): void {
  const ownerOf = new Map<number, number>();
  for (const [o, list] of ctx.attached) for (const x of list) ownerOf.set(x, o);
  for (const st of ctx.files.values()) {
    const defs = st.record.definitions;
    defs.forEach((d, i) => {
      const parentQualified = d.parent >= 0 ? defs[d.parent]!.qualified : "";
      const plain = parentQualified ? `${parentQualified}.${d.name}` : d.name;
      if (d.qualified === plain || !d.qualified.endsWith(`.${d.name}`)) return;
      const id = symbolOf(st, i);
      const ownerQualified = d.qualified.slice(0, d.qualified.length - d.name.length - 1);
      let owner = ownerOf.get(id);
      if (owner === undefined) {
        // The type in this file under that qualified name, else the qualifier resolved in scope.
        const local = defs.findIndex((x) => x.qualified === ownerQualified && TYPE_KINDS.has(x.kind));
        if (local >= 0) owner = symbolOf(st, local);
        else {
          const qualifier = parentQualified ? ownerQualified.slice(parentQualified.length + 1) : ownerQualified;
          const v = resolveExpr(ctx, st, d.parent, qualifier);
          if (v?.kind === "def" && (TYPE_KINDS.has(ctx.symbols[v.id]!.kind) || ctx.symbols[v.id]!.kind === "type"))
            owner = v.id;
        }
        if (owner === undefined) return;
        (ctx.attached.get(owner) ?? ctx.attached.set(owner, []).get(owner)!).push(id);
        ownerOf.set(id, owner);
      }
      if (!d.implements?.length) return;
      ctx.attachedBases ??= new Map();
      const list = ctx.attachedBases.get(owner) ?? ctx.attachedBases.set(owner, []).get(owner)!;
      for (const text of d.implements)
        if (!list.some((b) => b.text === text && b.file === st.record.path))
          list.push({ file: st.record.path, scope: d.parent, text });
    });
  }
  // A new map: look-ups cached against the old one (attachedOwner) start afresh.
  ctx.attached = new Map(ctx.attached);
  ctx.memos = emptyMemos();
}
