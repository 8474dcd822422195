/**
 * The language server's answers against the CLI's, on one project: for a sample of symbols the
 * CLI names (`graph --json`), ask the server at real positions (each symbol's name, each call site
 * `callers` lists) and compare with `callers`, `callees`, `signature`, `tests` and `search`
 * `--json` run on the same project. Returns the positions checked per request and every
 * disagreement, so a test asserts both (a checker that compares nothing fails on the counts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import type { CallHierarchyIncomingCall, CallHierarchyItem, CallHierarchyOutgoingCall, CodeLens, DocumentSymbol, Hover, Location, WorkspaceSymbol } from "vscode-languageserver-protocol";
import { repoRoot } from "../support/cli.ts";
import type { LspSession } from "./support.ts";

interface GoldDef { file: string; name: string; qualified: string; kind: string; start_line: number }
interface GoldEdge { caller: string; callee: string; file: string; line: number; resolution: string }
interface CallersJson {
  results: { qualified: string; site: { path: string; line: number }; resolution: string; confidence: number }[];
  possible: { caller: { qualified: string }; site: { path: string; line: number } }[];
  total: { results: number; possible: number };
}

/** How many positions each request was checked at, and what disagreed. */
export interface Agreement {
  checked: Record<"definition" | "references" | "hover" | "documentSymbol" | "workspaceSymbol" | "callHierarchy" | "codeLens", number>;
  mismatches: string[];
}

