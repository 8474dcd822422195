/**
 * The `changes` answer: what changed (files, definitions by kind of change, module-level lines)
 * and what it reaches, as one bundle fitted to a token budget like `context`: chunks headed
 * `## path:start-end [role] name`, in priority order — the changed code (production before tests;
 * changed signatures and removals first, a new definition the changed code uses just before it;
 * each as its changed lines with the unchanged rest outlined), callers of changed signatures and
 * code still calling removed names, routes reached, tests reached, then callers of changed bodies —
 * with a cut list for the rest.
 */
import { languageById } from "../../languages/index.ts";
import { chunkAnswerLayout, fitBlocks, type Block, type BlockForm } from "../budget/fit.ts";
import { loadTokenCounter, type Encoding } from "../budget/tokenizer.ts";
import type { FileRecord } from "../extract/record.ts";
import { checkCallSites, type CallSiteCheck } from "./call-sites.ts";
import { changedOrder, movedRemovals } from "./order.ts";
import type { CodeGraph } from "../graph/model.ts";
import { outline } from "../query/queries.ts";
import { checkBudget, checkEncoding } from "../slice/context.ts";
import { isTestFile } from "../graph/test-code.ts";
import type { Route } from "../query/routes.ts";
import { routeClients } from "../query/route-calls.ts";
import { cite, citeName, citePath } from "../../shared/paths.ts";
import { planEnvelope, type ChangesEnvelope, type EnvelopePlan } from "./envelope.ts";
import {
  computeImpact,
  createQualifier,
  graphSymbolOf,
  IMPACT_LIST_LIMIT,
  TEST_DEPTH,
  type Impact,
  type ImpactItem,
  type ImpactSource,
  type RouteImpact,
} from "./impact.ts";
import { splitLines, type Hunk } from "./line-diff.ts";
import { compactSpanDiff, fullSpanDiff } from "./span-diff.ts";
import type { ChangeKind, FileComparison } from "./symbols.ts";

/** What happened to a file. */
export type FileStatus = "added" | "removed" | "modified" | "renamed" | "binary" | "skipped";

/** One file of the change set, with both versions' text and records where they exist. */
export interface ComparedFile {
  /** The path on the head side (the base side's for a removed file). */
  path: string;
  /** The base side's path when it differs (renames). */
  oldPath?: string;
  status: FileStatus;
  /** Why a file was not compared (binary, too large, not in the index, diff did not apply). */
  reason?: string;
  language?: string;
  oldText?: string;
  newText?: string;
  oldRecord?: FileRecord;
  newRecord?: FileRecord;
  hunks: Hunk[];
  comparison?: FileComparison;
}

/** One side of the comparison, as the answer names it. */
export interface ChangesSide {
  /** "HEAD (3f2a1bc, main)", "the index", "the working tree", "the diff applied"… */
  label: string;
  rev?: string;
  oid?: string;
}

/** What the engine gathered: the two sides and the files that differ. */
export interface ChangeSet {
  mode: "worktree" | "staged" | "refs" | "diff";
  base: ChangesSide;
  head: ChangesSide;
  /** True when the head side's changed files are what the indexed tree holds, so head citations are exact on disk. */
  headOnDisk: boolean;
  files: ComparedFile[];
  notes: string[];
}

/** A chunk's role in a changes answer, in priority order. */
export type ChangeRole = "changed" | "added" | "removed" | "caller" | "route" | "test";

/** A changed definition. */
export interface ChangedSymbol {
  change: ChangeKind;
  /** Qualified as the graph names it (`pkg.mod.Class.method`, `src/a.ts#Class.method`). */
  qualified: string;
  /** The in-file name (`Class.method`). */
  name: string;
  kind: string;
  /** Where it is: on the head side, or on the base side for a removed definition (`side`). */
  path: string;
  start: number;
  end: number;
  side: "head" | "base";
  /** Where it was on the base side, and its in-file name there, when it existed there. */
  old?: { path: string; start: number; end: number; name: string };
  signature?: { old: string; new: string };
  renamedFrom?: string;
  /** An added or removed definition it came or went with (its methods with a new class). */
  within?: string;
  /** In a test file. */
  test: boolean;
}

/** A file of the answer. */
export interface ChangedFile {
  path: string;
  oldPath?: string;
  status: FileStatus;
  language?: string;
  reason?: string;
  hunks: Hunk[];
  /** Changed definitions in it. */
  symbols: number;
  /** Changed lines outside every definition, per side. */
  moduleLines: { old: [number, number][]; new: [number, number][] };
}

/** A chunk of the bundle. */
export interface ChangesChunk {
  path: string;
  start: number;
  end: number;
  role: ChangeRole;
  symbol: string;
  kind: string;
  form: "full" | "outline";
  tokens: number;
  /** For changed code: the kind of change. */
  change?: ChangeKind | "module";
  /** The side the lines are on (base for removed code). */
  side: "head" | "base";
}

/** A chunk left out, with the handle to ask for it. */
export interface ChangesCut {
  path: string;
  start: number;
  end: number;
  role: ChangeRole;
  symbol: string;
  handle: string;
  tokens: number;
}

/** The answer to `changes`. */
export interface ChangesAnswer {
  mode: ChangeSet["mode"];
  base: ChangesSide;
  head: ChangesSide;
  headOnDisk: boolean;
  files: ChangedFile[];
  symbols: ChangedSymbol[];
  impact: { callers: ImpactItem[]; tests: ImpactItem[]; routes: RouteImpact[]; depth: number };
  /**
   * The call sites of changed signatures, bound to the old and the new parameters: the ones that break, surest first.
   */
  callSites: CallSiteCheck;
  notes: string[];
  chunks: ChangesChunk[];
  cut: ChangesCut[];
  /** Cut entries the text lists (the first ones). */
  cutListed: number;
  /**
   * Entries of each list (files, symbols, callers, tests, routes) the options' envelope counted: what a front end
   * repeats.
   */
  listed: number;
  /**
   * `envelope`: the tokens reserved for the options' envelope (present when one was asked for); `tokens + envelope ≤
   * budget`.
   */
  usage: { tokens: number; budget: number; encoding: Encoding; envelope?: number };
  text: string;
}

