// gold-rust: compiler-grade code graph (`code-graph-gold/1`) of a Rust crate, from rustc itself:
// `-Zunpretty=hir-tree` (every item after name resolution and macro expansion, with its DefId path
// and span) and `-Zunpretty=thir-tree` (every body after type checking: each call names the DefId
// of the function or method rustc chose). RUSTC_BOOTSTRAP=1 unlocks the `-Z` flags on a stable
// rustc; nothing is downloaded, so the crate must build without dependencies.
//
//   node gold-rust.mjs <crate-dir> > gold.json     (run from anywhere; paths are relative to <crate-dir>)
//
// Targets compiled (each with --cap-lints allow): the library `src/lib.rs` (or `src/main.rs`) as a
// test build (`--test`: `#[cfg(test)]` modules included), every `tests/*.rs`, `examples/*.rs`,
// `benches/*.rs` and `build.rs` against the library's metadata (`--extern`). Features: every
// feature of Cargo.toml that does not need a dependency (`dep:x`, `x/y`, or an optional dependency).
// A target that fails to compile is listed in meta.uncompiled; the files of the targets that did
// compile are meta.files, the only files the score looks at. build.rs is not run (the corpora's
// build scripts only probe the rustc version).
//
// Rules (see ../README.md, "Rust"):
//   definitions  `fn` items (`function`), `fn` in an impl or trait, with or without a body
//                (`method`), struct/union (`struct`), enum, trait, type alias (`type`), macro_rules
//                (`macro`), an impl's associated types (`type`); at any depth, inline modules
//                excepted (not definitions, but they qualify). Not: items a macro generates (span
//                outside the source: derives, macro_rules expansions), trait associated types,
//                consts, statics, extern blocks. A module file several crates include
//                (tests/util/mod.rs) gives one definition per (file, name, line). `start_line` is
//                the name token's line.
//   qualified    `<relpath>#<Outer>.<inner>`: inline modules, functions, traits and the impl's
//                self type (`Parser.parse` for a method of `impl Parser` or `impl Trait for
//                Parser`, its last path segment without generics) of the same file.
//   call edges   a THIR `Call` from the source (`from_hir_call`, callee span outside any
//                expansion or desugaring), whose callee is an fn item or method (`ZstLiteral`): the
//                FnDef rustc resolved decides. A corpus function or inherent method -> `call`. A
//                trait method: when its Self type is a corpus type (first generic argument) whose
//                `impl Trait for Type` in the corpus defines the method -> that method (`call`,
//                tag `trait-impl`); otherwise (generic, `dyn`, default method) -> the trait's
//                method (`trait`). A method of an outside trait (`From::from`, `Iterator::next`)
//                whose Self type has a corpus impl defining it -> that method (tag `outside-trait`). Calls of locals, parameters, fields and call results (closures,
//                fn pointers) are unresolvable; std and other crates external; tuple-struct and
//                variant constructors are not calls. `line` = the callee token (the method name,
//                the last path segment). Caller: the enclosing fn (closures are transparent);
//                const/static initialisers at module level -> the file (module pseudo-definition).
//   import edges each leaf of a `use` that resolves to a corpus item -> the file that defines it
//                (a module -> the module's file); glob imports -> the module's file; `mod x;` ->
//                the module's file.
//   inherits     `impl Trait for Type` (`implements`, Type -> Trait, both corpus), supertraits
//                `trait A: B` (`extends`).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

const SPAN = /^(.+?):(\d+):(\d+): (\d+):(\d+) \(#(\d+)\)/;
const DEFID = /DefId\((\d+):(\d+) ~ ([^)]*)\)/;

/** `regex_syntax[8f2e]::ast::{impl#3}::parse` -> `regex_syntax::ast::{impl#3}::parse`. */
const normPath = (p) => p.replace(/\[[0-9a-f]+\]/g, "");
const indentOf = (line) => line.length - line.trimStart().length;

