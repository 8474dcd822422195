/**
 * Call linking, one file at a time (so an edit redoes one file): each call site through local
 * scope → imports → self/this/cls/super with inheritance → typed receivers → a repository-unique
 * name for untyped local receivers. Every edge records how it was resolved and a confidence; a
 * call several definitions could answer is kept as ambiguous, never linked.
 */
import { languageById } from "../../languages/index.ts";
import type { CallRecord } from "../extract/record.ts";
import {
  defOf,
  isClassLike,
  isGlobal,
  localAt,
  membersOf,
  symbolOf,
  type FileState,
  type GraphContext,
} from "./context.ts";
import {
  AMBIGUOUS_CANDIDATES,
  CONFIDENCE,
  type AmbiguousCall,
  type CallEdge,
  type ExternalCall,
  type Resolution,
} from "./model.ts";
import {
  basesOf,
  calledExport,
  enclosingClass,
  exportOf,
  findInBases,
  findMember,
  member,
  operatorValue,
  resolveExpr,
  resolveName,
  type Value,
} from "./resolve.ts";
import { definitionBehind } from "./packages.ts";
import { VENDORED_PATH } from "./test-code.ts";
import { extensionMethod } from "./extensions.ts";
import { acceptsArgs, overloadsFor } from "./overloads.ts";

const CALLABLE = new Set(["function", "method", "class", "constructor", "macro"]);
/** Definitions that name a value, not a type or namespace (a property or field used as a receiver). */
const VALUE_KINDS = new Set(["property", "field", "constant", "getter"]);

/** One file's call resolution. */
export interface FileCalls {
  calls: CallEdge[];
  external: ExternalCall[];
  ambiguous: AmbiguousCall[];
  unresolved: number;
}

/**
 * Per name, the callables that share it: computed once, and the capped list is one array shared by
 * every ambiguous call of that name (a big tree has ~100k such calls, mostly to a few names).
 */
export function callableIds(ctx: GraphContext, name: string): { ids: number[]; shown: readonly number[] } {
  let entry = ctx.memos.callables.get(name);
  if (!entry) {
    const ids = (ctx.byName.get(name) ?? []).filter((id) => CALLABLE.has(ctx.symbols[id]!.kind));
    entry = { ids, shown: ids.length > AMBIGUOUS_CANDIDATES ? ids.slice(0, AMBIGUOUS_CANDIDATES) : ids };
    ctx.memos.callables.set(name, entry);
  }
  return entry;
}

/**
 * The overrides and implementations of a method in the project: members of the same name declared
 * in the classes below its own (subclasses and implementers, transitively), memoized.
 */
export function overridesOf(ctx: GraphContext, method: number): number[] {
  const known = ctx.memos.overrides.get(method);
  if (known) return known;
  const out: number[] = [];
  ctx.memos.overrides.set(method, out);
  const m = ctx.symbols[method]!;
  if (m.kind !== "method" || !isClassLike(ctx, m.parent)) return out;
  const seen = new Set<number>([m.parent]);
  const queue = [...(ctx.subclasses.get(m.parent) ?? [])];
  for (let i = 0; i < queue.length && i < 10_000; i++) {
    const cls = queue[i]!;
    if (seen.has(cls)) continue;
    seen.add(cls);
    for (const c of membersOf(ctx, cls))
      if (ctx.symbols[c]!.name === m.name && ctx.symbols[c]!.kind === "method") out.push(c);
    for (const sub of ctx.subclasses.get(cls) ?? []) queue.push(sub);
  }
  return out;
}

/** True for a receiver that is the current instance, the class or `super`. */
function isSelfReceiver(st: FileState, receiver: string): boolean {
  const sem = st.semantics;
  receiver = receiver.replace(/::$/, "");
  return (
    sem.instanceNames.includes(receiver) ||
    sem.classNames.includes(receiver) ||
    /^super(\(.*\))?$/.test(receiver) ||
    receiver === sem.superName
  );
}

/**
 * The class a bare `new` inside `caller` constructs: the enclosing class, or for a class opened in
 * several files the one its package table names (as `K.new` finds it).
 */
