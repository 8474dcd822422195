// Gold code graph (`code-graph-gold/1`) from a SCIP index plus the language's own parser.
//
// Division of labour, so that no name matching and no regex decides anything:
//   * the parser (CPython `ast` via python-facts.py, the TypeScript parser via typescript-facts.mjs)
//     says where definitions are, which tokens are in call position and which tokens name bases;
//   * the SCIP index (Pyright / the TypeScript checker) says which symbol each of those tokens means.
// The rules are the ones of the reference harness (../shared/tools/graph-gold/README.md), restated
// in graph-gold/README.md next to this file.
//
// CLI (for cross-checks): node derive.mjs <index.scip> <corpus-dir> <out.json>
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DEFINITION, readScip } from "./scip.mjs";
import { loadTypeScript } from "./tools.mjs";
import { typescriptFacts } from "./typescript-facts.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const CALLABLE = new Set(["function", "method", "class", "constructor", "getter", "setter"]);

/** Syntax facts per file, keyed by relative path. */
function syntaxFacts(lang, rels, corpusDir) {
  if (lang === "python") {
    const json = execFileSync("python3", [path.join(here, "python-facts.py"), corpusDir], {
      input: rels.join("\n"),
      maxBuffer: 1 << 30,
    });
    const facts = JSON.parse(json);
    for (const [rel, f] of Object.entries(facts)) {
      if (f.error) console.error(`warn: ${rel}: CPython could not parse it: ${f.error}`);
      else for (const d of f.defs) d.stub = d.decorators.includes("overload"); // @overload stubs merge into the implementation
    }
    return facts;
  }
  const ts = loadTypeScript();
  return Object.fromEntries(
    rels.map((rel) => [rel, typescriptFacts(ts, rel, fs.readFileSync(path.join(corpusDir, rel), "utf8"))]),
  );
}

/**
 * @param {{ tool: string, version: string, documents: {relativePath: string, occurrences: {range: number[], symbol: string, roles: number}[]}[] }} scip
 * @param {string} corpusDir
 */
