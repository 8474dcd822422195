// Sorts the remaining misses into kinds, so the benchmark says *what* to fix next, not only how much.
//
// Call edges are judged on the loose key (file, call-site line, callee):
//   missed (FN)  a gold edge codeslice lacks. Kind = the call's shape (`f()`, `self.m()`, `x.m()`,
//                `self.x.m()`, `f().m()`, `new X()`, `super(...)`...) → the callee's kind, and whether
//                codeslice put no edge on that call site or an edge to another target.
//   extra (FP)   a codeslice edge the gold lacks. Kind = the call's shape, codeslice's `resolution`,
//                and what the checker made of that call site: another in-corpus target ("wrong
//                target"), something outside the corpus or not a definition ("checker: external"),
//                a property/accessor/type ("checker: not callable"), or nothing it could resolve
//                ("checker: unresolvable", which prec_adj leaves out).
//   An FN and an FP with the same caller and callee a few lines apart are one miss: "line differs".
// Definitions, import edges and inherits misses are counted by kind too.

const SHAPES = {
  python: {
    none: "f()",
    self: "self.m()",
    cls: "cls.m()",
    super: "super().m()",
    name: "x.m()",
    "self-attr": "self.x.m()",
    chain: "a.b.m()",
    "call-result": "f().m()",
    subscript: "x[i].m()",
    literal: "'lit'.m()",
    other: "(expr).m()",
    computed: "computed callee",
  },
  typescript: {
    none: "f()",
    this: "this.m()",
    super: "super.m()",
    name: "x.m()",
    "this-attr": "this.x.m()",
    chain: "a.b.m()",
    "call-result": "f().m()",
    subscript: "x[i].m()",
    other: "(expr).m()",
    computed: "computed callee",
  },
  go: {
    none: "f()",
    pkg: "pkg.F()",
    name: "x.M()",
    chain: "a.b.M()",
    "call-result": "f().M()",
    subscript: "x[i].M()",
    literal: "T{}.M()",
    other: "(expr).M()",
    computed: "computed callee",
  },
  java: {
    none: "m()",
    this: "this.m()",
    super: "super.m()",
    type: "Type.m()",
    name: "x.m()",
    "this-attr": "this.x.m()",
    chain: "a.b.m()",
    "call-result": "f().m()",
    "new-result": "new X().m()",
    subscript: "x[i].m()",
    literal: "'lit'.m()",
    other: "(expr).m()",
    computed: "computed callee",
    outer: "outer.new X()",
  },
  rust: {
    none: "f()",
    value: "x.m()",
    path: "a::f()",
    Self: "Self::f()",
    self: "self::f()",
    super: "super::f()",
    crate: "crate::f()",
  },
  // C/C++ gold edges carry a form instead of a receiver kind
  c: { plain: "f()", member: "x.m() / p->m()", macro: "MACRO()" },
  cpp: { plain: "f() / ns::f() / T::m()", member: "x.m() / p->m()", macro: "MACRO()" },
};

function shapeOf(lang, site) {
  if (!site) return "no call here per the parser";
  if (site.form === "super") return "super(...)";
  if (site.form === "this") return "this(...)";
  const key = site.receiver ?? site.form;
  const receiver = SHAPES[lang]?.[key] ?? key ?? "?";
  if (site.form === "new") return site.receiver === "none" ? "new X()" : `new ${receiver.replace(/m\(\)$/, "X()")}`;
  if (site.form === "tagged") return "tagged template";
  return receiver;
}

const CHECKER = {
  edge: "checker: another in-corpus target",
  external: "checker: external or not a definition",
  non_callable: "checker: not callable (property/accessor/type)",
  local: "checker: unresolvable (local/parameter; prec_adj ignores it)",
  no_symbol: "checker: unresolvable (no symbol; prec_adj ignores it)",
  no_token: "checker: unresolvable (computed callee; prec_adj ignores it)",
  local_or_param: "checker: unresolvable (local/parameter; prec_adj ignores it)",
  value: "checker: unresolvable (a value: field, call result; prec_adj ignores it)",
  not_an_fn_item: "checker: unresolvable (fn pointer; prec_adj ignores it)",
  no_definition: "checker: unresolvable (macro-generated; prec_adj ignores it)",
};