function parseSpan(text) {
  const m = SPAN.exec(text);
  return m ? { file: m[1], line: +m[2], col: +m[3], endLine: +m[4], endCol: +m[5], ctxt: +m[6] } : undefined;
}

// ---- Cargo.toml, the little of it we need ----------------------------------------------------

function cargoInfo(dir) {
  const text = fs.readFileSync(path.join(dir, "Cargo.toml"), "utf8");
  const section = (name) => {
    const m = new RegExp(`^\\[${name.replace(/\./g, "\\.")}\\]\\s*$([\\s\\S]*?)(?=^\\[|(?![\\s\\S]))`, "m").exec(text);
    return m ? m[1] : "";
  };
  const pkg = section("package");
  const name = /^name\s*=\s*"([^"]+)"/m.exec(pkg)?.[1] ?? path.basename(dir);
  let edition = /^edition\s*=\s*"(\d+)"/m.exec(pkg)?.[1];
  if (!edition && /^edition\.workspace\s*=\s*true/m.test(pkg)) {
    const root = fs.readFileSync(path.join(dir, "..", "Cargo.toml"), "utf8");
    edition = /^edition\s*=\s*"(\d+)"/m.exec(root)?.[1];
  }
  const optionalDeps = new Set();
  for (const sec of ["dependencies"]) {
    for (const m of section(sec).matchAll(/^([\w-]+)\s*=\s*\{[^}]*optional\s*=\s*true/gm)) optionalDeps.add(m[1]);
  }
  const features = new Map();
  for (const m of section("features")
    .replace(/#.*$/gm, "")
    .matchAll(/^([\w-]+)\s*=\s*\[([^\]]*)\]/gm)) {
    features.set(
      m[1],
      [...m[2].matchAll(/"([^"]+)"/g)].map((x) => x[1]),
    );
  }
  // A feature is usable when it needs no dependency, directly or through another feature.
  const usable = new Map();
  const ok = (f, seen = new Set()) => {
    if (usable.has(f)) return usable.get(f);
    if (seen.has(f) || !features.has(f)) return !optionalDeps.has(f) && !seen.has(f) ? false : false;
    seen.add(f);
    const r = features
      .get(f)
      .every((x) => !x.includes("dep:") && !x.includes("/") && !optionalDeps.has(x) && ok(x, seen));
    usable.set(f, r);
    return r;
  };
  return {
    crate: name.replace(/-/g, "_"),
    edition: edition ?? "2015",
    features: [...features.keys()].filter((f) => ok(f)),
  };
}

// ---- rustc runs --------------------------------------------------------------------------------

function rustcArgs(info, extra) {
  return [
    "--edition",
    info.edition,
    "--cap-lints",
    "allow",
    ...info.features.flatMap((f) => ["--cfg", `feature="${f}"`]),
    ...extra,
  ];
}