export function deriveGold(scip, corpusDir) {
  const lang = scip.tool.includes("python") ? "python" : "typescript";
  const isSource =
    lang === "python" ? (p) => p.endsWith(".py") : (p) => /\.(ts|tsx|mts|cts)$/.test(p) && !/\.d\.[mc]?ts$/.test(p);
  const docs = scip.documents
    .filter((d) => isSource(d.relativePath))
    .sort((a, b) => (a.relativePath < b.relativePath ? -1 : 1));
  const facts = syntaxFacts(
    lang,
    docs.map((d) => d.relativePath),
    corpusDir,
  );
  const ok = (rel) => facts[rel] && !facts[rel].error;

  // ---- occurrences by exact start position; module symbols (a definition at 0:0 of a file) by file
  const occurrencesAt = new Map(); // rel -> "line0:col" -> occurrences
  const moduleFile = new Map(); // module symbol -> rel
  const defined = new Set(); // every symbol some corpus document defines
  for (const d of docs) {
    const at = new Map();
    for (const o of d.occurrences) {
      if (!o.range) continue;
      if (o.roles & DEFINITION) defined.add(o.symbol);
      const key = `${o.range[0]}:${o.range[1]}`;
      if (!at.has(key)) at.set(key, []);
      at.get(key).push(o);
      const [l0, c0, , c1] = o.range;
      if (
        o.roles & DEFINITION &&
        l0 === 0 &&
        c0 === 0 &&
        c1 === 0 &&
        (o.symbol.endsWith("/") || o.symbol.endsWith("/__init__:"))
      ) {
        moduleFile.set(o.symbol, d.relativePath);
      }
    }
    occurrencesAt.set(d.relativePath, at);
  }
  const at = (rel, line1, col) => occurrencesAt.get(rel).get(`${line1 - 1}:${col}`) ?? [];
  // A symbol of the corpus's own package that no document defines: the indexer named something it has no
  // definition for (scip-python gives a class that shadows a builtin, `class ConnectionError(...)`, or a
  // `NamedTuple` subclass, no definition occurrence), so the gold cannot say what a call there reaches.
  const packageOf = (symbol) => symbol.split(" ").slice(0, 4).join(" ");
  const corpusPackages = new Set([...defined].filter((s) => !s.startsWith("local ")).map(packageOf));
  const dangling = (symbol) =>
    !symbol.startsWith("local ") && !defined.has(symbol) && corpusPackages.has(packageOf(symbol));
  // `local N` symbols are only unique within their document
  const symbolKey = (rel, symbol) => (symbol.startsWith("local ") ? `${rel}::${symbol}` : symbol);

  // ---- definitions: every syntactic one, then merged by SCIP symbol (overload stubs + implementation)
  const all = [];
  for (const d of docs) {
    const rel = d.relativePath;
    if (!ok(rel)) continue;
    const f = facts[rel];
    f.defs.forEach((def, i) => {
      def.rel = rel;
      def.idx = i;
      const occs = def.col == null ? [] : at(rel, def.line, def.col);
      const occ = occs.find((o) => o.roles & DEFINITION) ?? occs[0];
      def.symbol = occ ? symbolKey(rel, occ.symbol) : null;
      const chain = [];
      for (let p = def; p; p = p.parent == null ? null : f.defs[p.parent]) chain.unshift(p.name);
      def.qualified = lang === "python" ? `${f.module}.${chain.join(".")}` : `${rel}#${chain.join(".")}`;
      all.push(def);
    });
  }
  const bySymbol = new Map();
  for (const def of all) {
    const key = def.symbol ?? `nosym:${def.rel}:${def.line}:${def.col}`;
    if (!bySymbol.has(key)) bySymbol.set(key, []);
    bySymbol.get(key).push(def);
  }
  const symbolDef = new Map(); // symbol key -> the definition a reference to it means
  const reported = []; // definitions in the gold (implementations; stubs only when nothing else exists)
  for (const [key, members] of bySymbol) {
    const real = members.filter((m) => !m.stub);
    const kept = real.length ? real : [members[0]];
    const stubs = members.filter((m) => !kept.includes(m));
    const main = kept[kept.length - 1]; // a redefinition wins, as at run time
    if (stubs.length) main.overload_lines = stubs.map((s) => s.line).sort((a, b) => a - b);
    for (const k of kept) reported.push(k);
    for (const s of stubs) s.stubOf = main;
    if (!key.startsWith("nosym:")) symbolDef.set(key, main);
  }
  // the definition a scope index stands for (an overload stub stands for its implementation)
  const defAt = (rel, i) => (i == null ? null : (facts[rel].defs[i].stubOf ?? facts[rel].defs[i]));

  const calleeOf = (rel, occ) => {
    const d = symbolDef.get(symbolKey(rel, occ.symbol));
    if (!d || !CALLABLE.has(d.kind)) return null;
    if (d.kind === "constructor") {
      // TS `new X()` points at X's constructor: the edge goes to the class
      const cls = defAt(d.rel, d.parent);
      return cls ? { def: cls, via: "constructor" } : null;
    }
    if (d.kind === "class") return { def: d, via: "constructor" };
    if (d.kind === "getter" || d.kind === "setter") return null; // `x.prop()` calls what the getter returns
    return { def: d, via: "call" };
  };

  // ---- inherits: each base token that resolves to an in-corpus class or interface
  const inherits = [];
  const extendsOf = new Map(); // class def -> base class defs (for TS `super(...)`)
  for (const d of docs) {
    const rel = d.relativePath;
    if (!ok(rel)) continue;
    for (const b of facts[rel].bases) {
      const child = defAt(rel, b.class_idx);
      for (const o of at(rel, b.line, b.col)) {
        const base = symbolDef.get(symbolKey(rel, o.symbol));
        if (!base || (base.kind !== "class" && base.kind !== "interface")) continue;
        const kind = b.kind ?? "extends";
        inherits.push({ child: child.qualified, base: base.qualified, kind, file: rel, line: b.line });
        if (kind === "extends") {
          if (!extendsOf.has(child)) extendsOf.set(child, []);
          extendsOf.get(child).push(base);
        }
      }
    }
  }

  // ---- call edges
  const callEdges = [];
  const edgeSeen = new Set();
  const unresolved = []; // sites the checker could not resolve: candidate edges there are "don't care"
  const sites = []; // every call site with what the checker made of it (for miss categories; not scored)
  const counts = {
    call_sites: 0,
    no_token: 0,
    no_occurrence: 0,
    local_or_param: 0,
    external_or_non_definition: 0,
    symbol_without_definition: 0,
    in_corpus_non_callable: 0,
    in_corpus_callable: 0,
    super_calls: 0,
    super_resolved: 0,
  };
  const addEdge = (e) => {
    const key = `${e.caller}|${e.callee}|${e.file}|${e.line}`;
    if (edgeSeen.has(key)) return;
    edgeSeen.add(key);
    callEdges.push(e);
  };
  for (const d of docs) {
    const rel = d.relativePath;
    if (!ok(rel)) continue;
    const f = facts[rel];
    for (const c of f.calls) {
      counts.call_sites++;
      const callerDef = defAt(rel, c.scope);
      const caller = callerDef ? callerDef.qualified : lang === "python" ? f.module : rel;
      const caller_kind = callerDef ? callerDef.kind : "module";
      const site = { file: rel, line: c.line, name: c.name, form: c.form, receiver: c.receiver, outcome: "" };
      sites.push(site);
      if (c.form === "super") {
        // TS `super(...)` has no SCIP occurrence: follow the resolved `extends`
        counts.super_calls++;
        let cls = callerDef;
        while (cls && cls.kind !== "class") cls = defAt(cls.rel, cls.parent);
        const bases = cls && extendsOf.get(cls);
        if (bases?.length) {
          counts.super_resolved++;
          site.outcome = "edge";
          addEdge({
            caller,
            callee: bases[0].qualified,
            file: rel,
            line: c.line,
            via: "super",
            caller_kind,
            callee_kind: "class",
            form: c.form,
            receiver: c.receiver,
          });
        } else site.outcome = "external";
        continue;
      }
      if (c.col == null) {
        counts.no_token++;
        site.outcome = "no_token";
        unresolved.push({ file: rel, line: c.line, name: null, form: c.form, reason: "callee_not_a_name" });
        continue;
      }
      /** A named call site the gold leaves without a callee, and why. */
      const leave = (reason) =>
        unresolved.push({ file: rel, line: c.line, col: c.col, name: c.name, form: c.form, reason });
      const occs = at(rel, c.line, c.col).filter((o) => !(o.roles & DEFINITION));
      if (!occs.length) {
        counts.no_occurrence++;
        site.outcome = "no_symbol";
        leave("no_symbol");
        continue;
      }
      let hit = false,
        inCorpus = false,
        local = false,
        undefinedSymbol = false;
      for (const o of occs) {
        const key = symbolKey(rel, o.symbol);
        if (!symbolDef.has(key) && dangling(o.symbol)) undefinedSymbol = true;
        if (o.symbol.startsWith("local ") && !symbolDef.has(key)) {
          local = true;
          continue;
        }
        if (symbolDef.has(key)) inCorpus = true;
        const callee = calleeOf(rel, o);
        if (!callee) continue;
        hit = true;
        addEdge({
          caller,
          callee: callee.def.qualified,
          file: rel,
          line: c.line,
          via: callee.via,
          caller_kind,
          callee_kind: callee.def.kind,
          form: c.form,
          receiver: c.receiver,
        });
      }
      if (hit) {
        counts.in_corpus_callable++;
        site.outcome = "edge";
      } else if (inCorpus) {
        counts.in_corpus_non_callable++;
        site.outcome = "non_callable";
      } else if (local) {
        counts.local_or_param++;
        site.outcome = "local";
        leave("local_variable_or_parameter");
      } else if (undefinedSymbol) {
        counts.symbol_without_definition++;
        site.outcome = "symbol_without_definition";
        leave("symbol_without_definition");
      } else {
        counts.external_or_non_definition++;
        site.outcome = "external";
      }
    }
  }

  // ---- import edges (file -> file in the corpus, no self-edges, one per pair)
  const importEdges = [];
  const importSeen = new Set();
  const addImport = (from, to, line) => {
    const key = `${from}|${to}`;
    if (from === to || importSeen.has(key)) return;
    importSeen.add(key);
    importEdges.push({ from, to, line });
  };
  if (lang === "python") {
    // from the AST with Python's rules: scip-python's module symbols for relative imports are unreliable
    for (const d of docs)
      if (ok(d.relativePath))
        for (const t of facts[d.relativePath].import_targets) addImport(d.relativePath, t.file, t.line);
  } else {
    // every reference to a module symbol, as tsc resolved it
    for (const d of docs) {
      for (const o of d.occurrences) {
        if (!o.range || o.roles & DEFINITION) continue;
        const to = moduleFile.get(o.symbol);
        if (to) addImport(d.relativePath, to, o.range[0] + 1);
      }
    }
  }

  const definitions = reported
    .sort((a, b) => (a.rel === b.rel ? a.line - b.line : a.rel < b.rel ? -1 : 1))
    .map((d) => ({
      file: d.rel,
      name: d.name,
      qualified: d.qualified,
      kind: d.kind,
      start_line: d.line,
      end_line: d.end_line,
      ...(d.overload_lines ? { overload_lines: d.overload_lines } : {}),
      ...(d.first_line !== d.line ? { first_line: d.first_line } : {}),
      symbol: d.symbol,
    }));
  const tally = (list, f) => list.reduce((acc, x) => ((acc[f(x)] = (acc[f(x)] ?? 0) + 1), acc), Object.create(null));
  return {
    meta: {
      format: "code-graph-gold/1",
      generator: "codeslice test/bench/graph-gold",
      language: lang,
      indexer: `${scip.tool} ${scip.version}`.trim(),
      counts: {
        files: docs.length,
        definitions: definitions.length,
        definitions_by_kind: tally(definitions, (d) => d.kind),
        call_edges: callEdges.length,
        call_edges_by_via: tally(callEdges, (e) => e.via),
        call_edge_pairs: new Set(callEdges.map((e) => `${e.caller}|${e.callee}`)).size,
        import_edges: importEdges.length,
        inherits: inherits.length,
        call_sites: counts,
      },
    },
    definitions,
    call_edges: callEdges,
    import_edges: importEdges,
    inherits,
    unresolved_call_sites: unresolved,
    call_sites: sites,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [, , scipPath, corpusDir, outPath] = process.argv;
  if (!scipPath || !corpusDir || !outPath) {
    console.error("usage: node derive.mjs <index.scip> <corpus-dir> <out.json>");
    process.exit(2);
  }
  const gold = deriveGold(readScip(scipPath), corpusDir);
  fs.writeFileSync(outPath, JSON.stringify(gold));
  console.log(JSON.stringify(gold.meta.counts));
}