const lastName = (qualified) => qualified.split(/[.#]/).pop();
const bare = (name) => name?.replace(/^_+/, "").toLowerCase();

/** The call site on a line that a candidate edge stands for: same name, else an alias-like name
 *  (`_overwrite` for `overwrite`), else a site no other edge on the line claims. */
function siteOf(edge, sites, edgesOnLine) {
  if (sites.length <= 1) return sites[0];
  const name = lastName(edge.callee);
  const exact = sites.find((s) => s.name === name);
  if (exact) return exact;
  const alike = sites.find((s) => bare(s.name) === bare(name));
  if (alike) return alike;
  const claimed = new Set(edgesOnLine.map((e) => lastName(e.callee)));
  return sites.find((s) => !claimed.has(s.name)) ?? sites[0];
}

/**
 * @param gold a gold graph from derive.mjs (with `call_sites`)
 * @param cand the codeslice graph
 * @param detail scoreGraph(...).detail
 * @returns {Map<string, {count: number, examples: string[]}>}
 */
export function missKinds(gold, cand, detail) {
  const lang = gold.meta.language;
  const kinds = new Map();
  const add = (kind, example) => {
    const k = kinds.get(kind) ?? { count: 0, examples: [] };
    k.count++;
    if (k.examples.length < 3) k.examples.push(example);
    kinds.set(kind, k);
  };
  const place = (file, line) => `${file}\u0000${line}`;
  const sitesAt = new Map();
  for (const s of gold.call_sites ?? []) {
    const k = place(s.file, s.line);
    if (!sitesAt.has(k)) sitesAt.set(k, []);
    sitesAt.get(k).push(s);
  }
  const candAt = new Map();
  for (const e of cand.call_edges ?? []) {
    const k = place(e.file, e.line);
    if (!candAt.has(k)) candAt.set(k, []);
    candAt.get(k).push(e);
  }

  // FN/FP pairs that differ only by the reported line (same caller and callee, ≤ 3 lines apart)
  const pairedExtra = new Set();
  const pairedMissed = new Set();
  const extraByPair = new Map();
  for (const e of detail.edges_extra) {
    const k = `${e.caller}|${e.callee}|${e.file}`;
    if (!extraByPair.has(k)) extraByPair.set(k, []);
    extraByPair.get(k).push(e);
  }
  for (const g of detail.edges_missed) {
    const near = (extraByPair.get(`${g.caller}|${g.callee}|${g.file}`) ?? []).find(
      (e) => !pairedExtra.has(e) && Math.abs(e.line - g.line) <= 3,
    );
    if (near) {
      pairedExtra.add(near);
      pairedMissed.add(g);
      add(
        `line differs: ${shapeOf(lang, g)} (codeslice cites line ${near.line > g.line ? "after" : "before"} the callee token)`,
        `${g.file}:${g.line} vs :${near.line} ${g.callee}`,
      );
    }
  }

  for (const g of detail.edges_missed) {
    if (pairedMissed.has(g)) continue;
    const others = candAt.get(place(g.file, g.line)) ?? [];
    const same = others.filter((e) => lastName(e.callee) === lastName(g.callee));
    const outcome =
      others.length === 0
        ? "no edge on the line"
        : same.length
          ? `edge to a same-named other target (via ${[...new Set(same.map((e) => e.resolution ?? "?"))].join("/")})`
          : "no edge for this call";
    const via = (lang === "go" || lang === "java") && g.via !== "call" ? ` (${g.via})` : "";
    add(
      `missed: ${shapeOf(lang, g)} → ${g.callee_kind}${via}, ${outcome}`,
      `${g.file}:${g.line} ${g.caller} → ${g.callee}`,
    );
  }
  for (const e of detail.edges_extra) {
    if (pairedExtra.has(e)) continue;
    const site = siteOf(e, sitesAt.get(place(e.file, e.line)) ?? [], candAt.get(place(e.file, e.line)) ?? []);
    const checker = site ? (CHECKER[site.outcome] ?? site.outcome) : "no call site on the line per the parser";
    add(
      `extra: ${shapeOf(lang, site)} via ${e.resolution ?? "?"}, ${checker}`,
      `${e.file}:${e.line} ${e.caller} → ${e.callee}`,
    );
  }
  for (const d of detail.definitions_missed)
    add(`missed definition: ${d.kind}`, `${d.file}:${d.start_line} ${d.qualified}`);
  for (const d of detail.definitions_extra)
    add(`extra definition: ${d.kind ?? "?"}`, `${d.file}:${d.start_line} ${d.qualified ?? d.name}`);
  for (const k of detail.imports_missed) add("missed import edge", k);
  for (const k of detail.imports_extra) add("extra import edge", k);
  for (const k of detail.inherits_missed) add("missed inherits", k);
  for (const k of detail.inherits_extra) add("extra inherits", k);
  return kinds;
}

/** Adds counts per corpus into one table: kind -> { total, by: { corpus: n }, examples }. */
export function mergeKinds(perCorpus) {
  const all = new Map();
  for (const [corpus, kinds] of Object.entries(perCorpus)) {
    for (const [kind, { count, examples }] of kinds) {
      const k = all.get(kind) ?? { total: 0, by: {}, examples: [] };
      k.total += count;
      k.by[corpus] = count;
      if (k.examples.length < 3) k.examples.push(`${corpus}: ${examples[0]}`);
      all.set(kind, k);
    }
  }
  return [...all].sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1));
}