/** Options of the bundle. */
export interface ChangesBundleOptions {
  /** Tokens for the whole answer: its text, plus the envelope when there is one. */
  budget?: number;
  encoding?: Encoding;
  /**
   * What a front end adds around the text (the MCP server's structured content), covered by the
   * budget too: its fixed fields, and per record the fields it repeats (`file`, `symbol`, `caller`,
   * `test`, `route`, `chunk`, `cut`), at most `listed` entries of each list.
   */
  envelope?: ChangesEnvelope;
}

/** What the bundle reads besides the change set: the indexed files' text and the routes. */
export interface ChangesIO {
  readText(path: string): Promise<string>;
  routes(): Route[];
}

/** Callers and tests past this many per role are listed, not shown (as in context). */
const SHOWN_PER_ROLE = 10;
/** Chunks per role at most. */
const PER_ROLE = 40;
/** Changed symbols listed in the answer's summary before "… and N more". */
const SUMMARY_SYMBOLS = 25;
const SUMMARY_FILES = 20;
/** Breaking calls listed in the summary. */
const SUMMARY_BREAKS = 10;
/** Below this edge confidence a breaking call is said to be possibly to another definition. */
const SURE_CALL = 0.8;
const CHANGE_ORDER: Record<ChangeKind, number> = { signature: 0, renamed: 1, removed: 2, body: 3, added: 4 };

/** A planned chunk: where, what, and its two renderings. */
interface Planned {
  path: string;
  start: number;
  end: number;
  role: ChangeRole;
  label: string;
  kind: string;
  side: "head" | "base";
  change?: ChangeKind | "module";
  full: string;
  outline?: string;
  suffix: string;
  listOnly?: boolean;
  /** Shown as its outline only (a removal whose lines moved to an added definition: they are shown there). */
  outlineOnly?: boolean;
  /** Graph symbol (head side), to skip a caller that is itself shown as changed. */
  id?: number;
}

function fence(language: string | undefined, body: string): string {
  const tick = body.includes("```") ? "````" : "```";
  return `${tick}${language ? (languageById(language)?.fence ?? language) : ""}\n${body}\n${tick}`;
}