function classConstructedAt(ctx: GraphContext, st: FileState, caller: number): number | undefined {
  const cls = enclosingClass(st, caller, ctx);
  const d = cls !== undefined ? defOf(ctx, cls) : undefined;
  if (cls === undefined || !d) return cls;
  const owner = d.qualified.slice(0, Math.max(0, d.qualified.length - d.name.length - 1));
  const pkg = `${ctx.symbols[cls]!.language}:${owner}`;
  return ctx.packages.get(pkg)?.get(d.name) ?? cls;
}

/**
 * Resolves every call site of one file (`only`: the sites of those callers alone, each resolved as
 * in the whole file: a site's edges depend on nothing but the site).
 */
export function callsOf(ctx: GraphContext, st: FileState, only?: ReadonlySet<number>): FileCalls {
  const out: FileCalls = { calls: [], external: [], ambiguous: [], unresolved: 0 };
  const seen = new Set<string>();
  const { record } = st;
  const { path } = record;
  const addCall = (caller: number, callee: number, line: number, via: CallEdge["via"], resolution: Resolution) => {
    const k = `${caller}|${callee}|${line}`;
    if (seen.has(k) || !seen.add(k)) return;
    const edge: CallEdge = { caller, callee, file: path, line, via, resolution, confidence: CONFIDENCE[resolution] };
    if (classBody) edge.classBody = true;
    if (protocol) edge.protocol = true;
    out.calls.push(edge);
    // Dynamic dispatch: a method called on an instance may run any override below it (one that
    // takes the call's arguments, where overloads are told apart).
    if (dispatch && via === "call" && resolution !== "via-base") {
      for (const o of overridesOf(ctx, callee))
        if (acceptsArgs(ctx, o, argc)) addCall(caller, o, line, "call", "via-base");
    }
  };
  let classBody = false;
  let protocol = false;
  let dispatch = false;
  let argc: number | undefined;
  const sites = only ? record.calls.filter((c) => only.has(symbolOf(st, c.caller))) : record.calls;
  for (const call of sites) {
    const caller = symbolOf(st, call.caller);
    st.atLine = call.line;
    argc = call.argc;
    classBody = st.semantics.classBodyRunsOnce === true && call.caller >= 0 && isClassLike(ctx, caller);
    dispatch = false;
    protocol = call.protocol === true;
    if (protocol) {
      // Only a method of the operand's known type: never an outside package's, never by name alone.
      const base = resolveExpr(ctx, st, call.caller, call.receiver!);
      const v = base?.kind === "instance" ? member(ctx, base, call.name, 0) : undefined;
      if (v?.kind === "def" && ctx.symbols[v.id]!.kind === "method") {
        dispatch = true;
        addCall(caller, v.id, call.line, "call", "type");
      }
      continue;
    }
    const link = (v: Value | undefined, resolution: Resolution): boolean => {
      // A CommonJS module called (`const Mocha = require("./mocha"); new Mocha(…)`): what it assigns to
      // `module.exports`, the pre-class idiom's constructor function.
      if (v?.kind === "module" && languageFamily(st.record.language) === "ecmascript") {
        v = exportOf(ctx, v.file, "default");
        resolution = "import";
      }
      if (!v) return false;
      if (v.kind === "external") {
        out.external.push({ caller, target: v.name, file: path, line: call.line });
        return true;
      }
      if (v.kind === "local") return true; // a variable or parameter: not a call to a definition
      if (v.kind !== "def") return false;
      const kind = ctx.symbols[v.id]!.kind;
      if (isClassLike(ctx, v.id)) {
        if (kind !== "interface" && !st.semantics.typeCallsConvert)
          addCall(caller, v.id, call.line, "constructor", resolution);
        return true;
      }
      if (kind === "getter" || kind === "setter") return true; // `x.prop()` calls what the getter returns
      if (CALLABLE.has(kind)) {
        const overloads = overloadsFor(ctx, v.id, call.argc);
        if (overloads)
          for (const id of overloads) addCall(caller, definitionBehind(ctx, id), call.line, "call", resolution);
        else addCall(caller, definitionBehind(ctx, v.id), call.line, "call", resolution);
      }
      return true;
    };
    if (call.name === "super" && call.receiver === undefined && st.semantics.superCallsSameMethod) {
      // Ruby: `super` runs the method of the caller's name in the bases (mixins included).
      const cls = enclosingClass(st, call.caller, ctx);
      const m = cls !== undefined && call.caller >= 0 ? findInBases(ctx, cls, ctx.symbols[caller]!.name) : undefined;
      if (m !== undefined) addCall(caller, m, call.line, "super", "self");
      continue;
    }
    if (
      call.name === (st.semantics.superName ?? "super") &&
      call.receiver === undefined &&
      st.semantics.superCallsConstructor
    ) {
      const cls = enclosingClass(st, call.caller, ctx);
      const base =
        cls !== undefined
          ? basesOf(ctx, cls).find((b) => b.kind === "extends" && ctx.symbols[b.id]!.kind !== "interface")
          : undefined;
      if (base) addCall(caller, base.id, call.line, "super", "self");
      continue;
    }
    if (
      call.name === st.semantics.constructorMethod &&
      (call.receiver === undefined || call.receiver === "self" || call.receiver === "self.class")
    ) {
      // Ruby `new` / `self.class.new` inside a class: a new instance of that class.
      const cls = classConstructedAt(ctx, st, call.caller);
      if (cls !== undefined && ctx.symbols[cls]!.kind !== "module")
        addCall(caller, cls, call.line, "constructor", "self");
      continue;
    }
    if (
      call.receiver === undefined &&
      st.semantics.thisCallsConstructor &&
      st.semantics.instanceNames.includes(call.name)
    ) {
      // `this(…)`: another constructor of the same class.
      const cls = enclosingClass(st, call.caller, ctx);
      if (cls !== undefined) addCall(caller, cls, call.line, "constructor", "self");
      continue;
    }
    if (call.receiver === undefined) {
      const [v, resolution] = bareCallValue(ctx, st, call);
      if (link(v, resolution)) continue;
    } else {
      const recv = call.receiver;
      const base = resolveExpr(ctx, st, call.caller, recv);
      // Only a call on an instance dispatches; `super().m()` and `Class.m(self)` name their method.
      dispatch = base?.kind === "instance";
      // A method declared as an extension of the receiver's type, when the type has none of that name.
      const typeOrModule =
        (base?.kind === "def" && !VALUE_KINDS.has(ctx.symbols[base.id]!.kind)) || base?.kind === "module";
      const ext =
        !st.spec?.extensionReceiver || typeOrModule
          ? undefined
          : base?.kind !== "instance" || member(ctx, base, call.name, 0) === undefined
            ? extensionMethod(ctx, st, call.caller, call.name, base, recv)
            : undefined;
      if (ext !== undefined) {
        addCall(caller, ext, call.line, "call", "type");
        continue;
      }
      if (base) {
        let v = member(ctx, base, call.name, 0);
        if (v?.kind === "module" && base.kind === "module") v = calledExport(ctx, base.file, call.name) ?? v;
        const resolution: Resolution =
          base.kind === "module" || base.kind === "external" ? "import" : isSelfReceiver(st, recv) ? "self" : "type";
        if (link(v, resolution)) continue;
        // A receiver of a known project class whose member we cannot find: inherited from outside.
        if (base.kind === "instance" || base.kind === "super" || base.kind === "module") {
          out.unresolved++;
          continue;
        }
      }
    }
    out.unresolved++;
    linkByName(ctx, st, call, caller, addCall, out);
  }
  delete st.atLine;
  return out;
}