/** Streams rustc's stdout line by line into `onLine`; resolves to { ok, stderr }. */
function streamRustc(args, cwd, onLine) {
  return new Promise((resolve) => {
    const child = spawn("rustc", args, {
      cwd,
      env: { ...process.env, RUSTC_BOOTSTRAP: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      if (stderr.length < 20000) stderr += d;
    });
    const rl = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
    rl.on("line", onLine);
    child.on("close", (code) => resolve({ ok: code === 0, stderr }));
  });
}

// ---- HIR: items ---------------------------------------------------------------------------------

/**
 * One record per HIR owner: { key, node, kind, name, span, inner (a module's file), traitKey,
 * selfKey, selfName (impls), uses (DefId keys a `use` leaf resolves to), supers (trait bounds) }.
 */
function hirCollector(owners) {
  let cur = null;
  let mode = null; // "of_trait" | "self_ty" | "use_res" | "bounds"
  let modeIndent = 0;
  let pendingKind = false;
  return (line) => {
    if (line.startsWith("DefId(")) {
      const m = /^DefId\((\d+):(\d+) ~ (.*)\) => OwnerNodes \{$/.exec(line);
      cur = m ? { key: normPath(m[3]), node: null, kind: null, name: null, span: null, uses: [], supers: [] } : null;
      if (cur) owners.set(cur.key, cur);
      mode = null;
      return;
    }
    if (!cur) return;
    const ind = indentOf(line);
    const t = line.trim();
    if (t.startsWith("hir_id:") || t.startsWith("hir_ref_id:")) return;
    if (ind === 8 && t.startsWith("node: ")) cur.node = /^node: (\w+)/.exec(t)[1];
    if (mode && ind <= modeIndent && !/^[\]\)\}],?$/.test(t)) mode = null;
    if (ind === 16 && t.startsWith("kind: ") && cur.kind === null) {
      cur.kind = /^kind: (\w+)/.exec(t)[1];
      pendingKind = true;
      return;
    }
    if (ind === 16 && t.startsWith("ident: ") && cur.name === null)
      cur.name = /^ident: (?:r#)?(\w+)#/.exec(t)?.[1] ?? null;
    if (ind === 20 && pendingKind && cur.name === null && cur.node === "Item") {
      const m = /^(?:ident: )?(?:r#)?([A-Za-z_]\w*)#\d+,?$/.exec(t);
      if (m) {
        cur.name = m[1];
        pendingKind = false;
      }
    }
    if (ind === 16 && t.startsWith("span: ") && cur.span === null && cur.kind !== null)
      cur.span = parseSpan(t.slice(6));
    if (t.startsWith("inner_span: ") && !cur.inner) cur.inner = parseSpan(t.slice(12));
    if (cur.kind === "Impl") {
      if (ind === 24 && t.startsWith("of_trait: Some(")) {
        mode = "of_trait";
        modeIndent = ind;
        return;
      }
      if (ind === 24 && t.startsWith("self_ty: ")) {
        mode = "self_ty";
        modeIndent = ind;
        return;
      }
      if (mode === "of_trait" && !cur.traitKey) {
        const m = DEFID.exec(t);
        if (m) cur.traitKey = normPath(m[3]);
      }
      if (mode === "self_ty") {
        const m = DEFID.exec(t);
        if (m && !cur.selfKey) cur.selfKey = normPath(m[3]);
        const id = /^ident: (?:r#)?(\w+)#/.exec(t);
        if (id && !cur.selfKey) cur.selfName = id[1];
      }
    }
    if (cur.kind === "Use") {
      if (t === "res: PerNS {") {
        mode = "use_res";
        modeIndent = ind;
        return;
      }
      if (mode === "use_res") {
        const m = DEFID.exec(t);
        if (m) cur.uses.push(normPath(m[3]));
      }
    }
    if (cur.kind === "Trait") {
      // Supertraits: the bounds list of the trait item, `res: Def(Trait, DefId(..))` in it.
      if (/^Trait\($/.test(t) || t === "Trait,") {
        cur.__nextTrait = true;
        return;
      }
      if (cur.__nextTrait) {
        const m = DEFID.exec(t);
        if (m) {
          if (!cur.supers.includes(normPath(m[3]))) cur.supers.push(normPath(m[3]));
          cur.__nextTrait = false;
        }
      }
    }
  };
}

// ---- THIR: calls --------------------------------------------------------------------------------

/** Collects every THIR `Call` as { body, ty, fromHir, funSpan, funKind }. */
function thirCollector(calls) {
  let body = null;
  const stack = []; // open calls, innermost last
  let afterKind = null; // the call whose fun subtree just printed `kind:`
  return (line) => {
    if (line.startsWith("DefId(")) {
      const m = /^DefId\((\d+):(\d+) ~ (.*)\):$/.exec(line);
      body = m ? normPath(m[3]) : null;
      stack.length = 0;
      return;
    }
    if (!body) return;
    const ind = indentOf(line);
    const t = line.trim();
    while (stack.length && ind <= stack.at(-1).indent && t !== "") {
      const c = stack.pop();
      if (!c.done) calls.push(c);
    }
    if (t === "Call {") {
      stack.push({
        body,
        indent: ind,
        ty: null,
        fromHir: null,
        funSpan: null,
        funKind: null,
        inFun: false,
        done: false,
      });
      return;
    }
    const c = stack.at(-1);
    if (!c) return;
    if (ind === c.indent + 4) {
      if (t.startsWith("ty: ") && c.ty === null) c.ty = t.slice(4);
      else if (t.startsWith("from_hir_call: ")) c.fromHir = t.endsWith("true");
      else if (t === "fun:") c.inFun = true;
      else if (t.startsWith("args:")) {
        c.inFun = false;
        c.done = true;
        calls.push(c);
      }
      return;
    }
    if (!c.inFun) return;
    if (t.startsWith("span: ") && c.funSpan === null) c.funSpan = parseSpan(t.slice(6));
    if (afterKind === c) {
      afterKind = null;
      const k = /^(\w+)/.exec(t)?.[1];
      if (k && k !== "Scope" && c.funKind === null) c.funKind = k;
    }
    if (t === "kind:") afterKind = c;
  };
}

// ---- the crate ---------------------------------------------------------------------------------

function gitFiles(dir) {
  try {
    return execFileSync("git", ["ls-files", "-z", "--", "*.rs"], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 })
      .split("\0")
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** The targets of a crate: [{ id, root, type, test, extern }]. */
function targetsOf(dir, info) {
  const out = [];
  const lib = fs.existsSync(path.join(dir, "src/lib.rs")) ? "src/lib.rs" : null;
  if (lib) out.push({ id: "lib", root: lib, name: info.crate, args: ["--crate-type", "lib", "--test"] });
  if (fs.existsSync(path.join(dir, "src/main.rs")))
    out.push({ id: "main", root: "src/main.rs", name: info.crate, args: ["--crate-type", "bin", "--test"] });
  for (const [folder, test] of [
    ["tests", true],
    ["examples", false],
    ["benches", true],
  ]) {
    const d = path.join(dir, folder);
    if (!fs.existsSync(d)) continue;
    for (const f of fs.readdirSync(d).sort()) {
      if (!f.endsWith(".rs")) continue;
      const name = f.slice(0, -3).replace(/-/g, "_");
      out.push({
        id: `${folder}/${f}`,
        root: `${folder}/${f}`,
        name,
        args: ["--crate-type", "bin", ...(test ? ["--test"] : [])],
        extern: !!lib,
      });
    }
  }
  if (fs.existsSync(path.join(dir, "build.rs")))
    out.push({ id: "build.rs", root: "build.rs", name: "build_script_build", args: ["--crate-type", "bin"] });
  return out;
}

export async function goldOf(dir) {
  dir = path.resolve(dir);
  const info = cargoInfo(dir);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gold-rust-"));
  const owners = new Map();
  const calls = [];
  const uncompiled = [];
  const compiled = [];
  // The library's metadata for the other targets (`--cfg test`: the same items as the test build).
  let rmeta = null;
  if (fs.existsSync(path.join(dir, "src/lib.rs"))) {
    const out = path.join(tmp, `lib${info.crate}.rmeta`);
    for (const extra of [["--cfg", "test"], []]) {
      try {
        execFileSync(
          "rustc",
          rustcArgs(info, [
            "--crate-type",
            "lib",
            "--crate-name",
            info.crate,
            "--emit",
            `metadata=${out}`,
            ...extra,
            "src/lib.rs",
          ]),
          { cwd: dir, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, RUSTC_BOOTSTRAP: "1" } },
        );
        rmeta = out;
        break;
      } catch {
        /* try without --cfg test */
      }
    }
  }
  for (const target of targetsOf(dir, info)) {
    const args = rustcArgs(info, [
      ...target.args,
      "--crate-name",
      target.name,
      ...(target.extern && rmeta ? ["--extern", `${info.crate}=${rmeta}`] : []),
    ]);
    const hirOwners = new Map();
    const hir = await streamRustc([...args, "-Zunpretty=hir-tree", target.root], dir, hirCollector(hirOwners));
    if (!hir.ok) {
      uncompiled.push({
        target: target.id,
        error: (/^error.*$/m.exec(hir.stderr)?.[0] ?? hir.stderr.slice(0, 200)).trim(),
      });
      continue;
    }
    const targetCalls = [];
    const thir = await streamRustc([...args, "-Zunpretty=thir-tree", target.root], dir, thirCollector(targetCalls));
    if (!thir.ok) {
      uncompiled.push({
        target: target.id,
        error: (/^error.*$/m.exec(thir.stderr)?.[0] ?? thir.stderr.slice(0, 200)).trim(),
      });
      continue;
    }
    compiled.push(target.id);
    for (const [k, v] of hirOwners) if (!owners.has(k)) owners.set(k, v);
    calls.push(...targetCalls);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  return buildGold(dir, info, owners, calls, { compiled, uncompiled });
}

// ---- from rustc's facts to the gold ------------------------------------------------------------

function buildGold(dir, info, owners, calls, targets) {
  const tracked = new Set(gitFiles(dir));
  const inCorpus = (f) => f && !path.isAbsolute(f) && !f.startsWith("..") && tracked.has(f);
  const sources = new Map();
  const lines = (f) => {
    if (!sources.has(f)) sources.set(f, fs.readFileSync(path.join(dir, f), "utf8").split("\n"));
    return sources.get(f);
  };
  const files = new Set();
  for (const o of owners.values()) {
    if (o.span && o.span.ctxt === 0 && inCorpus(o.span.file)) files.add(o.span.file);
    if (o.inner && inCorpus(o.inner.file)) files.add(o.inner.file);
  }

  // Definitions.
  const KINDS = {
    Fn: "function",
    Struct: "struct",
    Union: "struct",
    Enum: "enum",
    Trait: "trait",
    TyAlias: "type",
    Macro: "macro",
  };
  const KEYWORD = {
    Fn: "fn",
    Struct: "struct",
    Union: "union",
    Enum: "enum",
    Trait: "trait",
    TyAlias: "type",
    Macro: "macro_rules!",
  };
  const parentKey = (key) => {
    const i = key.lastIndexOf("::");
    return i < 0 ? null : key.slice(0, i);
  };
  const kindOf = (o) => {
    if (!o.span || o.span.ctxt !== 0 || !inCorpus(o.span.file) || !o.name) return null;
    if (o.node === "Item") return KINDS[o.kind] ?? null;
    if ((o.node === "ImplItem" || o.node === "TraitItem") && o.kind === "Fn") return "method";
    if (o.node === "ImplItem" && o.kind === "Type") return "type";
    return null;
  };
  /** The line of the name token: the keyword then the name, from the span's start. */
  const nameLine = (o) => {
    const kw = o.node === "Item" ? KEYWORD[o.kind] : o.kind === "Type" ? "type" : "fn";
    const src = lines(o.span.file);
    const re = new RegExp(`(^|[^\\w])${kw.replace("!", "!")}\\s*(r#)?${o.name}\\b`);
    const re2 = new RegExp(`(^|[^\\w])(r#)?${o.name}\\b`);
    let kwSeen = false;
    for (let l = o.span.line; l <= o.span.endLine && l <= src.length; l++) {
      const text = l === o.span.line ? src[l - 1].slice(o.span.col - 1) : src[l - 1];
      if (re.test(text)) return l;
      // The keyword and the name on different lines.
      if (new RegExp(`(^|[^\\w])${kw}\\s*$`).test(text)) kwSeen = true;
      else if (kwSeen && re2.test(text)) return l;
    }
    return o.span.line;
  };
  const qualCache = new Map();
  const qualifierChain = (o) => {
    // The enclosing owners in the same file that name a scope.
    const chain = [];
    const keys = [];
    for (let k = parentKey(o.key); k; k = parentKey(k)) keys.unshift(k);
    for (const k of keys) {
      const a = owners.get(k);
      if (!a || !a.kind) continue;
      if (a.kind === "Mod") {
        if (a.inner?.file === o.span.file && a.span?.file === o.span.file) chain.push(a.name);
        else chain.length = 0;
        continue;
      }
      if (!a.span || a.span.file !== o.span.file) continue;
      if (a.kind === "Impl") {
        const selfName = a.selfKey ? a.selfKey.split("::").at(-1) : a.selfName;
        if (selfName) chain.push(selfName);
      } else if (["Fn", "Trait", "Struct", "Enum", "Union"].includes(a.kind)) chain.push(a.name);
    }
    return chain;
  };
  const qualified = (o) => {
    if (!qualCache.has(o.key)) qualCache.set(o.key, `${o.span.file}#${[...qualifierChain(o), o.name].join(".")}`);
    return qualCache.get(o.key);
  };
  const defs = new Map(); // key -> def
  const defAt = new Map(); // one definition per (file, name, line): a module file shared by several crates (tests/util/mod.rs) is read once per crate
  for (const o of owners.values()) {
    const kind = kindOf(o);
    if (!kind) continue;
    const d = {
      file: o.span.file,
      name: o.name,
      qualified: qualified(o),
      kind,
      start_line: nameLine(o),
      end_line: o.span.endLine,
      _key: o.key,
    };
    const at = `${d.file}\0${d.name}\0${d.start_line}`;
    defs.set(o.key, defAt.get(at) ?? d);
    if (!defAt.has(at)) defAt.set(at, d);
  }

  // Impls: (trait, self type) -> impl key; corpus types by name and by path.
  const typeKeys = new Map(); // short name -> [keys]
  for (const o of owners.values())
    if (o.node === "Item" && ["Struct", "Enum", "Union", "TyAlias"].includes(o.kind) && o.name) {
      (typeKeys.get(o.name) ?? typeKeys.set(o.name, []).get(o.name)).push(o.key);
    }
  const impls = new Map(); // `${trait}|${selfKey}` -> impl key
  const inherits = [];
  for (const o of owners.values()) {
    if (o.kind === "Impl" && o.traitKey && o.selfKey) {
      impls.set(`${o.traitKey}|${o.selfKey}`, o.key);
      const child = defs.get(o.selfKey),
        base = defs.get(o.traitKey);
      if (child && base && o.span?.ctxt === 0)
        inherits.push({ child: child.qualified, base: base.qualified, kind: "implements" });
    }
    if (o.kind === "Trait" && defs.has(o.key)) {
      for (const s of o.supers)
        if (defs.has(s) && s !== o.key)
          inherits.push({ child: defs.get(o.key).qualified, base: defs.get(s).qualified, kind: "extends" });
    }
  }
  const crateNames = new Set([info.crate, ...[...owners.keys()].filter((k) => !k.includes("::"))]);
  const localKey = (key) => crateNames.has(key.split("::")[0]);

  /** The corpus type key a printed type names (`b::S`, `&'{erased} regex_syntax::ast::Ast`, `Foo<u8>`). */
  const typeKeyOf = (text) => {
    let t = text.replace(/^(&('\S+ |'\{erased\} )?(mut )?)+/, "").trim();
    t = t.replace(/<.*$/, "");
    if (!/^[\w:]+$/.test(t)) return null;
    const parts = t.split("::");
    const cands = typeKeys.get(parts.at(-1)) ?? [];
    if (cands.length === 1) return cands[0];
    const exact = cands.filter((k) => k.split("::").slice(1).join("::") === t || k === t);
    return exact.length === 1 ? exact[0] : null;
  };
  const firstArg = (ty) => {
    // `FnDef(DefId(..), [A, B])` -> A
    const open = ty.indexOf("), [");
    if (open < 0) return null;
    let depth = 0,
      out = "";
    for (const ch of ty.slice(open + 4)) {
      if ("[(<{".includes(ch)) depth++;
      if ("])>}".includes(ch)) {
        if (depth === 0) break;
        depth--;
      }
      if (ch === "," && depth === 0) break;
      out += ch;
    }
    return out.trim() || null;
  };

  const callerOf = (bodyKey, file) => {
    for (let k = bodyKey; k; k = parentKey(k)) {
      const d = defs.get(k);
      if (d && (d.kind === "function" || d.kind === "method")) return d;
    }
    return { qualified: file, kind: "module" };
  };

  const edges = [],
    sites = [],
    unresolved = [];
  const counts = { call_sites: 0 };
  const bump = (k) => (counts[k] = (counts[k] ?? 0) + 1);
  const seen = new Set();
  for (const c of calls) {
    if (!c.fromHir || !c.funSpan || c.funSpan.ctxt !== 0 || !inCorpus(c.funSpan.file)) continue;
    const src = lines(c.funSpan.file);
    // The callee token: the last identifier of the callee's span, without turbofish.
    let text = "";
    for (let l = c.funSpan.line; l <= c.funSpan.endLine; l++) {
      const s = src[l - 1] ?? "";
      const from = l === c.funSpan.line ? c.funSpan.col - 1 : 0;
      const to = l === c.funSpan.endLine ? c.funSpan.endCol - 1 : s.length;
      text += (l > c.funSpan.line ? "\n" : "") + s.slice(from, to);
    }
    const stripped = text.replace(/::\s*<[\s\S]*>\s*$/, "");
    const m = /(?:r#)?([A-Za-z_]\w*)\s*$/.exec(stripped);
    if (!m) continue;
    const name = m[1];
    const line = c.funSpan.line + (stripped.slice(0, m.index).match(/\n/g)?.length ?? 0);
    const before = src[c.funSpan.line - 1].slice(0, c.funSpan.col - 1).trimEnd();
    const form = before.endsWith(".") ? "method" : /::/.test(stripped) ? "path" : "call";
    const receiver =
      form === "method"
        ? "value"
        : form === "path"
          ? (/^(Self|self|super|crate)\b/.exec(stripped)?.[1] ?? "path")
          : "none";
    const siteKey = `${c.funSpan.file}:${c.funSpan.line}:${c.funSpan.col}`;
    if (seen.has(siteKey)) continue;
    seen.add(siteKey);
    counts.call_sites++;
    const site = { file: c.funSpan.file, line, name, form, receiver, outcome: "" };
    sites.push(site);
    const unres = (reason) => {
      site.outcome = reason;
      bump(reason);
      unresolved.push({ file: site.file, line, name, form, reason });
    };
    if (c.funKind && c.funKind !== "ZstLiteral") {
      unres(/VarRef|UpvarRef/.test(c.funKind) ? "local_or_param" : "value");
      continue;
    }
    const fd = /^FnDef\(DefId\(\d+:\d+ ~ ([^)]*)\)/.exec(c.ty ?? "");
    if (!fd) {
      unres("not_an_fn_item");
      continue;
    }
    const key = normPath(fd[1]);
    let target = defs.get(key);
    const tags = [];
    if (!localKey(key)) {
      // A method of an outside trait (`From::from`, `Iterator::next`, `Display::fmt`): the corpus
      // impl of that trait for the Self type, when there is one, is what runs.
      const selfText = firstArg(c.ty);
      const selfKey = selfText ? typeKeyOf(selfText) : null;
      const impl = selfKey ? impls.get(`${parentKey(key)}|${selfKey}`) : null;
      const method = impl ? defs.get(`${impl}::${key.split("::").at(-1)}`) : null;
      if (!method) {
        site.outcome = "external";
        bump("external");
        continue;
      }
      target = method;
      tags.push("trait-impl", "outside-trait");
    }
    if (!target) {
      unres("no_definition");
      continue;
    }
    let via = "call";
    const parent = owners.get(parentKey(key));
    if (parent?.kind === "Trait" && localKey(key)) {
      const selfText = firstArg(c.ty);
      const selfKey = selfText ? typeKeyOf(selfText) : null;
      const impl = selfKey ? impls.get(`${parentKey(key)}|${selfKey}`) : null;
      const method = impl ? defs.get(`${impl}::${target.name}`) : null;
      if (method) {
        target = method;
        tags.push("trait-impl");
      } else {
        via = "trait";
        if (selfText && /\/#\d+$/.test(selfText)) tags.push("generic");
        else if (selfText?.startsWith("dyn")) tags.push("dyn");
        else tags.push("default-method");
      }
    }
    const caller = callerOf(c.body, site.file);
    if (target.file !== site.file) tags.push("cross-file");
    if (form === "method") tags.push("method-call");
    if (receiver === "Self" || receiver === "self") tags.push("self-path");
    site.outcome = `edge_${via}`;
    bump(`edge_${via}`);
    edges.push({
      caller: caller.qualified,
      callee: target.qualified,
      file: site.file,
      line,
      via,
      caller_kind: caller.kind,
      callee_kind: target.kind,
      form,
      receiver,
      tags,
    });
  }

  // Import edges: each `use` leaf that resolves to a corpus item.
  const fileOfKey = (k) => {
    const o = owners.get(k);
    if (!o) return null;
    if (o.kind === "Mod") return o.inner && inCorpus(o.inner.file) ? o.inner.file : null;
    if (!k.includes("::")) return null; // the crate root
    return o.span && o.span.ctxt === 0 && inCorpus(o.span.file) ? o.span.file : null;
  };
  const importSet = new Map();
  for (const o of owners.values()) {
    // `mod x;`: the declaring file takes in the module's file.
    if (
      o.kind === "Mod" &&
      o.span &&
      o.span.ctxt === 0 &&
      inCorpus(o.span.file) &&
      o.inner &&
      inCorpus(o.inner.file) &&
      o.inner.file !== o.span.file
    ) {
      importSet.set(`${o.span.file}\0${o.inner.file}`, { from: o.span.file, to: o.inner.file });
    }
    if (o.kind !== "Use" || !o.span || o.span.ctxt !== 0 || !inCorpus(o.span.file)) continue;
    for (const k of o.uses) {
      let f = fileOfKey(k);
      // A variant or an associated item: the file of its parent.
      for (let p = k; !f && p && p.includes("::"); p = parentKey(p)) f = fileOfKey(p);
      if (f && f !== o.span.file) importSet.set(`${o.span.file}\0${f}`, { from: o.span.file, to: f });
    }
  }

  const definitions = [...defAt.values()]
    .map(({ _key, ...d }) => d)
    .sort((a, b) => a.file.localeCompare(b.file) || a.start_line - b.start_line);
  const pairs = new Set(edges.map((e) => `${e.caller}\0${e.callee}`));
  const rustc = execFileSync("rustc", ["--version"], { encoding: "utf8" }).trim();
  return {
    meta: {
      format: "code-graph-gold/1",
      indexer: `rustc -Zunpretty=hir-tree,thir-tree (${rustc})`,
      language: "rust",
      crate: info.crate,
      edition: info.edition,
      features: info.features,
      targets: targets.compiled,
      uncompiled: targets.uncompiled,
      files: [...files].sort(),
      counts: {
        files: files.size,
        definitions: definitions.length,
        call_edges: edges.length,
        call_edge_pairs: pairs.size,
        import_edges: importSet.size,
        inherits: inherits.length,
        call_sites: counts,
      },
    },
    definitions,
    call_edges: edges,
    call_sites: sites,
    unresolved_call_sites: unresolved,
    import_edges: [...importSet.values()],
    inherits,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node gold-rust.mjs <crate-dir> > gold.json");
    process.exit(2);
  }
  const gold = await goldOf(dir);
  process.stdout.write(JSON.stringify(gold));
}
