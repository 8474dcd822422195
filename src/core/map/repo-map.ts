/**
 * The repo map, the first thing an agent reads: services (folders with a manifest), languages,
 * entry points (routes, CLI commands, handlers), the most central symbols by a rank over the
 * graph, the layout, and the witnesses (tests, .http files, OpenAPI documents) — fitted exactly
 * to a token budget, most important lines first.
 */
import { isCommandDecorator, languageById, manifestOf } from "../../languages/index.ts";
import { envelopeRecord, fitBlocks, type Block, type Envelope, type FitResult } from "../budget/fit.ts";
import { loadTokenCounter, type Encoding } from "../budget/tokenizer.ts";
import type { FileRecord } from "../extract/record.ts";
import type { CodeGraph } from "../graph/model.ts";
import { isTestPath, testCasesOf, VENDORED_PATH } from "../graph/test-code.ts";
import type { Route } from "../query/routes.ts";
import { EngineError } from "../../shared/errors.ts";
import { LIMITS } from "../limits.ts";
import { cite } from "../../shared/paths.ts";

/** Options for the map. */
export interface RepoMapOptions {
  /** Token budget for the whole map: its text, plus the envelope when there is one (default 2,000). */
  budget?: number;
  encoding?: Encoding;
  /** What the front end adds around the map's text (its records: the languages); the budget covers it. */
  envelope?: Envelope;
}

/** A symbol worth knowing about. */
export interface MapSymbol {
  path: string;
  line: number;
  end: number;
  kind: string;
  qualified: string;
  signature: string;
  /** Rank over the call/type/inheritance graph, normalized so the top symbol is 1. */
  rank: number;
  /** Resolved references (calls, type uses, subclasses) into this symbol. */
  references: number;
}

/** A folder with a manifest. */
export interface MapService {
  path: string;
  manifest: string;
  name?: string;
  files: number;
}

/** An entry point: a route, a CLI command, a handler, a program's top-level `main`. */
export interface MapEntryPoint {
  kind: "route" | "command" | "handler" | "main";
  label: string;
  path: string;
  line: number;
  symbol?: string;
}

/** The map as data plus its rendering. */
/** Definitions of the code that is not the product, by role: counted apart from the central symbols. */
export interface MapApart {
  test: number;
  example: number;
  benchmark: number;
  vendored: number;
}

export interface RepoMap {
  services: MapService[];
  languages: { language: string; files: number; symbols: number }[];
  /** The product's own entry points; when it has none, the first few of its tests', examples' or benchmarks'. */
  entryPoints: MapEntryPoint[];
  /**
   * When the product has no entry point: how many its tests, examples and benchmarks have (the first few are listed);
   * else 0.
   */
  entryPointsElsewhere: number;
  /** Central symbols of the product's own code. */
  symbols: MapSymbol[];
  /** Definitions in tests, examples, benchmarks and vendored code, not ranked. */
  symbolsApart: MapApart;
  layout: { path: string; files: number; sourceFiles: number }[];
  witnesses: { testFiles: number; testFunctions: number; httpFiles: string[]; openapi: string[] };
  /**
   * Files that parsed with syntax errors (indexed only in part): how many, and the first few with their broken lines.
   */
  readPartly: { files: number; list: { path: string; lines: number[] }[] };
  text: string;
  /** A recount of `text`. */
  tokens: number;
  budget: number;
  encoding: Encoding;
  /** Tokens kept for the options' envelope (`tokens + envelope ≤ budget`); present when one was asked for. */
  envelope?: number;
  /** Lines left out to fit the budget. */
  omitted: number;
}

/** Is `path` a manifest file the map understands? */
export function isManifest(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return manifestOf(base) !== undefined;
}

/** Code that is not the product: its tests, examples, benchmarks and vendored copies. */
export type CodeRole = "production" | "test" | "example" | "benchmark" | "vendored";