/**
 * What a bare call names: a member of the `self` a block rebinds (Ruby `@app.instance_eval { … }`), else the name in
 * scope, else (Ruby) the method of the one class that includes the mixin it is written in.
 */
function bareCallValue(ctx: GraphContext, st: FileState, call: CallRecord): [Value | undefined, Resolution] {
  const rebound = reboundSelf(ctx, st, call.caller);
  const inRebound = rebound ? member(ctx, rebound, call.name, 0) : undefined;
  if (inRebound) return [inRebound, "self"];
  const v = resolveName(ctx, st, call.caller, call.name, 0, true);
  if (v) return [v, v.kind === "def" ? v.via : "scope"];
  const inIncluder = includerMember(ctx, st, call.caller, call.name);
  return inIncluder !== undefined ? [{ kind: "def", id: inIncluder, via: "scope" }, "self"] : [undefined, "scope"];
}

/**
 * What `self` is inside a block that rebinds it (Ruby `@app.instance_eval { … }`, `Class.new(Thor) do … end`), at
 * the call being resolved: an instance or a class of the project, else nothing.
 */
function reboundSelf(ctx: GraphContext, st: FileState, scope: number): Value | undefined {
  if (!st.semantics.openModules) return undefined;
  const name = st.semantics.instanceNames[0];
  const b = name ? localAt(st, scope, name) : undefined;
  if (b?.until === undefined || !b.alias) return undefined;
  const v = resolveExpr(ctx, st, scope, b.alias);
  return v?.kind === "instance" || (v?.kind === "def" && isClassLike(ctx, v.id)) ? v : undefined;
}