const ranges = (rs: [number, number][]) => rs.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ");
const short = (oid: string | undefined) => (oid ? oid.slice(0, 7) : "");
const one = (text: string, max = 100) => {
  const s = text.replace(/\s+/g, " ").trim();
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

/** The changed definitions of a change set, with what the impact and the chunks need about each. */
interface CollectedSymbols {
  symbols: ChangedSymbol[];
  /** Per symbol, in the same order: where the impact starts from. */
  sources: ImpactSource[];
  /** Per symbol, in the same order: its graph id on the head side, when it maps to one. */
  symbolIds: (number | undefined)[];
  fileOf: Map<ChangedSymbol, ComparedFile>;
  /** Head-side definitions matched to the indexed tree by name only (the head side is not on disk). */
  inexact: number;
}

/**
 * Collects every changed definition of `set`, qualified as the graph names them, with their graph ids on the head side.
 */
function collectChangedSymbols(graph: CodeGraph, set: ChangeSet): CollectedSymbols {
  const symbols: ChangedSymbol[] = [];
  const sources: ImpactSource[] = [];
  const symbolIds: (number | undefined)[] = [];
  let inexact = 0;
  const fileOf = new Map<ChangedSymbol, ComparedFile>();
  const qualify = createQualifier(
    graph,
    set.files.flatMap((f) => [f.path, ...(f.oldPath ? [f.oldPath] : [])]),
  );
  for (const file of set.files) {
    for (const c of file.comparison?.definitions ?? []) {
      const onHead = c.newIndex !== undefined;
      const record = onHead ? file.newRecord! : file.oldRecord!;
      const d = record.definitions[onHead ? c.newIndex! : c.oldIndex!]!;
      const before = c.oldIndex !== undefined ? file.oldRecord!.definitions[c.oldIndex]! : undefined;
      const path = onHead ? file.path : (file.oldPath ?? file.path);
      const qualified = qualify({ path, language: record.language }, d.qualified);
      const mapped = onHead ? graphSymbolOf(graph, record, c.newIndex!) : undefined;
      if (mapped && !mapped.exact) inexact++;
      const sym: ChangedSymbol = {
        change: c.change,
        qualified,
        name: d.qualified,
        kind: d.kind,
        path,
        start: d.start,
        end: d.end,
        side: onHead ? "head" : "base",
        ...(before && onHead
          ? { old: { path: file.oldPath ?? file.path, start: before.start, end: before.end, name: before.qualified } }
          : {}),
        ...(c.signature ? { signature: c.signature } : {}),
        ...(c.renamedFrom
          ? { renamedFrom: qualify({ path: file.oldPath ?? file.path, language: record.language }, c.renamedFrom) }
          : {}),
        ...(c.within ? { within: qualify({ path, language: record.language }, c.within) } : {}),
        test: isTestFile(path),
      };
      symbols.push(sym);
      symbolIds.push(mapped?.id);
      fileOf.set(sym, file);
      const goneName =
        c.change === "removed"
          ? before?.name
          : c.change === "renamed"
            ? file.oldRecord!.definitions[c.oldIndex!]!.name
            : undefined;
      sources.push({
        qualified,
        change: c.change,
        test: sym.test,
        path,
        ...(onHead ? { start: d.start, end: d.end } : {}),
        ...(mapped ? { id: mapped.id } : {}),
        ...(goneName && !c.within ? { goneName } : {}),
      });
    }
  }
  return { symbols, sources, symbolIds, fileOf, inexact };
}

/**
 * The changed definitions as chunks, changed signatures first, then renames, removals, bodies and
 * additions (tests after the rest of each kind): an addition in full, a removal as it was on the
 * base side, anything else as its diff. Adds each shown definition's graph id to `shownIds`.
 */
function planChangedChunks(
  graph: CodeGraph,
  set: ChangeSet,
  collected: CollectedSymbols,
  shownIds: Set<number>,
): Planned[] {
  const { symbols, symbolIds, fileOf } = collected;
  const planned: Planned[] = [];
  const order = changedOrder(graph, symbols, symbolIds, (i) => addedLinesOf(symbols[i]!, fileOf.get(symbols[i]!)!));
  const moved = movedTo(symbols, fileOf);
  for (const i of order) {
    const s = symbols[i]!;
    const file = fileOf.get(s)!;
    if (s.within) continue; // shown inside the added or removed definition it came or went with
    const oldLines = splitLines(file.oldText ?? "");
    const newLines = splitLines(file.newText ?? "");
    const language = (s.side === "head" ? file.newRecord : file.oldRecord)?.language;
    const id = symbolIds[i];
    if (id !== undefined) shownIds.add(id);
    if (s.change === "added") {
      const body = newLines.slice(s.start - 1, s.end).join("\n");
      const sym = id !== undefined ? graph.symbols[id] : undefined;
      const outlineText =
        sym && file.newRecord?.hash === graph.records.get(s.path)?.hash ? outline(graph, sym) : undefined;
      planned.push({
        path: s.path,
        start: s.start,
        end: s.end,
        role: "added",
        label: s.qualified,
        kind: s.kind,
        side: "head",
        change: "added",
        full: fence(language, body),
        ...(outlineText !== undefined && outlineText.length < body.length
          ? { outline: fence(language, outlineText) }
          : {}),
        suffix: "",
        ...(id !== undefined ? { id } : {}),
      });
    } else if (s.change === "removed") {
      const body = oldLines.slice(s.start - 1, s.end).join("\n");
      const header = file.oldRecord!.definitions.find((d) => d.start === s.start && d.qualified === s.name);
      const to = moved.get(s);
      const hasOutline = header !== undefined && header.signature.length < body.length;
      planned.push({
        path: s.path,
        start: s.start,
        end: s.end,
        role: "removed",
        label: s.qualified,
        kind: s.kind,
        side: "base",
        change: "removed",
        full: fence(language, body),
        ...(hasOutline ? { outline: fence(language, header.signature) } : {}),
        suffix: to
          ? ` (as it was at ${set.base.oid ? short(set.base.oid) : set.base.label}; its lines moved to ` +
            `${to.qualified}, ${cite(to.path, to.start, to.end)})`
          : ` (as it was at ${set.base.oid ? short(set.base.oid) : set.base.label})`,
        ...(to && hasOutline ? { outlineOnly: true } : {}),
      });
    } else {
      const spans = { old: [s.old!.start, s.old!.end] as [number, number], new: [s.start, s.end] as [number, number] };
      // Bodies only where the diff is: the changed lines with a little context, the unchanged rest
      // as "⋯" with its nested definitions' headers (a new parameter on a 100-line function is not
      // its 100 lines); the outline keeps only the changed lines.
      const headers = nestedHeaderLines(file.newRecord, s);
      const whole = fullSpanDiff(oldLines, newLines, file.hunks, spans);
      const withContext = compactSpanDiff(oldLines, newLines, file.hunks, spans, 2, headers) ?? whole;
      const full = withContext.length < whole.length ? withContext : whole;
      const tight = compactSpanDiff(oldLines, newLines, file.hunks, spans, 0, headers, OUTLINE_LINE) ?? full;
      // Where (nearly) every line changed, the outline is the header's diff: enough to say what it is now.
      const compact = tight.length < TIGHT_SHARE * full.length ? tight : diffHead(full);
      const what =
        s.change === "signature"
          ? "signature changed"
          : s.change === "renamed"
            ? `renamed from ${s.renamedFrom}`
            : "body changed";
      planned.push({
        path: s.path,
        start: s.start,
        end: s.end,
        role: "changed",
        label: s.qualified,
        kind: s.kind,
        side: "head",
        change: s.change,
        full: fence("diff", full),
        ...(compact.length < full.length ? { outline: fence("diff", compact) } : {}),
        suffix: ` (${what})`,
        ...(id !== undefined ? { id } : {}),
      });
    }
  }
  return planned;
}

/**
 * Each removed definition whose lines moved to an added one (a rename the matcher did not pair), with where they went.
 */
function movedTo(
  symbols: readonly ChangedSymbol[],
  fileOf: ReadonlyMap<ChangedSymbol, ComparedFile>,
): Map<ChangedSymbol, ChangedSymbol> {
  const removed = symbols.filter((s) => s.change === "removed" && !s.within);
  const added = symbols.filter((s) => s.change === "added" && !s.within);
  const out = new Map<ChangedSymbol, ChangedSymbol>();
  if (!removed.length || !added.length || removed.length * added.length > 10_000) return out;
  const text = (s: ChangedSymbol, side: "oldText" | "newText") =>
    splitLines(fileOf.get(s)![side] ?? "")
      .slice(s.start - 1, s.end)
      .join("\n");
  movedRemovals(
    removed.map((s) => text(s, "oldText")),
    added.map((s) => text(s, "newText")),
  ).forEach((j, i) => j !== undefined && out.set(removed[i]!, added[j]!));
  return out;
}

/**
 * The header of a definition's diff: its first line, and when that line was removed, the first
 * added line (the header as it is now), then "⋯"; long lines cut.
 */
function diffHead(diff: string): string {
  const lines = diff.split("\n");
  const cut = (l: string) => (l.length > OUTLINE_LINE ? `${l.slice(0, OUTLINE_LINE)}…` : l);
  const head = [lines[0]!];
  if (lines[0]!.startsWith("-")) {
    const added = lines.find((l) => l.startsWith("+"));
    if (added !== undefined) head.push(added);
  }
  return head.length < lines.length ? `${head.map(cut).join("\n")}\n⋯` : diff;
}

/** The text of the lines the change added inside a changed definition (head side). */
function addedLinesOf(s: ChangedSymbol, file: ComparedFile): string {
  if (s.side !== "head") return "";
  const lines = splitLines(file.newText ?? "");
  const out: string[] = [];
  for (const h of file.hunks)
    for (let k = 0; k < h.newLines; k++)
      if (h.newStart + k >= s.start && h.newStart + k <= s.end) out.push(lines[h.newStart + k - 1] ?? "");
  return out.join("\n");
}

/** The header lines (head side) of the definitions nested directly in `s`: what outlines its unchanged rest. */
function nestedHeaderLines(record: FileRecord | undefined, s: ChangedSymbol): Set<number> {
  const defs = record?.definitions ?? [];
  const index = defs.findIndex((d) => d.start === s.start && d.qualified === s.name);
  return new Set(index < 0 ? [] : defs.filter((d) => d.parent === index).map((d) => d.nameLine));
}

/**
 * The answer's files: each compared file with its hunks, its count of changed definitions and its changed module-level
 * lines.
 */
function summarizeFiles(set: ChangeSet): ChangedFile[] {
  return set.files.map((f) => ({
    path: f.path,
    ...(f.oldPath ? { oldPath: f.oldPath } : {}),
    status: f.status,
    ...(f.language ? { language: f.language } : {}),
    ...(f.reason ? { reason: f.reason } : {}),
    hunks: f.hunks,
    symbols: f.comparison?.definitions.length ?? 0,
    moduleLines: f.comparison?.moduleLines ?? { old: [], new: [] },
  }));
}

/**
 * Module-level lines (imports, constants, top-level code) of modified files: one diff chunk per file, to follow the
 * definitions.
 */
function planModuleChunks(set: ChangeSet): Planned[] {
  const planned: Planned[] = [];
  for (const f of set.files) {
    const m = f.comparison?.moduleLines;
    if (!m || (m.new.length === 0 && m.old.length === 0) || f.status === "added" || f.status === "removed") continue;
    const oldLines = splitLines(f.oldText ?? "");
    const newLines = splitLines(f.newText ?? "");
    const parts: string[] = [];
    // Each changed run with the aligned lines around it: spans on both sides cover the runs.
    for (const h of f.hunks) {
      const inModule =
        m.new.some(([a, b]) => h.newLines > 0 && a <= h.newStart + h.newLines - 1 && b >= h.newStart) ||
        m.old.some(([a, b]) => h.oldLines > 0 && a <= h.oldStart + h.oldLines - 1 && b >= h.oldStart);
      if (!inModule) continue;
      const spans = {
        old: [Math.max(1, h.oldStart - 1), h.oldStart + h.oldLines] as [number, number],
        new: [Math.max(1, h.newStart - 1), h.newStart + h.newLines] as [number, number],
      };
      parts.push(fullSpanDiff(oldLines, newLines, f.hunks, spans));
    }
    if (!parts.length) continue;
    const lines = m.new.length ? m.new : m.old;
    planned.push({
      path: f.path,
      start: lines[0]![0],
      end: lines[lines.length - 1]![1],
      role: "changed",
      label: f.path,
      kind: "module-code",
      side: m.new.length ? "head" : "base",
      change: "module",
      full: fence("diff", parts.join("\n⋯\n")),
      suffix: ` (module-level lines ${ranges(m.new.length ? m.new : m.old)})`,
    });
  }
  return planned;
}

/** Reads the indexed files (each once, an unreadable one as empty) and turns graph symbols into chunks. */
type ChunkReader = ReturnType<typeof createChunkReader>;

function createChunkReader(graph: CodeGraph, io: ChangesIO) {
  const texts = new Map<string, string[]>();
  const linesOf = async (path: string) =>
    texts.get(path) ?? texts.set(path, splitLines(await io.readText(path).catch(() => ""))).get(path)!;
  const symbolText = async (
    id: number,
  ): Promise<{ body: string; outlineText?: string; start: number; end: number; path: string; language: string }> => {
    const s = graph.symbols[id]!;
    const lines = await linesOf(s.file);
    return {
      body: lines.slice(s.start - 1, s.end).join("\n"),
      ...(s.kind !== "module" ? { outlineText: outline(graph, s) } : {}),
      start: s.start,
      end: s.end,
      path: s.file,
      language: s.language,
    };
  };
  /** A caller as a chunk: the whole symbol, or its call lines (± 2) when it is module-level code. */
  const callerChunk = async (
    id: number,
    role: ChangeRole,
    suffix: string,
    callLines: number[],
    listOnly: boolean,
  ): Promise<Planned[]> => {
    const s = graph.symbols[id]!;
    if (s.kind === "module") {
      const lines = await linesOf(s.file);
      return [...new Set(callLines)]
        .sort((a, b) => a - b)
        .slice(0, 3)
        .map((line) => {
          const start = Math.max(1, line - 2);
          const end = Math.min(lines.length, line + 2);
          return {
            path: s.file,
            start,
            end,
            role,
            label: s.qualified,
            kind: "module-code",
            side: "head" as const,
            full: fence(s.language, lines.slice(start - 1, end).join("\n")),
            suffix,
            ...(listOnly ? { listOnly } : {}),
          };
        });
    }
    const t = await symbolText(id);
    return [
      {
        path: t.path,
        start: t.start,
        end: t.end,
        role,
        label: s.qualified,
        kind: s.kind,
        side: "head",
        full: fence(t.language, t.body),
        ...(t.outlineText !== undefined && t.outlineText.length < t.body.length
          ? { outline: fence(t.language, t.outlineText) }
          : {}),
        suffix,
        id,
        ...(listOnly ? { listOnly } : {}),
      },
    ];
  };
  return { linesOf, callerChunk };
}

/**
 * What the change reaches, as chunks in priority order: callers of changed signatures and renames,
 * code still calling removed names, routes whose handlers reach the change, tests (by calls, then
 * test files importing a changed file, listed only), then callers of changed bodies. Skips, and
 * adds to, `shownIds`; past SHOWN_PER_ROLE per role a chunk is listed only.
 */
async function planImpactChunks(
  graph: CodeGraph,
  io: ChangesIO,
  reader: ChunkReader,
  impact: Impact,
  sources: ImpactSource[],
  shownIds: Set<number>,
  breaking: ReadonlySet<number> = new Set(),
): Promise<Planned[]> {
  const planned: Planned[] = [];
  const { linesOf, callerChunk } = reader;
  const nameOfId = new Map(sources.flatMap((s) => (s.id !== undefined ? [[s.id, s.qualified] as const] : [])));
  const changeOfId = new Map(sources.flatMap((s) => (s.id !== undefined ? [[s.id, s.change] as const] : [])));
  const callersOf = async (which: (c: ChangeKind) => boolean) => {
    let n = 0;
    const entries = [...impact.direct].filter(
      ([caller, d]) =>
        !shownIds.has(caller) &&
        !isTestFile(graph.symbols[caller]!.file) &&
        [...d.sources].some((x) => which(changeOfId.get(x)!)),
    );
    // Callers whose call the change breaks first.
    entries.sort(
      (a, b) =>
        Number(breaking.has(b[0])) - Number(breaking.has(a[0])) ||
        graph.symbols[a[0]]!.file.localeCompare(graph.symbols[b[0]]!.file) ||
        graph.symbols[a[0]]!.start - graph.symbols[b[0]]!.start,
    );
    for (const [caller, d] of entries.slice(0, PER_ROLE)) {
      const reached = [...d.sources].filter((x) => which(changeOfId.get(x)!)).map((x) => nameOfId.get(x)!);
      const lines = [...new Set(d.lines)].sort((a, b) => a - b);
      const verb = breaking.has(caller) ? "breaks calling" : "calls";
      planned.push(
        ...(await callerChunk(
          caller,
          "caller",
          ` (${verb} ${reached.slice(0, 2).join(", ")}${reached.length > 2 ? ", …" : ""} at ` +
            `line${lines.length > 1 ? "s" : ""} ${lines.slice(0, 4).join(", ")})`,
          lines,
          ++n > SHOWN_PER_ROLE,
        )),
      );
      shownIds.add(caller);
    }
  };
  // Callers of changed signatures and renames, then code still calling removed names.
  await callersOf((c) => c === "signature" || c === "renamed");
  {
    let n = 0;
    for (const [caller, r] of [...impact.stillCalling].slice(0, PER_ROLE)) {
      if (shownIds.has(caller)) continue;
      const lines = [...new Set(r.lines)].sort((a, b) => a - b);
      planned.push(
        ...(await callerChunk(
          caller,
          isTestFile(graph.symbols[caller]!.file) ? "test" : "caller",
          ` (still calls ${[...r.names].join(", ")} at line${lines.length > 1 ? "s" : ""} ` +
            `${lines.slice(0, 4).join(", ")}, no longer defined)`,
          lines,
          ++n > SHOWN_PER_ROLE,
        )),
      );
      shownIds.add(caller);
    }
  }
  // Routes reached.
  {
    let n = 0;
    for (const r of impact.routes.slice(0, PER_ROLE)) {
      const label = `${r.method} ${r.path}`;
      const routeOf = io.routes().find((x) => x.file === r.file && x.line === r.line && x.method === r.method);
      // The route's consumers: the client code a changed handler reaches (the route map's calls).
      const clients = routeOf ? routeClients(graph, io.routes(), routeOf).filter((c) => !c.test) : [];
      const called = clients.length
        ? `; called from ${clients
            .slice(0, 3)
            .map((c) => `${c.path}:${c.line}${c.caller !== c.path ? ` (${citeName(c.caller)})` : ""}`)
            .join(", ")}${clients.length > 3 ? `, … ${clients.length - 3} more` : ""}`
        : "";
      const suffix =
        r.depth === 0
          ? ` (handler changed: ${r.reaches[0]}${called})`
          : ` (reaches ${r.reaches[0]} in ${r.depth} call${r.depth > 1 ? "s" : ""}${called})`;
      const handlerId = r.handler !== undefined ? graph.byQualified.get(r.handler) : undefined;
      if (handlerId !== undefined && !shownIds.has(handlerId)) {
        const [c] = await callerChunk(handlerId, "route", suffix, [], ++n > SHOWN_PER_ROLE);
        planned.push({ ...c!, label: `${label} → ${r.handler}` });
        shownIds.add(handlerId);
      } else if (handlerId === undefined) {
        const lines = await linesOf(r.file);
        const route = io.routes().find((x) => x.file === r.file && x.line === r.line && x.method === r.method);
        const span = route?.span ?? { start: r.line, end: r.line };
        const language = graph.symbols[graph.moduleSymbol.get(r.file) ?? 0]?.language;
        planned.push({
          path: r.file,
          start: span.start,
          end: span.end,
          role: "route",
          label,
          kind: "route",
          side: "head",
          full: fence(language, lines.slice(span.start - 1, span.end).join("\n")),
          suffix,
          ...(++n > SHOWN_PER_ROLE ? { listOnly: true } : {}),
        });
      }
    }
  }
  // Tests reached: by calls (nearest first), then test files that import a changed file (listed only).
  {
    let n = 0;
    for (const t of impact.tests.slice(0, PER_ROLE)) {
      const id = t.kind === "module" ? graph.moduleSymbol.get(t.path)! : graph.byQualified.get(t.qualified);
      if (id === undefined || shownIds.has(id)) continue;
      if (t.via === "import") {
        const lines = await linesOf(t.path);
        planned.push({
          path: t.path,
          start: 1,
          end: lines.length,
          role: "test",
          label: t.path,
          kind: "file",
          side: "head",
          full: fence(graph.symbols[id]!.language, lines.join("\n")),
          suffix: ` (imports ${t.reaches[0]})`,
          listOnly: true,
        });
      } else {
        const callLines =
          t.kind === "module" ? (impact.direct.get(id)?.lines ?? impact.stillCalling.get(id)?.lines ?? []) : [];
        const suffix = ` (reaches ${t.reaches.slice(0, 2).join(", ")}${t.depth > 1 ? ` in ${t.depth} calls` : ""})`;
        planned.push(
          ...(await callerChunk(
            id,
            "test",
            suffix,
            callLines.length ? callLines : [t.site?.line ?? 1],
            ++n > SHOWN_PER_ROLE,
          )),
        );
      }
      shownIds.add(id);
    }
  }
  // Callers of changed bodies, last.
  await callersOf((c) => c === "body");
  return planned;
}

/** How to ask for a chunk again: its symbol's name, or its lines (at the base commit for removed code). */
function chunkHandle(set: ChangeSet, c: Planned): string {
  return c.side === "base"
    ? `${cite(c.path, c.start, c.end)} at ${set.base.oid ? short(set.base.oid) : set.base.label}`
    : c.id !== undefined || (c.kind !== "module-code" && c.kind !== "file" && c.kind !== "route")
      ? c.label.split(" → ").pop()!
      : cite(c.path, c.start, c.end);
}

/** An outline of changed lines only must be this much smaller than the full form, else the header's diff is. */
const TIGHT_SHARE = 0.7;
/** Characters of a changed line an outline (changed lines only) keeps. */
const OUTLINE_LINE = 160;

/**
 * Share of the room (the budget less the summary) the production changes' full forms may take before the answer goes
 * breadth first.
 */
const BREADTH_SHARE = 0.6;

/**
 * Whether the answer goes breadth first: when the production code's changed chunks in full would
 * take more than BREADTH_SHARE of `room` (the budget less the summary), every chunk but the first is offered as its
 * outline
 * (its changed lines) first and grows to its full form, in priority order, with what is left — so a
 * change to 15 functions shows all 15, not the first 11 in full and the rest cut.
 */
function breadthFirst(planned: readonly Planned[], count: (text: string) => number, room: number): boolean {
  let tokens = 0;
  for (const c of planned) {
    if ((c.role !== "changed" && c.role !== "added" && c.role !== "removed") || isTestFile(c.path)) continue;
    tokens += count(c.full);
    if (tokens > BREADTH_SHARE * room) return true;
  }
  return false;
}

/**
 * The planned chunks as blocks for the fitter: headed `## path:start-end [role] name`, with their
 * outline form, the chunks they sit inside, the first change required, and their envelope records.
 */
function toBlocks(
  set: ChangeSet,
  planned: Planned[],
  count: (text: string) => number,
  options: ChangesBundleOptions,
  env: EnvelopePlan,
  room: number,
): Block[] {
  // A chunk inside another chunk of the same side (a changed method of a changed class).
  const within = planned.map((c, i) =>
    planned.flatMap((o, j) =>
      j !== i && j < i && o.side === c.side && o.path === c.path && o.start <= c.start && o.end >= c.end ? [j] : [],
    ),
  );
  const breadth = breadthFirst(planned, count, room);
  return planned.map((c, i) => {
    const head = `## ${cite(c.path, c.start, c.end)} [${c.role}] ${citeName(c.label)}${c.suffix}`;
    const full = `${head}\n${c.full}`;
    let outlineBlock = c.outline !== undefined ? `${head} (outline)\n${c.outline}` : undefined;
    // The first changed chunk as its changed lines only says so, and what its whole diff needs.
    if (i === 0 && outlineBlock !== undefined) {
      const fullTokens = count(full);
      outlineBlock =
        `${outlineBlock}\nNote: this change's whole diff needs ${fullTokens} tokens; shown in ` +
        `outline. Ask with budget ≥ ${fullTokens + 400} for all of it.`;
    }
    return {
      full,
      ...(outlineBlock !== undefined ? { outline: outlineBlock } : {}),
      ...(c.listOnly ? { listOnly: true } : {}),
      ...(c.outlineOnly ? { outlineOnly: true } : {}),
      ...(breadth && i > 0 && !c.outlineOnly && outlineBlock !== undefined ? { preferOutline: true } : {}),
      // The most important change is always there, in full or as its changed lines.
      ...(i === 0 && c.role !== "caller" && c.role !== "route" && c.role !== "test" ? { required: true } : {}),
      ...(within[i]!.length ? { within: within[i]! } : {}),
      listed: (tokens: number) =>
        `- ${cite(c.path, c.start, c.end)} [${c.role}] ${citeName(c.label)} (${tokens} tokens)`,
      ...(options.envelope?.perRecord !== undefined
        ? {
            envelope: env.block(
              { path: c.path, start: c.start, end: c.end, role: c.role, symbol: c.label },
              { handle: chunkHandle(set, c), path: c.path, start: c.start, end: c.end, role: c.role },
            ),
          }
        : {}),
    };
  });
}

/**
 * Sorts the planned chunks by what the fitter made of them: shown (in full or as an outline), cut, or covered by
 * another.
 */
function splitFitted(
  set: ChangeSet,
  planned: Planned[],
  fit: ReturnType<typeof fitBlocks>,
): { chunks: ChangesChunk[]; cut: ChangesCut[] } {
  const chunks: ChangesChunk[] = [];
  const cut: ChangesCut[] = [];
  planned.forEach((c, i) => {
    const form: BlockForm = fit.forms[i]!;
    if (form === "covered") return;
    if (form === "cut") {
      cut.push({
        path: c.path,
        start: c.start,
        end: c.end,
        role: c.role,
        symbol: c.label,
        handle: chunkHandle(set, c),
        tokens: fit.fullTokens(i),
      });
    } else {
      chunks.push({
        path: c.path,
        start: c.start,
        end: c.end,
        role: c.role,
        symbol: c.label,
        kind: c.kind,
        form: form === "full" ? "full" : "outline",
        tokens: fit.shownTokens(i)!,
        ...(c.change ? { change: c.change } : {}),
        side: c.side,
      });
    }
  });
  return { chunks, cut };
}

/** Builds the answer: changed symbols, impact, and the budgeted bundle. */
export async function buildChangesAnswer(
  graph: CodeGraph,
  set: ChangeSet,
  options: ChangesBundleOptions,
  io: ChangesIO,
): Promise<ChangesAnswer> {
  const budget = checkBudget(options.budget);
  const encoding = checkEncoding(options.encoding);
  const count = await loadTokenCounter(encoding);
  const notes = [...set.notes];

  const collected = collectChangedSymbols(graph, set);
  const { symbols, sources, inexact } = collected;
  if (inexact > 0)
    notes.push(
      `${inexact} changed definition${inexact > 1 ? "s are" : " is"} matched to the indexed tree by name: the ` +
        `head side differs from the files on disk, so callers and tests come from the files on disk.`,
    );

  // Tests are reached from changed code outside tests; a changed test reaches nothing new.
  const impactSources = sources.filter((s) => !s.test);
  const changedFiles = [
    ...new Set(
      set.files
        .filter(
          (f) =>
            f.comparison &&
            (f.comparison.definitions.length ||
              f.comparison.moduleLines.new.length ||
              f.comparison.moduleLines.old.length),
        )
        .map((f) => f.path),
    ),
  ];
  const impact = computeImpact(graph, impactSources, io.routes(), changedFiles);
  // One reader for the call-site check and the chunks: each file is read once per answer.
  const reader = createChunkReader(graph, io);
  const callSites = await checkSignatureCalls(graph, symbols, sources, reader.linesOf);

  // ---- chunks, in priority order: changed definitions, module-level lines, then what they reach
  const shownIds = new Set<number>();
  // Production code first (its definitions, then its module-level lines), tests after.
  const changedChunks = [...planChangedChunks(graph, set, collected, shownIds), ...planModuleChunks(set)];
  const planned: Planned[] = [
    ...changedChunks.filter((c) => !isTestFile(c.path)),
    ...changedChunks.filter((c) => isTestFile(c.path)),
  ];
  const summaryFiles = summarizeFiles(set);
  planned.push(
    ...(await planImpactChunks(
      graph,
      io,
      reader,
      impact,
      sources,
      shownIds,
      new Set(callSites.breaking.map((b) => b.callerId)),
    )),
  );

  // ---- fit
  const header = summaryText(set, symbols, summaryFiles, impact, notes, callSites);
  const lists = {
    files: summaryFiles,
    symbols,
    callers: impact.callers.slice(0, IMPACT_LIST_LIMIT),
    tests: impact.tests.slice(0, IMPACT_LIST_LIMIT),
    routes: impact.routes.slice(0, IMPACT_LIST_LIMIT),
    notes,
  };
  const env = planEnvelope(options.envelope, lists, budget, count);
  const fit = fitBlocks({
    header,
    blocks: toBlocks(set, planned, count, options, env, budget - count(header) - env.fixed),
    budget,
    count,
    ...chunkAnswerLayout(encoding),
    envelope: env.fixed,
    smallest: "the summary and the first change's changed lines",
  });
  const { chunks, cut } = splitFitted(set, planned, fit);
  return {
    mode: set.mode,
    base: set.base,
    head: set.head,
    headOnDisk: set.headOnDisk,
    files: summaryFiles,
    symbols,
    impact: {
      callers: impact.callers.slice(0, IMPACT_LIST_LIMIT),
      tests: impact.tests.slice(0, IMPACT_LIST_LIMIT),
      routes: impact.routes.slice(0, IMPACT_LIST_LIMIT),
      depth: TEST_DEPTH,
    },
    callSites,
    notes,
    chunks,
    cut,
    cutListed: fit.listed,
    listed: env.listed,
    usage: { tokens: fit.tokens, budget, encoding, ...(options.envelope ? { envelope: fit.envelope } : {}) },
    text: fit.text,
  };
}

const STATUS_MARK: Record<FileStatus, string> = {
  added: "A",
  removed: "D",
  modified: "M",
  renamed: "R",
  binary: "B",
  skipped: "S",
};

/** The answer's head: the two sides, the files, every changed symbol (up to a limit), the impact in numbers, notes. */
function summaryText(
  set: ChangeSet,
  symbols: ChangedSymbol[],
  files: ChangedFile[],
  impact: ReturnType<typeof computeImpact>,
  notes: string[],
  callSites: CallSiteCheck,
): string {
  const lines = [`# codeslice changes: ${set.base.label} → ${set.head.label}`];
  if (files.length === 0) {
    // A route's changes can be none while the diff has some: its note says what was left out.
    lines.push("No changes.", ...notes.map((n) => `Note: ${n}`));
    return lines.join("\n");
  }
  const fileLines = files.slice(0, SUMMARY_FILES).map((f) => {
    // Quoted when a name holds a newline: it would end the summary line mid-name.
    const path = f.oldPath && f.oldPath !== f.path ? `${citePath(f.oldPath)} → ${citePath(f.path)}` : citePath(f.path);
    const what = f.reason
      ? ` (${f.reason})`
      : f.symbols === 0 && !f.moduleLines.new.length && !f.moduleLines.old.length && f.language
        ? " (no code change)"
        : !f.language && f.status !== "binary" && f.status !== "skipped"
          ? " (not a source file)"
          : "";
    return `${STATUS_MARK[f.status]} ${path}${what}`;
  });
  lines.push(
    `Files (${files.length}): ` +
      `${fileLines.join(" · ")}${files.length > SUMMARY_FILES ? ` · … and ${files.length - SUMMARY_FILES} more` : ""}`,
  );
  if (symbols.length) {
    const counts = Object.entries(
      symbols.reduce<Record<string, number>>((acc, s) => ((acc[s.change] = (acc[s.change] ?? 0) + 1), acc), {}),
    )
      .sort((a, b) => CHANGE_ORDER[a[0] as ChangeKind] - CHANGE_ORDER[b[0] as ChangeKind])
      .map(([k, n]) => `${n} ${k}`)
      .join(", ");
    lines.push(`Changed definitions (${symbols.length}): ${counts}`);
    const shown = symbols.filter((s) => !s.within).slice(0, SUMMARY_SYMBOLS);
    for (const s of shown) {
      const where = s.side === "base" ? `was ${cite(s.path, s.start, s.end)}` : cite(s.path, s.start, s.end);
      const nested = symbols.filter((x) => x.within === s.qualified).length;
      const detail =
        s.change === "signature" && s.signature
          ? `: ${one(s.signature.old, 80)} → ${one(s.signature.new, 80)}`
          : s.change === "renamed"
            ? ` (from ${s.renamedFrom})`
            : nested
              ? ` (with ${nested} member${nested > 1 ? "s" : ""})`
              : "";
      lines.push(`- ${s.change} ${s.kind} ${citeName(s.qualified)} ${where}${detail}`);
    }
    const rest = symbols.filter((s) => !s.within).length - shown.length;
    if (rest > 0) lines.push(`- … and ${rest} more (the JSON answer lists all)`);
  } else lines.push("Changed definitions: none.");
  const moduleLevel = files.filter((f) => f.moduleLines.new.length || f.moduleLines.old.length);
  if (moduleLevel.length)
    lines.push(
      `Module-level lines changed: ${moduleLevel
        .slice(0, 10)
        .map((f) => `${citePath(f.path)}:${ranges(f.moduleLines.new.length ? f.moduleLines.new : f.moduleLines.old)}`)
        .join(" · ")}`,
    );
  const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  const direct = impact.callers.filter((c) => c.depth === 1 && c.via === "call").length;
  const byCall = impact.tests.filter((t) => t.via !== "import").length;
  const byImport = impact.tests.length - byCall;
  const parts = [
    `${plural(direct, "direct caller")} outside the change`,
    `${plural(impact.routes.length, "route")}${
      impact.routes.length
        ? ` (${impact.routes
            .slice(0, 4)
            .map((r) => `${r.method} ${r.path}`)
            .join(", ")}${impact.routes.length > 4 ? ", …" : ""})`
        : ""
    }`,
    `${plural(byCall, "test")} within ${TEST_DEPTH} ` +
      `calls${byImport ? ` and ${plural(byImport, "test file")} importing changed files` : ""}`,
  ];
  if (impact.stillCalling.size) parts.push(`${plural(impact.stillCalling.size, "symbol")} still calling removed names`);
  lines.push(`Impact: ${parts.join("; ")}`);
  if (callSites.checked + callSites.undecided > 0) {
    const undecided = callSites.undecided ? `, ${callSites.undecided} not decided` : "";
    lines.push(
      `Calls of changed signatures: ${plural(callSites.checked, "call site")} checked against the new ` +
        `parameters, ${callSites.breaking.length} break${undecided}${callSites.breaking.length ? ":" : "."}`,
    );
    for (const b of callSites.breaking.slice(0, SUMMARY_BREAKS)) {
      const sure =
        b.confidence < SURE_CALL
          ? ` (the call may be to another \`${b.callee.split(/[.#]/).pop()}\`: resolved with confidence ` +
            `${b.confidence.toFixed(2)})`
          : "";
      lines.push(`- ${b.path}:${b.line} in ${citeName(b.caller)}: \`${b.call}\` ${b.reason}${sure}`);
    }
    if (callSites.breaking.length > SUMMARY_BREAKS)
      lines.push(`- … and ${callSites.breaking.length - SUMMARY_BREAKS} more (the JSON answer lists all)`);
  }
  if (!set.headOnDisk)
    lines.push(
      `Note: ${set.head.label} is not what the files on disk hold; changed code is cited at ${set.head.label}, ` +
        `callers and tests at the files on disk.`,
    );
  for (const n of notes) lines.push(`Note: ${n}`);
  return lines.join("\n");
}

/** The call sites of the changed signatures (head side, outside tests too), bound to the old and the new parameters. */
async function checkSignatureCalls(
  graph: CodeGraph,
  symbols: readonly ChangedSymbol[],
  sources: readonly ImpactSource[],
  readLines: (path: string) => Promise<string[]>,
): Promise<CallSiteCheck> {
  const idOf = new Map(sources.flatMap((s) => (s.id !== undefined ? [[s.qualified, s.id] as const] : [])));
  const changes = symbols.flatMap((s) => {
    const id = idOf.get(s.qualified);
    return s.change === "signature" && s.signature && s.side === "head" && id !== undefined
      ? [{ id, qualified: s.qualified, old: s.signature.old, new: s.signature.new }]
      : [];
  });
  if (changes.length === 0) return { checked: 0, breaking: [], undecided: 0 };
  return checkCallSites(graph, changes, readLines);
}