const ROLE_FOLDERS: [Exclude<CodeRole, "production" | "test">, RegExp][] = [
  ["vendored", VENDORED_PATH],
  ["benchmark", /(^|\/)(bench|benches|benchmarks?|perf)\//i],
  ["example", /(^|\/)(examples?|samples?|demos?|docs_src|docs\/examples)\//i],
];

/** What a file is to the project, by its path (a test by its language's pattern, else the generic one). */
export function codeRole(path: string, language?: string): CodeRole {
  for (const [role, re] of ROLE_FOLDERS) if (re.test(path)) return role;
  return isTestPath(path, language) ? "test" : "production";
}

/** PageRank over symbols with call, type-use and inheritance edges (damping 0.85, 20 rounds). */
function rankSymbols(graph: CodeGraph): Float64Array {
  const n = graph.symbols.length;
  const out: number[][] = Array.from({ length: n }, () => []);
  for (const e of graph.calls) out[e.caller]!.push(e.callee);
  for (const [from, tos] of graph.typeUses) for (const t of tos) out[from]!.push(t);
  for (const e of graph.inherits) out[e.child]!.push(e.base);
  let rank = new Float64Array(n).fill(1 / Math.max(1, n));
  for (let round = 0; round < 20; round++) {
    const next = new Float64Array(n).fill(0.15 / Math.max(1, n));
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      const targets = out[i]!;
      if (targets.length === 0) dangling += rank[i]!;
      else for (const t of targets) next[t]! += (0.85 * rank[i]!) / targets.length;
    }
    for (let i = 0; i < n; i++) next[i]! += (0.85 * dangling) / n;
    rank = next;
  }
  return rank;
}

/** A file of the project as the map sees it: its path, and its language when it is indexed. */
export interface MapFile {
  path: string;
  language?: string;
}

/** Builds and renders the map within `budget` tokens; throws `budget_too_small` below the header's size. */
export async function buildRepoMap(
  files: readonly MapFile[],
  graph: CodeGraph,
  manifests: Map<string, string>,
  routes: Route[],
  options: RepoMapOptions = {},
): Promise<RepoMap> {
  const budget = options.budget ?? LIMITS.budget.map;
  const { min, max } = LIMITS.budget;
  if (!Number.isInteger(budget) || budget < min || budget > max) {
    throw new EngineError(
      "invalid_argument",
      `budget must be a whole number of tokens from ${min} to ${max}, got ${budget}.`,
      { data: { budget, min, max } },
    );
  }
  const encoding = options.encoding ?? "o200k_base";
  const count = await loadTokenCounter(encoding);
  const records = [...graph.records.values()];
  const parts: MapParts = {
    languages: mapLanguages(records),
    services: mapServices(files, manifests),
    ...entryPointParts(mapEntryPoints(graph, routes)),
    ...symbolParts(centralSymbols(graph)),
    layout: mapLayout(files),
    witnesses: mapWitnesses(files, graph),
    readPartly: readPartly(records),
  };
  const lines = mapLines(files, graph, records.length, parts);
  const envelope =
    options.envelope === undefined
      ? 0
      : options.envelope.fixed +
        (options.envelope.perRecord === undefined
          ? 0
          : parts.languages.reduce(
              (a, l) =>
                a +
                count(JSON.stringify(envelopeRecord(l, options.envelope!.fields?.language))) +
                options.envelope!.perRecord!,
              0,
            ));
  const fit = fitMapLines(lines, budget, count, envelope);
  const { services, languages, entryPoints, entryPointsElsewhere, symbols, symbolsApart, layout, witnesses } = parts;
  const { text, tokens } = fit;
  return {
    services,
    languages,
    entryPoints,
    entryPointsElsewhere,
    symbols: symbols.slice(0, 50),
    symbolsApart,
    layout,
    witnesses: {
      testFiles: witnesses.testFiles.size,
      testFunctions: witnesses.testFunctions,
      httpFiles: witnesses.httpFiles,
      openapi: witnesses.openapi,
    },
    readPartly: parts.readPartly,
    text,
    tokens,
    budget,
    encoding,
    ...(options.envelope !== undefined ? { envelope: fit.envelope } : {}),
    omitted: fit.omitted,
  };
}

const entryPointParts = (e: { entryPoints: MapEntryPoint[]; elsewhere: number }) => ({
  entryPoints: e.entryPoints,
  entryPointsElsewhere: e.elsewhere,
});
const symbolParts = (c: { symbols: MapSymbol[]; apart: MapApart }) => ({ symbols: c.symbols, symbolsApart: c.apart });

/** What the map shows, section by section, before it is rendered. */
interface MapParts {
  languages: RepoMap["languages"];
  services: MapService[];
  entryPoints: MapEntryPoint[];
  entryPointsElsewhere: number;
  symbols: MapSymbol[];
  symbolsApart: MapApart;
  layout: RepoMap["layout"];
  witnesses: { testFiles: Set<string>; testFunctions: number; httpFiles: string[]; openapi: string[] };
  readPartly: RepoMap["readPartly"];
}

/** The most files with syntax errors the map names one by one. */
const MAX_READ_PARTLY = 10;

/** Files with syntax errors, most errors first: what sits in their broken regions is not indexed. */
function readPartly(records: FileRecord[]): RepoMap["readPartly"] {
  const broken = records
    .filter((r) => r.diagnostics.length > 0)
    .sort((a, b) => b.diagnostics.length - a.diagnostics.length || (a.path < b.path ? -1 : 1));
  return {
    files: broken.length,
    list: broken.slice(0, MAX_READ_PARTLY).map((r) => ({ path: r.path, lines: r.diagnostics.map((d) => d.line) })),
  };
}

/** Files and symbols per language, most files first. */
function mapLanguages(records: FileRecord[]): RepoMap["languages"] {
  const langs = new Map<string, { files: number; symbols: number }>();
  for (const r of records) {
    const name = languageById(r.language)?.name ?? r.language;
    const e = langs.get(name) ?? { files: 0, symbols: 0 };
    e.files++;
    e.symbols += r.definitions.length;
    langs.set(name, e);
  }
  return [...langs].map(([language, v]) => ({ language, ...v })).sort((a, b) => b.files - a.files);
}

/**
 * Services: each folder with a manifest; files counted under the deepest service folder. Of a folder's several
 * manifests, one that names the package comes first (fzf's `go.mod` "github.com/junegunn/fzf", not the `Gemfile`
 * of its Ruby tests, which names nothing), then the first by name.
 */
function mapServices(files: readonly MapFile[], manifests: Map<string, string>): MapService[] {
  const byFolder = new Map<string, MapService>();
  for (const [path, text] of [...manifests].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const base = path.slice(path.lastIndexOf("/") + 1);
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    const name = manifestOf(base)?.name(text);
    const seen = byFolder.get(dir);
    if (seen && (seen.name !== undefined || !name)) continue;
    byFolder.set(dir, { path: dir, manifest: base, ...(name ? { name } : {}), files: 0 });
  }
  const services = [...byFolder.values()];
  for (const f of files) {
    let best: MapService | undefined;
    for (const s of services)
      if ((s.path === "" || f.path.startsWith(`${s.path}/`)) && (!best || s.path.length > best.path.length)) best = s;
    if (best) best.files++;
  }
  // The root package first, then the product's own packages, then benchmarks, examples and the like.
  const rank = (s: MapService) => (s.path === "" ? 0 : codeRole(`${s.path}/x`) === "production" ? 1 : 2);
  return services.sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const APART_WORDS: Record<keyof MapApart, string> = {
  test: "tests",
  example: "examples",
  benchmark: "benchmarks",
  vendored: "vendored code",
};

/** Entry points of tests, examples and benchmarks the map names when the product has none. */
const ELSEWHERE_SHOWN = 3;

/**
 * Entry points: routes, decorated commands, handlers and top-level `main` functions of the product's own
 * code. A test's app, an example's or a benchmark's are witnesses: when the product registers none (a
 * framework's own repository), the first few are named and all of them counted (`elsewhere`).
 */
function mapEntryPoints(graph: CodeGraph, routes: Route[]): { entryPoints: MapEntryPoint[]; elsewhere: number } {
  const all: (MapEntryPoint & { production: boolean })[] = [];
  const seenRoute = new Set<string>();
  for (const r of routes) {
    const label = `${r.method} ${r.path}`;
    if (seenRoute.has(label)) continue;
    seenRoute.add(label);
    const production = r.test !== true && codeRole(r.file, graph.records.get(r.file)?.language) === "production";
    all.push({
      kind: "route",
      label,
      path: r.file,
      line: r.line,
      ...(r.handler !== undefined ? { symbol: graph.symbols[r.handler]!.qualified } : {}),
      production,
    });
  }
  for (const s of graph.symbols) {
    if (s.kind === "module") continue;
    // A program's top-level `main` (Go's `func main`, a script's `def main`), as flows count it: a CLI like fzf
    // registers no route or command and had no entry point in its map.
    if (s.name === "main" && s.kind === "function" && graph.symbols[s.parent]?.kind === "module") {
      const production = codeRole(s.file, s.language) === "production";
      all.push({ kind: "main", label: s.qualified, path: s.file, line: s.nameLine, symbol: s.qualified, production });
      continue;
    }
    const d = graph.records.get(s.file)!.definitions[s.index]!;
    const dec = d.decorators?.find((x) => isCommandDecorator(s.language, x));
    if (dec) {
      const kind = /command|group|subcommand|callback|cli/.test(dec) ? "command" : "handler";
      all.push({
        kind,
        label: `${dec.slice(0, 60)} ${s.name}`,
        path: s.file,
        line: s.nameLine,
        symbol: s.qualified,
        production: codeRole(s.file, s.language) === "production",
      });
    }
  }
  const own = all.filter((e) => e.production);
  const shown = own.length ? own : all.slice(0, ELSEWHERE_SHOWN);
  return { entryPoints: shown.map(({ production: _p, ...e }) => e), elsewhere: own.length ? 0 : all.length };
}

/**
 * The 60 most central referenced symbols of the product's own code, by rank then references: not
 * tests, examples, benchmarks or vendored copies (counted apart), and not functions local to a
 * function (a React hook's inner helper is no landmark of the repository).
 */
function centralSymbols(graph: CodeGraph): { symbols: MapSymbol[]; apart: MapApart } {
  const rank = rankSymbols(graph);
  const refs = new Map<number, number>();
  for (const e of graph.calls) refs.set(e.callee, (refs.get(e.callee) ?? 0) + 1);
  for (const tos of graph.typeUses.values()) for (const t of tos) refs.set(t, (refs.get(t) ?? 0) + 1);
  for (const e of graph.inherits) refs.set(e.base, (refs.get(e.base) ?? 0) + 1);
  const apart: MapApart = { test: 0, example: 0, benchmark: 0, vendored: 0 };
  const roleOf = new Map<string, CodeRole>();
  const production = (s: CodeGraph["symbols"][number]) => {
    let role = roleOf.get(s.file);
    if (role === undefined) roleOf.set(s.file, (role = codeRole(s.file, s.language)));
    if (role !== "production" && s.kind !== "module") apart[role]++;
    return role === "production";
  };
  const local = (s: CodeGraph["symbols"][number]) => {
    const p = s.parent >= 0 ? graph.symbols[s.parent] : undefined;
    return p !== undefined && (p.kind === "function" || p.kind === "method");
  };
  const ranked = graph.symbols
    .filter((s) => s.kind !== "module" && production(s) && !local(s) && (refs.get(s.id) ?? 0) > 0)
    .sort((a, b) => rank[b.id]! - rank[a.id]! || (refs.get(b.id) ?? 0) - (refs.get(a.id) ?? 0));
  const top = ranked[0] ? rank[ranked[0].id]! : 1;
  const symbols = ranked.slice(0, 60).map((s) => {
    const d = graph.records.get(s.file)!.definitions[s.index]!;
    return {
      path: s.file,
      line: s.start,
      end: s.end,
      kind: s.kind,
      qualified: s.qualified,
      signature: d.signature.split("\n")[0]!.trim().slice(0, 140),
      rank: Math.round((rank[s.id]! / top) * 1000) / 1000,
      references: refs.get(s.id) ?? 0,
    };
  });
  return { symbols, apart };
}

/** Folders one and two levels deep, with their file counts. */
function mapLayout(files: readonly MapFile[]): RepoMap["layout"] {
  const dirs = new Map<string, { files: number; sourceFiles: number }>();
  for (const f of files) {
    const parts = f.path.split("/");
    for (let depth = 1; depth <= Math.min(2, parts.length - 1); depth++) {
      const d = `${parts.slice(0, depth).join("/")}/`;
      const e = dirs.get(d) ?? { files: 0, sourceFiles: 0 };
      e.files++;
      if (f.language) e.sourceFiles++;
      dirs.set(d, e);
    }
  }
  return [...dirs].map(([path, v]) => ({ path, ...v })).sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Test files and functions, .http requests and OpenAPI documents. */
function mapWitnesses(files: readonly MapFile[], graph: CodeGraph): MapParts["witnesses"] {
  const testFiles = new Set(
    files
      .filter((f) => f.language && codeRole(f.path, graph.records.get(f.path)?.language) === "test")
      .map((f) => f.path),
  );
  // Test cases by their runner's rules: each `it(`/`test(` call, each pytest `test_*`, each Go `Test*`.
  let testFunctions = 0;
  for (const ids of testCasesOf(graph).values()) testFunctions += ids.size;
  const httpFiles = files.filter((f) => /\.(http|rest)$/i.test(f.path)).map((f) => f.path);
  const openapi = files.filter((f) => /(^|\/)(openapi|swagger)[^/]*\.(json|ya?ml)$/i.test(f.path)).map((f) => f.path);
  return { testFiles, testFunctions, httpFiles, openapi };
}

/** A line of the map with its section and priority: lower goes in first; rendering keeps section order. */
interface MapLine {
  section: number;
  order: number;
  priority: number;
  text: string;
  /**
   * An entry of a list the map may show in part (the files read only in part): after the last entry
   * shown, rendering says how many of `of` were left out, whether the list's cap or the budget left them.
   */
  list?: { of: number };
}

/** The map's lines, section by section: the title and how to cite, then each section's header and entries. */
function mapLines(files: readonly MapFile[], graph: CodeGraph, indexed: number, parts: MapParts): MapLine[] {
  const { languages, services, entryPoints, entryPointsElsewhere, symbols, symbolsApart, layout, witnesses } = parts;
  const lines: MapLine[] = [];
  const add = (section: number, priority: number, text: string, list?: MapLine["list"]) =>
    lines.push({ section, order: lines.length, priority, text, ...(list ? { list } : {}) });
  add(0, 0, `# Repo map: ${files.length} files, ${indexed} indexed, ${graph.symbols.length - indexed} symbols`);
  add(0, 0, "Cite lines as path:line. Use context <symbol|path|METHOD /path|words> for code, signature for headers.");
  add(1, 1, "## Languages");
  languages.forEach((l, i) => add(1, i < 4 ? 1 : 6, `- ${l.language}: ${l.files} files, ${l.symbols} symbols`));
  if (services.length) {
    add(2, 2, "## Services (folders with a manifest)");
    services.forEach((s, i) =>
      add(2, i < 8 ? 2 : 7, `- ${s.path || "."}/ ${s.manifest}${s.name ? ` "${s.name}"` : ""} (${s.files} files)`),
    );
  }
  if (entryPoints.length) {
    add(3, 3, "## Entry points");
    if (entryPointsElsewhere)
      add(
        3,
        3,
        `- none in the product's own code; ${entryPointsElsewhere} in tests, examples and ` +
          `benchmarks${entryPointsElsewhere > entryPoints.length ? `, the first ${entryPoints.length}` : ""}:`,
      );
    entryPoints.forEach((e, i) =>
      add(
        3,
        i < 12 ? 3 : 8,
        `- ${e.kind} ${e.label}${e.symbol && e.kind === "route" ? ` → ${e.symbol}` : ""} (${cite(e.path, e.line)})`,
      ),
    );
  }
  if (symbols.length) {
    // What is left out of the ranking is a note under the header, not an entry: as a bullet it read
    // as a symbol line ("- of the product's own code; …") opening the list.
    add(4, 3, "## Central symbols of the product's own code (rank over calls, types and inheritance)");
    const apart = (Object.entries(symbolsApart) as [keyof MapApart, number][])
      .filter(([, n]) => n > 0)
      .map(([role, n], i) => `${n}${i === 0 ? ` definition${n === 1 ? "" : "s"}` : ""} in ${APART_WORDS[role]}`);
    if (apart.length) add(4, 3, `Not ranked: ${apart.join(", ")}.`);
    symbols.forEach((s, i) =>
      add(
        4,
        i < 15 ? 3 : i < 30 ? 5 : 9,
        `- ${cite(s.path, s.line, s.end)} ${s.kind} ${s.qualified} (${s.references} refs): ${s.signature}`,
      ),
    );
  }
  add(5, 4, "## Layout");
  layout.forEach((d) =>
    add(
      5,
      d.path.split("/").length > 2 ? 8 : 4,
      `${d.path.split("/").length > 2 ? "  " : ""}- ${d.path} ${d.files} ` +
        `files${d.sourceFiles ? ` (${d.sourceFiles} source)` : ""}`,
    ),
  );
  add(6, 4, "## Witnesses");
  add(6, 4, `- tests: ${witnesses.testFiles.size} files, ${witnesses.testFunctions} test functions`);
  const { httpFiles, openapi } = witnesses;
  if (httpFiles.length)
    add(
      6,
      5,
      `- .http/.rest requests: ` +
        `${httpFiles.slice(0, 5).join(", ")}${httpFiles.length > 5 ? ` +${httpFiles.length - 5} more` : ""}`,
    );
  if (openapi.length) add(6, 5, `- OpenAPI: ${openapi.slice(0, 5).join(", ")}`);
  const { readPartly: broken } = parts;
  if (broken.files) {
    add(
      7,
      4,
      `## Read only in part: ${broken.files} file${broken.files > 1 ? "s" : ""} with syntax errors (what their ` +
        `broken lines hold is not indexed)`,
    );
    broken.list.forEach((f, i) =>
      add(
        7,
        i < 3 ? 4 : 7,
        `- ${f.path}: line${f.lines.length > 1 ? "s" : ""} ${f.lines.join(", ")}${f.lines.length >= 5 ? ", …" : ""}`,
        { of: broken.files },
      ),
    );
  }
  return lines;
}

/**
 * The map's lines fitted to the budget. The title and how to cite are the header: the map has them
 * or it is no map. Every other line is a block with its priority; rendering keeps section order,
 * with a blank line between sections and no section header without lines under it.
 */
function fitMapLines(lines: MapLine[], budget: number, count: (text: string) => number, envelope: number): FitResult {
  const [title, how, ...rest] = lines;
  // A line's cost with its newline is nearly exact: the tokenizer does not merge across lines.
  const blocks: Block[] = rest.map((l) => ({ full: l.text, priority: l.priority, cost: count(`${l.text}\n`) + 1 }));
  const join = (parts: readonly { index: number; text: string }[]) => {
    const out: string[] = [];
    let section = 0;
    // A list shown in part ends with how many of its entries are not shown: counted from what the
    // fit kept (a fixed "… and N more" line kept by itself miscounted, or stood where the budget
    // had cut the entries above it).
    let listed: { of: number; shown: number } | undefined;
    const endList = () => {
      if (listed && listed.of > listed.shown) out.push(`- … and ${listed.of - listed.shown} more`);
      listed = undefined;
    };
    for (const p of parts) {
      const l = rest[p.index]!;
      if (!l.list) endList();
      if (l.section !== section) out.push("");
      section = l.section;
      out.push(p.text);
      if (l.list) listed = { of: l.list.of, shown: (listed?.shown ?? 0) + 1 };
    }
    endList();
    return out.filter((t, i) => !(t.startsWith("## ") && (out[i + 1] === undefined || out[i + 1] === ""))).join("\n");
  };
  return fitBlocks({
    header: `${title!.text}\n${how!.text}`,
    blocks,
    budget,
    count,
    separator: "\n",
    join,
    envelope,
    smallest: "the map's header",
  });
}
