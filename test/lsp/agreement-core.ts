/**
 * The language server's answers against the CLI's, with no transport and no Node in it, so the
 * stdio suite (test/lsp/lsp.test.ts, through agreement.ts) and the browser server's suite in
 * Chromium (test/browser/lsp.chromium.ts) compare the same things: for a sample of symbols the CLI
 * names (`graph --json`), ask the server at real positions (each symbol's name, each call site
 * `callers` lists) and compare with `callers`, `callees`, `signature`, `tests` and `search --json`
 * run on the same project. Returns the positions checked per request and every disagreement, so a
 * test asserts both (a checker that compares nothing fails on the counts).
 */
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  CodeLens,
  DocumentSymbol,
  Hover,
  Location,
  WorkspaceSymbol,
} from "vscode-languageserver-protocol";

/** A client of either transport: a connection that sends requests, and the project's document URIs. */
export interface LspClient {
  connection: { sendRequest(method: string, params: unknown): Promise<unknown> };
  rootUri: string;
  uri(path: string): string;
}

export interface GoldDef {
  file: string;
  name: string;
  qualified: string;
  kind: string;
  start_line: number;
}
export interface GoldEdge {
  caller: string;
  callee: string;
  file: string;
  line: number;
  resolution: string;
}
export interface CallersJson {
  results: { qualified: string; site: { path: string; line: number }; resolution: string; confidence: number }[];
  possible: { caller: { qualified: string }; site: { path: string; line: number } }[];
  total: { results: number; possible: number };
}
/** `graph --json`, as far as the comparison reads it. */
export interface GraphJson {
  definitions: GoldDef[];
  call_edges: GoldEdge[];
  dispatch_edges: GoldEdge[];
}

/** What the CLI answered for one sampled symbol. */
export type CliAnswers = {
  callers: CallersJson;
  callees: CallersJson;
  signature: { text: string };
  tests: { total: number };
  search: { results: { qualified: string }[] };
};

/** Everything the comparison needs from the CLI: every definition, the sampled symbols and their answers. */
export interface Gold {
  definitions: GoldDef[];
  symbols: GoldDef[];
  answers: CliAnswers[];
}

/** How many positions each request was checked at, and what disagreed. */
export interface Agreement {
  checked: Record<
    "definition" | "references" | "hover" | "documentSymbol" | "workspaceSymbol" | "callHierarchy" | "codeLens",
    number
  >;
  mismatches: string[];
}

/** A file's line `n` (1-based). */
export type LineOf = (file: string, n: number) => string;

/** The 0-based column of `name` as a whole word in `line`, or -1. */
export function columnOf(line: string, name: string): number {
  const m = new RegExp(`(?<![\\p{L}\\p{N}_$])${name.replace(/[$]/g, "\\$")}(?![\\p{L}\\p{N}_$])`, "u").exec(line);
  return m ? m.index : -1;
}

/** `n` entries spread evenly over `list`. */
function spread<T>(list: T[], n: number): T[] {
  if (list.length <= n) return list;
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]!);
}

const sorted = (xs: Iterable<string>) => [...xs].sort();
const same = (a: Iterable<string>, b: Iterable<string>) =>
  JSON.stringify(sorted(new Set(a))) === JSON.stringify(sorted(new Set(b)));
/** Every entry of `part` is in `whole`. */
const within = (part: Iterable<string>, whole: Iterable<string>) => {
  const all = new Set(whole);
  return [...part].every((x) => all.has(x));
};