/**
 * Open modules (Ruby): a bare call in a mixin's method that the mixin does not define runs on the object it is mixed
 * into, so it is the member of that name in the classes that include the mixin, when exactly one of them has one.
 */
function includerMember(ctx: GraphContext, st: FileState, scope: number, name: string): number | undefined {
  // (only from a method: in the module's own body `self` is the module)
  if (!st.semantics.openModules || scope < 0 || st.record.definitions[scope]!.kind !== "method") return undefined;
  const mixin = enclosingClass(st, scope, ctx);
  if (mixin === undefined || ctx.symbols[mixin]!.kind !== "module") return undefined;
  const found = new Set<number>();
  // (a module opened in several files is one: its includers point at the one its package table names)
  const d = defOf(ctx, mixin)!;
  const opened = ctx.packages
    .get(`${ctx.symbols[mixin]!.language}:${d.qualified.slice(0, Math.max(0, d.qualified.length - d.name.length - 1))}`)
    ?.get(d.name);
  const includers = [
    ...(ctx.subclasses.get(mixin) ?? []),
    ...(opened !== undefined && opened !== mixin ? (ctx.subclasses.get(opened) ?? []) : []),
  ];
  for (const includer of includers) {
    const m = findMember(ctx, includer, name, 0, true);
    if (m !== undefined) found.add(m);
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/**
 * Whether the call's receiver is rooted at a global of the language's host the file does not bind (`process.stdout`,
 * `window.localStorage`): the host's object, whose methods are no project definition's, linked or possible. On
 * mocha, `process.stdout.write(…)` was linked to the one `write` it defines (XUnit's) 64 times.
 */
function hostRooted(ctx: GraphContext, st: FileState, call: CallRecord): boolean {
  const root = /^[A-Za-z_$][\w$]*/.exec(call.receiver ?? "")?.[0];
  if (!root || !isGlobal(ctx, st.record.language, root)) return false;
  return resolveExpr(ctx, st, call.caller, root) === undefined;
}

/**
 * The last resort for a call through a receiver we could not type: link it to the one callable of
 * that name in the project, marked `unique-name`. Only when the receiver is untyped local data (not
 * a module, package, class or typed instance whose member we failed to find), never for a
 * method name of the language's built-in types, and only to a callable the receiver could hold
 * (`plausibleGuess`). A name several callables share is kept ambiguous.
 */
function linkByName(
  ctx: GraphContext,
  st: FileState,
  call: CallRecord,
  caller: number,
  addCall: (caller: number, callee: number, line: number, via: CallEdge["via"], resolution: Resolution) => void,
  out: FileCalls,
): void {
  const { ids: candidates, shown } = callableIds(ctx, call.name);
  if (candidates.length === 1 && ctx.uniqueNameFallback && call.receiver !== undefined && !st.semantics.staticTypes) {
    const builtins = languageById(st.record.language)?.builtinMethods;
    // Walk the receiver chain as far as it resolves; guess only if it ends in untyped data.
    const segments = call.receiver.includes("(")
      ? [/^[A-Za-z_$][\w$]*/.exec(call.receiver)?.[0] ?? ""]
      : call.receiver.split(".");
    let known = segments[0] ? resolveExpr(ctx, st, call.caller, segments[0]) : undefined;
    if (known === undefined && hostRooted(ctx, st, call)) return;
    let walked = 1;
    for (const seg of segments.slice(1)) {
      const next = known ? member(ctx, known, seg, 0) : undefined;
      if (!next) break;
      known = next;
      walked++;
    }
    // With compiler-checked types, a name nothing declares comes from outside (java.lang, a base class's package);
    // so does what a call of a name nothing declares returns (a builtin's: `__import__("pydoc").pager(…)`), unless a
    // bare name may be a method of self we did not find (Ruby).
    const outsideCall = !st.semantics.classMembersInScope && /^[A-Za-z_$][\w$]*\s*\(/.test(call.receiver);
    const untyped =
      known === undefined
        ? !st.semantics.staticTypes && !outsideCall && !operatorOnOutside(ctx, st, call)
        : (known.kind === "local" && !known.outside) ||
          (known.kind === "instance" && !(walked < segments.length && isShape(ctx, known.id)));
    const id = candidates[0]!;
    if (
      untyped &&
      !builtins?.has(call.name) &&
      !returnedByOutsideCall(ctx, call.receiver, builtins) &&
      plausibleGuess(ctx, st, call.receiver, caller, id)
    )
      addCall(caller, id, call.line, isClassLike(ctx, id) ? "constructor" : "call", "unique-name");
  } else if (candidates.length > 1 && !hostRooted(ctx, st, call)) {
    out.ambiguous.push({ caller, name: call.name, candidates: shown, file: st.record.path, line: call.line });
  }
}

/**
 * An interface or type alias of the project: a shape whose members the index holds no definitions for. A value of
 * that declared type is typed data, not local data: a property read on it (`t.procedure`, after
 * `t = initTRPC.create()` returned a `TRPCRootObject`) holds what the shape declares, which a guess by name cannot
 * tell apart from the one class method that shares the name.
 */
const isShape = (ctx: GraphContext, id: number): boolean =>
  ctx.symbols[id]!.kind === "interface" || ctx.symbols[id]!.kind === "type";

/** A parenthesized operator expression on an outside object as the receiver: `(tmp_path / "x.py").write_text(…)`. */
const operatorOnOutside = (ctx: GraphContext, st: FileState, call: CallRecord): boolean =>
  call.receiver!.startsWith("(") && operatorValue(ctx, st, call.caller, call.receiver!, 0) !== undefined;

/**
 * Whether the receiver is what a method call returns whose name no callable of the project declares
 * (`p.joinpath(x).write_text()`, a builder's `procedure.input(schema).mutation(fn)`): the method is
 * the standard library's, a package's or a declaration the index holds no body for (an interface
 * member, an object literal's method), and so is what it returns (unless it is a method of the
 * language's built-in types: a container's `get` returns what the project put in it), not local data the project's one
 * callable of a name could be guessed for. Found on pytest (pathlib's `joinpath` linked 264 calls to
 * `LocalPath.write_text`) and tRPC (its builders' `.mutation(…)` to the client's, 146 calls).
 */
function returnedByOutsideCall(
  ctx: GraphContext,
  receiver: string,
  builtins: ReadonlySet<string> | undefined,
): boolean {
  const text = receiver.replace(/[\s!]+$/, "");
  if (!text.endsWith(")")) return false;
  let depth = 0;
  let open = -1;
  for (let i = text.length - 1; i >= 0; i--) {
    if (text[i] === ")") depth++;
    else if (text[i] === "(" && --depth === 0) {
      open = i;
      break;
    }
  }
  // `.name(`, `?.name(`, `.name<T>(`: a member call; a bare call is the caller's business (`outsideCall`).
  const m = /\.\s*([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*(?:\?\.)?$/.exec(text.slice(0, Math.max(open, 0)));
  // (a built-in type's method, `registry.get(name)`, `stack.pop()`, hands back the project's own data it holds)
  return open > 0 && m !== null && !builtins?.has(m[1]!) && callableIds(ctx, m[1]!).ids.length === 0;
}

/**
 * Whether the one callable of a name is one an untyped receiver could hold (the graph-gold bench's false positives,
 * issue 24), read for what a call by name alone cannot be:
 * - code of another language family: a Ruby `args.a` is not the C function `a` of an example file;
 * - the caller itself through a field of its own instance: `def readinto(self, b): self.handle.readinto(b)` delegates
 *   to the object it wraps, whose method of the same name is the one nothing in the project declares (a recursion
 *   through a field, `self.next.walk()`, types the field where it is assigned and does not get here);
 * - vendored code from outside its folder: a library kept in the tree is reached through imports, which resolve, and
 *   its one method of a name is no guess for the project's own objects (tRPC's vendored `Unpromise.subscribe` took 84
 *   calls on its client proxies and observables);
 * - in JavaScript and TypeScript, a function no class declares (a module's, or one nested in another function): it
 *   becomes an object's member only through an object literal, a shape other objects share (`{ useQuery }`,
 *   `{ unsubscribe }`), or a namespace, which imports resolve; tRPC's module function `once` took 23 calls of
 *   `ctx.ee.once(…)` (Node's EventEmitter), its hooks factory's `useQuery` 136 calls on its client proxies, zod's
 *   `visit.run` 47 of `inst._zod.run(…)`. A function assigned to a property (`Foo.prototype.m = function …`) is a
 *   member and may be guessed. (A Python module is an object passed around, pytest's plugins: its functions stay.)
 */
function plausibleGuess(ctx: GraphContext, st: FileState, receiver: string, caller: number, id: number): boolean {
  const target = ctx.symbols[id]!;
  if (languageFamily(target.language) !== languageFamily(st.record.language)) return false;
  if (target.kind === "function" && languageFamily(target.language) === "ecmascript" && !isMemberFunction(ctx, id))
    return false;
  const vendored = VENDORED_PATH.exec(target.file);
  if (vendored && !st.record.path.startsWith(target.file.slice(0, vendored.index + vendored[0].length))) return false;
  return !(id === caller && isOwnField(st, receiver));
}

/** A function assigned to a property at module level (`Foo.prototype.m = …`, `Foo.m = …`): a member in effect. */
function isMemberFunction(ctx: GraphContext, id: number): boolean {
  const parent = ctx.symbols[ctx.symbols[id]!.parent];
  return parent?.kind === "module" && (defOf(ctx, id)?.qualified.includes(".") ?? false);
}

/** Languages that call each other's definitions share a family (TypeScript and JavaScript: `ecmascript`). */
const languageFamily = (language: string): string => languageById(language)?.rename?.family ?? language;

/** `self.x`, `this.x`, `$this->x`, `@x`: a field of the instance the method runs on. */
function isOwnField(st: FileState, receiver: string): boolean {
  if (/^@[A-Za-z_]\w*$/.test(receiver)) return true;
  const m = /^([$\w]+)(?:\.|->)[A-Za-z_$][\w$]*$/.exec(receiver);
  return m !== null && st.semantics.instanceNames.includes(m[1]!);
}

/** Classes and interfaces a file's annotations name, per naming symbol, added to `typeUses`. */
export function typeUsesOf(ctx: GraphContext, st: FileState, typeUses: Map<number, number[]>): void {
  for (const t of st.record.typeRefs) {
    const v = resolveName(ctx, st, t.scope, t.name);
    if (v?.kind !== "def" || !isClassLike(ctx, v.id)) continue;
    const from = symbolOf(st, t.scope);
    if (from === v.id) continue;
    const list = typeUses.get(from) ?? typeUses.set(from, []).get(from)!;
    if (!list.includes(v.id)) list.push(v.id);
  }
}