/** Runs CLI command lines in one process (test/lsp/cli-batch.mjs); each answer's stdout parsed as JSON. */
function cliBatch(lines: string[][]): unknown[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-lsp-cli-"));
  try {
    fs.writeFileSync(path.join(dir, "in.json"), JSON.stringify(lines));
    const r = spawnSync(process.execPath, [path.join(repoRoot, "test/lsp/cli-batch.mjs"), path.join(dir, "in.json"), path.join(dir, "out.json")], { encoding: "utf8", maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`cli-batch failed: ${r.stderr.slice(0, 2000)}`);
    const out = JSON.parse(fs.readFileSync(path.join(dir, "out.json"), "utf8")) as { status: number; stdout: string; argv: string[] }[];
    return out.map((o) => (o.status === 0 ? JSON.parse(o.stdout) : { error: o.argv.join(" ") }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The 0-based column of `name` as a whole word in `line`, or -1. */
function columnOf(line: string, name: string): number {
  const m = new RegExp(`(?<![\\p{L}\\p{N}_$])${name.replace(/[$]/g, "\\$")}(?![\\p{L}\\p{N}_$])`, "u").exec(line);
  return m ? m.index : -1;
}

/** `n` entries spread evenly over `list`. */
function spread<T>(list: T[], n: number): T[] {
  if (list.length <= n) return list;
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]!);
}

const sorted = (xs: Iterable<string>) => [...xs].sort();
const same = (a: Iterable<string>, b: Iterable<string>) => JSON.stringify(sorted(new Set(a))) === JSON.stringify(sorted(new Set(b)));

/** Compares the server on `root` with the CLI, at up to `sample` symbols. */
export async function checkAgreement(s: LspSession, root: string, sample = 50): Promise<Agreement> {
  const rootArgs = ["--root", root];
  const [graph] = cliBatch([["graph", "--json", ...rootArgs]]) as [{ definitions: GoldDef[]; call_edges: GoldEdge[]; dispatch_edges: GoldEdge[] }];
  const counts = new Map<string, number>();
  for (const d of graph.definitions) counts.set(d.qualified, (counts.get(d.qualified) ?? 0) + 1);
  const called = new Set([...graph.call_edges, ...graph.dispatch_edges].map((e) => e.callee));
  const lines = new Map<string, string[]>();
  const lineOf = (file: string, n: number) => {
    let l = lines.get(file);
    if (!l) lines.set(file, (l = fs.readFileSync(path.join(root, file), "utf8").split("\n")));
    return l[n - 1] ?? "";
  };
  const symbols = spread(
    graph.definitions
      .filter((d) => ["function", "method", "class"].includes(d.kind) && counts.get(d.qualified) === 1 && called.has(d.qualified) && columnOf(lineOf(d.file, d.start_line), d.name) >= 0)
      .sort((a, b) => (a.qualified < b.qualified ? -1 : 1)),
    sample,
  );
  const cli = cliBatch(symbols.flatMap((d) => [
    ["callers", d.qualified, "--json", "--tests", "include", "--limit", "1000", "--budget", "1000000", ...rootArgs],
    ["callees", d.qualified, "--json", "--tests", "include", "--limit", "1000", "--budget", "1000000", ...rootArgs],
    ["signature", d.qualified, "--json", ...rootArgs],
    ["tests", d.qualified, "--json", "--limit", "1000", "--budget", "1000000", ...rootArgs],
    ["search", d.name, "--json", "--limit", "50", ...rootArgs],
  ]));
  const out: Agreement = { checked: { definition: 0, references: 0, hover: 0, documentSymbol: 0, workspaceSymbol: 0, callHierarchy: 0, codeLens: 0 }, mismatches: [] };
  for (const [i, d] of symbols.entries()) {
    const [callers, callees, signature, tests, search] = cli.slice(i * 5, i * 5 + 5) as [CallersJson, CallersJson, { text: string }, { total: number }, { results: { qualified: string }[] }];
    await checkSymbol(s, d, { callers, callees, signature, tests, search }, lineOf, out);
  }
  await checkDocumentSymbols(s, graph.definitions, out);
  return out;
}

type CliAnswers = { callers: CallersJson; callees: CallersJson; signature: { text: string }; tests: { total: number }; search: { results: { qualified: string }[] } };

/** Every request at one symbol's name and its call sites. */
async function checkSymbol(s: LspSession, d: GoldDef, cli: CliAnswers, lineOf: (file: string, n: number) => string, out: Agreement): Promise<void> {
  const c = s.connection;
  const doc = { uri: s.uri(d.file) };
  const at = { line: d.start_line - 1, character: columnOf(lineOf(d.file, d.start_line), d.name) };
  const bad = (what: string, detail: unknown) => out.mismatches.push(`${what} ${d.qualified}: ${JSON.stringify(detail).slice(0, 600)}`);
  if ("error" in cli.callers || cli.callers.total.results > cli.callers.results.length) return bad("cli", cli.callers);

  // references: the call sites `callers` lists, and its possible callers marked ambiguous.
  const refs = (await c.sendRequest("textDocument/references", { textDocument: doc, position: at, context: { includeDeclaration: false } })) as (Location & { data: { resolution: string } })[];
  const site = (uri: string, line: number) => `${decodeURIComponent(uri.slice(s.rootUri.length + 1))}:${line}`;
  const linked = refs.filter((r) => r.data.resolution !== "ambiguous").map((r) => site(r.uri, r.range.start.line + 1));
  const possible = refs.filter((r) => r.data.resolution === "ambiguous").map((r) => site(r.uri, r.range.start.line + 1));
  if (!same(linked, cli.callers.results.map((r) => `${r.site.path}:${r.site.line}`)) || !same(possible, cli.callers.possible.map((p) => `${p.site.path}:${p.site.line}`))) bad("references", { linked, possible, cli: cli.callers.results.map((r) => r.site) });
  out.checked.references++;

  // definition at each call site `callers` lists (non-ambiguous): the symbol is among the answers.
  for (const r of cli.callers.results.slice(0, 3)) {
    const col = columnOf(lineOf(r.site.path, r.site.line), d.kind === "class" || d.name === "constructor" ? d.name : d.name);
    if (col < 0) continue;
    const defs = (await c.sendRequest("textDocument/definition", { textDocument: { uri: s.uri(r.site.path) }, position: { line: r.site.line - 1, character: col } })) as (Location & { data: { qualified: string } })[];
    if (!defs.some((x) => x.data.qualified === d.qualified && x.range.start.line === d.start_line - 1)) bad("definition", { at: r.site, defs: defs.map((x) => x.data.qualified) });
    out.checked.definition++;
  }

  // hover: the signature and docstring `signature` gives.
  const hover = (await c.sendRequest("textDocument/hover", { textDocument: doc, position: at })) as Hover | null;
  const value = hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
  if (!value.includes(cli.signature.text)) bad("hover", { value, cli: cli.signature.text });
  out.checked.hover++;

  // workspace/symbol: `search` for the name, same symbols in the same order.
  const ws = (await c.sendRequest("workspace/symbol", { query: d.name })) as (WorkspaceSymbol & { data: { qualified: string } })[];
  if ("error" in cli.search) {
    // No searchable words for `search` (a stop word): the server answers the names that start with it.
    if (!ws.length || ws.some((w) => !w.name.toLowerCase().startsWith(d.name.toLowerCase()))) bad("workspaceSymbol (names)", ws.map((w) => w.name));
  } else if (JSON.stringify(ws.map((w) => w.data.qualified)) !== JSON.stringify(cli.search.results.map((r) => r.qualified))) {
    bad("workspaceSymbol", { lsp: ws.map((w) => w.data.qualified), cli: cli.search.results.map((r) => r.qualified) });
  }
  out.checked.workspaceSymbol++;

  await checkHierarchy(s, doc, at, d, cli, bad);
  out.checked.callHierarchy++;
  await checkLens(s, doc, d, cli, bad);
  out.checked.codeLens++;
}

/** Call hierarchy: incoming calls are `callers`' callers with their sites, outgoing calls are `callees`' callees. */
async function checkHierarchy(s: LspSession, doc: { uri: string }, at: { line: number; character: number }, d: GoldDef, cli: CliAnswers, bad: (what: string, detail: unknown) => void): Promise<void> {
  const c = s.connection;
  const items = (await c.sendRequest("textDocument/prepareCallHierarchy", { textDocument: doc, position: at })) as CallHierarchyItem[] | null;
  const item = items?.[0];
  if (!item || (item.data as { qualified: string }).qualified !== d.qualified) return bad("prepareCallHierarchy", items);
  const incoming = (await c.sendRequest("callHierarchy/incomingCalls", { item })) as CallHierarchyIncomingCall[];
  const lspIn = incoming.flatMap((x) => x.fromRanges.map((r) => `${x.from.detail}@${r.start.line + 1}`));
  const cliIn = [...cli.callers.results.map((r) => `${r.qualified}@${r.site.line}`), ...cli.callers.possible.map((p) => `${p.caller.qualified}@${p.site.line}`)];
  if (!same(lspIn, cliIn)) bad("incomingCalls", { lspIn, cliIn });
  const outgoing = (await c.sendRequest("callHierarchy/outgoingCalls", { item })) as CallHierarchyOutgoingCall[];
  const lspOut = outgoing.flatMap((x) => x.fromRanges.map((r) => `${x.to.detail}@${r.start.line + 1}`));
  const cliOut = cli.callees.results.map((r) => `${r.qualified}@${r.site.line}`);
  if (!same(lspOut, cliOut)) bad("outgoingCalls", { lspOut, cliOut });
}

/** Code lens: the callers count is `callers`' total, the possible count its possible total, the tests count `tests`' total. */
async function checkLens(s: LspSession, doc: { uri: string }, d: GoldDef, cli: CliAnswers, bad: (what: string, detail: unknown) => void): Promise<void> {
  const c = s.connection;
  const lenses = (await c.sendRequest("textDocument/codeLens", { textDocument: doc })) as CodeLens[];
  const lens = lenses.find((l) => (l.data as { qualified: string }).qualified === d.qualified);
  if (!lens) return bad("codeLens", "no lens");
  const resolved = (await c.sendRequest("codeLens/resolve", lens)) as CodeLens & { data: { callers: number; possible: number; tests: number } };
  const want = { callers: cli.callers.total.results, possible: cli.callers.total.possible, tests: cli.tests.total };
  const got = { callers: resolved.data.callers, possible: resolved.data.possible, tests: resolved.data.tests };
  if (JSON.stringify(got) !== JSON.stringify(want) || (resolved.command?.arguments?.[2] as unknown[]).length !== want.callers) bad("codeLens", { got, want });
}

/** Document symbols of up to 60 files: the definitions `graph --json` lists there, at their name lines. */
async function checkDocumentSymbols(s: LspSession, defs: GoldDef[], out: Agreement): Promise<void> {
  const byFile = new Map<string, GoldDef[]>();
  for (const d of defs) (byFile.get(d.file) ?? byFile.set(d.file, []).get(d.file)!).push(d);
  for (const file of spread(sorted(byFile.keys()), 60)) {
    const symbols = (await s.connection.sendRequest("textDocument/documentSymbol", { textDocument: { uri: s.uri(file) } })) as DocumentSymbol[];
    const flat: string[] = [];
    const walk = (list: DocumentSymbol[]) => list.forEach((x) => (flat.push(`${x.detail}@${x.selectionRange.start.line + 1}`), walk(x.children ?? [])));
    walk(symbols);
    const want = byFile.get(file)!.map((d) => `${d.qualified}@${d.start_line}`);
    if (JSON.stringify(sorted(flat)) !== JSON.stringify(sorted(want))) out.mismatches.push(`documentSymbol ${file}: ${JSON.stringify({ flat, want }).slice(0, 600)}`);
    out.checked.documentSymbol++;
  }
}