/** Every request at one symbol's name and its call sites. */
async function checkSymbol(s: LspClient, d: GoldDef, cli: CliAnswers, lineOf: LineOf, out: Agreement): Promise<void> {
  const c = s.connection;
  const doc = { uri: s.uri(d.file) };
  const at = { line: d.start_line - 1, character: columnOf(lineOf(d.file, d.start_line), d.name) };
  const bad = (what: string, detail: unknown) =>
    void out.mismatches.push(`${what} ${d.qualified}: ${JSON.stringify(detail).slice(0, 600)}`);
  if ("error" in cli.callers || cli.callers.total.results > cli.callers.results.length) return bad("cli", cli.callers);

  // references: the call sites `callers` lists, and its possible callers marked ambiguous.
  const refs = (await c.sendRequest("textDocument/references", {
    textDocument: doc,
    position: at,
    context: { includeDeclaration: false },
  })) as (Location & { data: { resolution: string } })[];
  const site = (uri: string, line: number) => `${decodeURIComponent(uri.slice(s.rootUri.length + 1))}:${line}`;
  const linked = refs.filter((r) => r.data.resolution !== "ambiguous").map((r) => site(r.uri, r.range.start.line + 1));
  const possible = refs
    .filter((r) => r.data.resolution === "ambiguous")
    .map((r) => site(r.uri, r.range.start.line + 1));
  // `callers` pages its possible callers (at most --limit); the language server lists them all. A cut page is
  // compared as a part of the server's list.
  const cut = cli.callers.total.possible > cli.callers.possible.length;
  const cliPossible = cli.callers.possible.map((p) => `${p.site.path}:${p.site.line}`);
  if (
    !same(
      linked,
      cli.callers.results.map((r) => `${r.site.path}:${r.site.line}`),
    ) ||
    !(cut ? within(cliPossible, possible) : same(possible, cliPossible))
  )
    bad("references", { linked, possible, cli: cli.callers.results.map((r) => r.site) });
  out.checked.references++;

  // definition at each call site `callers` lists (non-ambiguous): the symbol is among the answers.
  for (const r of cli.callers.results.slice(0, 3)) {
    const col = columnOf(
      lineOf(r.site.path, r.site.line),
      d.kind === "class" || d.name === "constructor" ? d.name : d.name,
    );
    if (col < 0) continue;
    const defs = (await c.sendRequest("textDocument/definition", {
      textDocument: { uri: s.uri(r.site.path) },
      position: { line: r.site.line - 1, character: col },
    })) as (Location & { data: { qualified: string } })[];
    if (!defs.some((x) => x.data.qualified === d.qualified && x.range.start.line === d.start_line - 1))
      bad("definition", { at: r.site, defs: defs.map((x) => x.data.qualified) });
    out.checked.definition++;
  }

  // hover: the signature and docstring `signature` gives.
  const hover = (await c.sendRequest("textDocument/hover", { textDocument: doc, position: at })) as Hover | null;
  const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
  if (!value.includes(cli.signature.text)) bad("hover", { value, cli: cli.signature.text });
  out.checked.hover++;

  // workspace/symbol: `search` for the name, same symbols in the same order.
  const ws = (await c.sendRequest("workspace/symbol", { query: d.name })) as (WorkspaceSymbol & {
    data: { qualified: string };
  })[];
  if ("error" in cli.search) {
    // No searchable words for `search` (a stop word): the server answers the names that start with it.
    if (!ws.length || ws.some((w) => !w.name.toLowerCase().startsWith(d.name.toLowerCase())))
      bad(
        "workspaceSymbol (names)",
        ws.map((w) => w.name),
      );
  } else if (
    JSON.stringify(ws.map((w) => w.data.qualified)) !== JSON.stringify(cli.search.results.map((r) => r.qualified))
  ) {
    bad("workspaceSymbol", { lsp: ws.map((w) => w.data.qualified), cli: cli.search.results.map((r) => r.qualified) });
  }
  out.checked.workspaceSymbol++;

  await checkHierarchy(s, doc, at, d, cli, bad);
  out.checked.callHierarchy++;
  await checkLens(s, doc, d, cli, bad);
  out.checked.codeLens++;
}

/** Call hierarchy: incoming calls are `callers`' callers with their sites, outgoing calls are `callees`' callees. */
async function checkHierarchy(
  s: LspClient,
  doc: { uri: string },
  at: { line: number; character: number },
  d: GoldDef,
  cli: CliAnswers,
  bad: (what: string, detail: unknown) => void,
): Promise<void> {
  const c = s.connection;
  const items = (await c.sendRequest("textDocument/prepareCallHierarchy", { textDocument: doc, position: at })) as
    | CallHierarchyItem[]
    | null;
  const item = items?.[0];
  if (!item || (item.data as { qualified: string }).qualified !== d.qualified)
    return bad("prepareCallHierarchy", items);
  const incoming = (await c.sendRequest("callHierarchy/incomingCalls", { item })) as CallHierarchyIncomingCall[];
  const lspIn = incoming.flatMap((x) => x.fromRanges.map((r) => `${x.from.detail}@${r.start.line + 1}`));
  const cliIn = [
    ...cli.callers.results.map((r) => `${r.qualified}@${r.site.line}`),
    ...cli.callers.possible.map((p) => `${p.caller.qualified}@${p.site.line}`),
  ];
  const cut = cli.callers.total.possible > cli.callers.possible.length;
  if (!(cut ? within(cliIn, lspIn) : same(lspIn, cliIn))) bad("incomingCalls", { lspIn, cliIn });
  const outgoing = (await c.sendRequest("callHierarchy/outgoingCalls", { item })) as CallHierarchyOutgoingCall[];
  const lspOut = outgoing.flatMap((x) => x.fromRanges.map((r) => `${x.to.detail}@${r.start.line + 1}`));
  const cliOut = cli.callees.results.map((r) => `${r.qualified}@${r.site.line}`);
  if (!same(lspOut, cliOut)) bad("outgoingCalls", { lspOut, cliOut });
}

/** Code lens: the callers count is `callers`' total, the possible count its possible total, the tests count `tests`' total. */
async function checkLens(
  s: LspClient,
  doc: { uri: string },
  d: GoldDef,
  cli: CliAnswers,
  bad: (what: string, detail: unknown) => void,
): Promise<void> {
  const c = s.connection;
  const lenses = (await c.sendRequest("textDocument/codeLens", { textDocument: doc })) as CodeLens[];
  const lens = lenses.find((l) => (l.data as { qualified: string }).qualified === d.qualified);
  if (!lens) return bad("codeLens", "no lens");
  const resolved = (await c.sendRequest("codeLens/resolve", lens)) as CodeLens & {
    data: { callers: number; possible: number; tests: number };
  };
  const want = { callers: cli.callers.total.results, possible: cli.callers.total.possible, tests: cli.tests.total };
  const got = { callers: resolved.data.callers, possible: resolved.data.possible, tests: resolved.data.tests };
  if (
    JSON.stringify(got) !== JSON.stringify(want) ||
    (resolved.command?.arguments?.[2] as unknown[]).length !== want.callers
  )
    bad("codeLens", { got, want });
}

/** Document symbols of up to 60 files: the definitions `graph --json` lists there, at their name lines. */
async function checkDocumentSymbols(s: LspClient, defs: GoldDef[], out: Agreement): Promise<void> {
  const byFile = new Map<string, GoldDef[]>();
  for (const d of defs) (byFile.get(d.file) ?? byFile.set(d.file, []).get(d.file)!).push(d);
  for (const file of spread(sorted(byFile.keys()), 60)) {
    const symbols = (await s.connection.sendRequest("textDocument/documentSymbol", {
      textDocument: { uri: s.uri(file) },
    })) as DocumentSymbol[];
    const flat: string[] = [];
    const walk = (list: DocumentSymbol[]) =>
      list.forEach((x) => (flat.push(`${x.detail}@${x.selectionRange.start.line + 1}`), walk(x.children ?? [])));
    walk(symbols);
    const want = byFile.get(file)!.map((d) => `${d.qualified}@${d.start_line}`);
    if (JSON.stringify(sorted(flat)) !== JSON.stringify(sorted(want)))
      out.mismatches.push(`documentSymbol ${file}: ${JSON.stringify({ flat, want }).slice(0, 600)}`);
    out.checked.documentSymbol++;
  }
}

/** Up to `sample` symbols to compare at: called, unique functions, methods and classes whose name is on their line. */
export function pickSymbols(graph: GraphJson, lineOf: LineOf, sample: number): GoldDef[] {
  const counts = new Map<string, number>();
  for (const d of graph.definitions) counts.set(d.qualified, (counts.get(d.qualified) ?? 0) + 1);
  const called = new Set([...graph.call_edges, ...graph.dispatch_edges].map((e) => e.callee));
  return spread(
    graph.definitions
      .filter(
        (d) =>
          ["function", "method", "class"].includes(d.kind) &&
          counts.get(d.qualified) === 1 &&
          called.has(d.qualified) &&
          columnOf(lineOf(d.file, d.start_line), d.name) >= 0,
      )
      .sort((a, b) => (a.qualified < b.qualified ? -1 : 1)),
    sample,
  );
}

/** The CLI command lines answering each symbol, five per symbol in {@link CliAnswers}' order. */
export function cliLinesFor(symbols: GoldDef[], rootArgs: string[]): string[][] {
  return symbols.flatMap((d) => [
    ["callers", d.qualified, "--json", "--tests", "include", "--limit", "1000", "--budget", "1000000", ...rootArgs],
    ["callees", d.qualified, "--json", "--tests", "include", "--limit", "1000", "--budget", "1000000", ...rootArgs],
    ["signature", d.qualified, "--json", ...rootArgs],
    ["tests", d.qualified, "--json", "--limit", "1000", "--budget", "1000000", ...rootArgs],
    ["search", d.name, "--json", "--limit", "50", ...rootArgs],
  ]);
}

/** The parsed answers of {@link cliLinesFor}'s lines, grouped per symbol. */
export function answersPerSymbol(cli: unknown[], count: number): CliAnswers[] {
  return Array.from({ length: count }, (_, i) => {
    const [callers, callees, signature, tests, search] = cli.slice(i * 5, i * 5 + 5) as [
      CallersJson,
      CallersJson,
      { text: string },
      { total: number },
      { results: { qualified: string }[] },
    ];
    return { callers, callees, signature, tests, search };
  });
}

/** Asks the server everything {@link Gold} has an answer for, and compares. */
export async function compareWithCli(s: LspClient, gold: Gold, lineOf: LineOf): Promise<Agreement> {
  const out: Agreement = {
    checked: {
      definition: 0,
      references: 0,
      hover: 0,
      documentSymbol: 0,
      workspaceSymbol: 0,
      callHierarchy: 0,
      codeLens: 0,
    },
    mismatches: [],
  };
  for (const [i, d] of gold.symbols.entries()) await checkSymbol(s, d, gold.answers[i]!, lineOf, out);
  await checkDocumentSymbols(s, gold.definitions, out);
  return out;
}
