/**
 * context(target, budget): resolve the target to seeds, plan the chunks around them, load only
 * the cited lines, render each chunk in full and as an outline, and fit the answer to the budget.
 */
import { languageById, languageForExtension } from "../../languages/index.ts";
import { lineMemoCounter, loadTokenCounter, type Encoding, ENCODINGS } from "../budget/tokenizer.ts";
import {
  chunkAnswerLayout,
  envelopeRecord,
  fitBlocks,
  type Block,
  type BlockForm,
  type Envelope,
} from "../budget/fit.ts";
import { matchSymbols, findSymbol, quotedName, suggestNames, symbolRef, type SymbolRef } from "../query/lookup.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import { outline } from "../query/queries.ts";
import type { SearchIndex } from "../search/search.ts";
import { EngineError, isEngineError } from "../../shared/errors.ts";
import { LIMITS } from "../limits.ts";
import { cite, citeName, normalizeRelative } from "../../shared/paths.ts";
import { findFile, parseLocation, sourceFiles, symbolsAt } from "./locate.ts";
import { closestMembers, findMembers, memberNames, memberOwners } from "./members.ts";
import { BRIEF_TOKENS, briefCaps, briefClassOutlines, briefFileOutlines } from "./brief.ts";
import { rankTask, type TaskRanking } from "../locate/rank-task.ts";
import { readTaskText, type TaskEvidence } from "../locate/task-text.ts";
import { findPhrases, type PhraseHit } from "../locate/phrases.ts";
import { parseTrace, type ParsedTrace } from "./trace.ts";
import { CLASS_KINDS, isLateMatch, planContext, type PlannedChunk, type Role } from "./plan.ts";
import { partsNote, routeParts } from "./route-parts.ts";
import { joinPaths, type MountLine, type Route } from "../query/routes.ts";
import { ROUTE, routesNamed } from "../query/route-calls.ts";
import type { TextIndex } from "../text/text-index.ts";
import { mayPointAtText, pointedText, settingNotes, textChunk, textTarget } from "./text-seeds.ts";
import { quoted } from "../../shared/quote.ts";

const DEFAULT_BUDGET = LIMITS.budget.context;
const MAX_BUDGET = LIMITS.budget.max;
const MAX_TARGET_CHARS = LIMITS.targetChars;

/** Options for context and pack. */
export interface ContextOptions {
  /** Tokens for the whole answer: its text, plus the envelope when there is one (default 8,000). */
  budget?: number;
  encoding?: Encoding;
  /** What the front end adds around the text; the budget covers it (default none). */
  envelope?: Envelope;
}

/** One chunk of the answer. */
export interface ContextChunk {
  path: string;
  start: number;
  end: number;
  role: Role;
  symbol: string;
  kind: string;
  form: "full" | "outline";
  /** Tokens of this chunk's rendered block as included. */
  tokens: number;
}

/** A chunk left out, with the handle to ask for it and what it would cost. */
export interface CutChunk {
  path: string;
  start: number;
  end: number;
  role: Role;
  symbol: string;
  /** Ask for it with this (a qualified name or path:start-end). */
  handle: string;
  tokens: number;
}

/** The answer to context / pack. */
export interface ContextAnswer {
  target: string;
  /** How the target was understood. */
  resolvedAs: "symbol" | "file" | "route" | "search" | "text";
  seeds: SymbolRef[];
  notes: string[];
  chunks: ContextChunk[];
  cut: CutChunk[];
  /** How many of `cut` (the first ones) the text lists by handle; it counts the rest. */
  cutListed: number;
  /**
   * `tokens`: a recount of `text`; `envelope`: the tokens reserved for the options' envelope
   * (present when one was asked for); `tokens + envelope ≤ budget`.
   */
  usage: { tokens: number; budget: number; encoding: Encoding; envelope?: number };
  text: string;
}

/** What the engine provides to the slicer: source text, the search index, the routes. */
export interface ContextIO {
  /**
   * The project root as the host names it (an absolute path on disk): absolute targets under it are read as relative.
   */
  root?: string;
  readText(path: string): Promise<string>;
  searchIndex(): SearchIndex;
  routes(): Route[];
  /** The text index (docs, configuration) of the same snapshot, when the host has one. */
  textIndex?(): Promise<TextIndex>;
}

interface Seeds {
  ids: number[];
  how: ContextAnswer["resolvedAs"];
  notes: string[];
  mounts: MountLine[];
  inline: PlannedChunk[];
  /** Symbols shown inside an inline seed: their neighbours are the seed's. */
  scopes?: number[];
  /** Further places a task in words points at (role `match`). */
  matches?: number[];
  /** Places past those: matches after every neighbour of the seeds (see LATE_MATCHES). */
  lateMatches?: number[];
  /**
   * A task's places and their scores as a share of the best one's (those worth a match): the seeds' neighbours
   * among them come first in their hop.
   */
  shares?: Map<number, number>;
  /** Outer project frames of a stack trace (role `frame`). */
  frames?: number[];
  /**
   * How many of the first inline chunks are text a task points at, and whether they lead the answer (else they close
   * it).
   */
  text?: { count: number; lead: boolean };
  /** For a route target: the routes it names (their models, dependencies and tests join the answer). */
  routes?: Route[];
}

/** Validates a budget argument. */
export function checkBudget(budget: number | undefined): number {
  const b = budget ?? DEFAULT_BUDGET;
  if (typeof b !== "number" || !Number.isInteger(b) || b < LIMITS.budget.min || b > MAX_BUDGET) {
    throw new EngineError(
      "invalid_argument",
      `budget must be a whole number of tokens from ${LIMITS.budget.min} to ${MAX_BUDGET}, got ${String(budget)}.`,
      {
        hint: `A few thousand is typical: ${DEFAULT_BUDGET} fits one endpoint with its types and callers.`,
        data: { budget, min: LIMITS.budget.min, max: MAX_BUDGET },
      },
    );
  }
  return b;
}

/** Validates an encoding argument. */
export function checkEncoding(encoding: string | undefined): Encoding {
  const e = encoding ?? "o200k_base";
  if (!ENCODINGS.includes(e as Encoding)) {
    throw new EngineError(
      "invalid_argument",
      `encoding must be one of ${ENCODINGS.join(", ")}, got ${quoted(encoding)}.`,
      { data: { encoding } },
    );
  }
  return e as Encoding;
}

const IDENTIFIER_LIKE = /^[\w$.#:/\\<>@-]+$/;
/** Written like a name rather than a word: CamelCase, dotted, snake_case, `path::name`, `file#name`. */
const NAME_LIKE = /[a-z0-9][A-Z]|[A-Za-z_$][\w$]*\.[A-Za-z_$]|_[A-Za-z0-9]|::|#|^[A-Z][A-Za-z0-9]*[A-Z]/;

/** `path` is not a file of the index: the error, with files of the same name as suggestions. */
function notIndexed(graph: CodeGraph, written: string): EngineError {
  const path = normalizeRelative(written) ?? written;
  const base = path.slice(path.lastIndexOf("/") + 1);
  const similar = [...graph.moduleSymbol.keys()].filter((p) => p.endsWith(`/${base}`) || p === base).slice(0, 5);
  return new EngineError("not_found", `${path} is not an indexed source file.`, {
    hint: similar.length ? `Did you mean ${similar.join(", ")}?` : "Check the path, relative to the project root.",
    data: { path, suggestions: similar },
  });
}

/** Lines of a file as seeds: the symbol enclosing them, or the lines themselves at module level. */
function locationSeeds(graph: CodeGraph, path: string, start: number, end: number, notes: string[]): Seeds {
  const lines = graph.records.get(path)?.lines ?? end;
  if (start > lines) {
    throw new EngineError("invalid_argument", `${path} has ${lines} lines; line ${start} is past the end.`, {
      data: { path, totalLines: lines },
    });
  }
  const last = Math.min(end, lines);
  const moduleId = graph.moduleSymbol.get(path)!;
  // The whole file (a file chunk's own handle): the file.
  if (start <= 1 && last >= lines) return { ids: [moduleId], how: "file", notes, mounts: [], inline: [] };
  const symbols = symbolsAt(graph, path, start, last);
  // Inside one definition: that definition, the innermost one.
  if (symbols.length === 1 && symbols[0]!.start <= start && symbols[0]!.end >= last)
    return { ids: [symbols[0]!.id], how: "symbol", notes, mounts: [], inline: [] };
  // Module-level lines, or lines across definitions: those lines, widened to the whole definitions
  // they touch (a single line gets a few around it); the definitions' neighbours come with them.
  let from = start === last ? Math.max(1, start - 3) : start;
  let to = start === last ? Math.min(lines, last + 3) : last;
  for (const s of symbols) {
    from = Math.min(from, s.start);
    to = Math.max(to, s.end);
  }
  const language = graph.symbols[moduleId]!.language;
  return {
    ids: [],
    how: "file",
    notes,
    mounts: [],
    scopes: symbols.map((s) => s.id),
    inline: [
      {
        path,
        start: from,
        end: to,
        role: "seed",
        label: cite(path, from, to),
        kind: "lines",
        language,
        distance: 0,
        confidence: 1,
      },
    ],
  };
}

/**
 * Seeds for a name the graph keeps as a binding, not a definition (see members.ts): a field's
 * class, or a constant's lines; a note says what the name is and where it is set.
 */
function memberSeeds(graph: CodeGraph, target: string, notes: string[]): Seeds | undefined {
  const hits = findMembers(graph, target);
  const hit = hits[0];
  if (!hit) return undefined;
  const where = hits.map((h) => cite(h.path, h.line)).join(", ");
  if (hit.kind === "field") {
    notes.push(
      `\`${hit.name}\` is not a definition but a ${hit.owner.kind === "enum" ? "member" : "field"} of ` +
        `${hit.owner.kind} ${hit.owner.qualified}, set at ${where}: that ${hit.owner.kind} is the seed`,
    );
    return { ids: [hit.owner.id], how: "symbol", notes, mounts: [], inline: [] };
  }
  notes.push(
    `\`${hit.name}\` is not a definition but a module-level value, set at ` +
      `${where}${hits.length > 1 ? " (the first is the seed)" : ""}`,
  );
  return locationSeeds(graph, hit.path, hit.line, hit.line, notes);
}

/**
 * `Owner.name` where the owner exists (one class, or several of that name) but holds no such
 * name: say so, with what it holds, the closest names first.
 */
function noMember(found: readonly SymbolNode[], name: string, graph: CodeGraph): EngineError {
  const owner = found[0]!;
  const held = found.flatMap((o) => memberNames(graph, o));
  const close = closestMembers(held, name).slice(0, 8);
  const who = found.length === 1 ? owner.qualified : `No ${owner.kind} named ${owner.name} (${found.length} of them)`;
  return new EngineError(
    "unknown_symbol",
    found.length === 1 ? `${who} has no member named ${quoted(name)}.` : `${who} has a member named ${quoted(name)}.`,
    {
      hint: close.length
        ? `Did you mean ${close.map((h) => h.qualified).join(", ")}${held.length > close.length ? ", …" : ""}?`
        : `Ask for ${owner.qualified} itself.`,
      data: {
        target: found.length === 1 ? `${owner.qualified}.${name}` : `${owner.name}.${name}`,
        suggestions: close.map(({ qualified, kind, path, line }) => ({ qualified, kind, path, line })),
      },
    },
  );
}

/** The part of `Owner.member` (also `::`, `#`) after the owner. */
const memberPart = (target: string) => /([A-Za-z_$][\w$]*)$/.exec(target)?.[1] ?? target;

/**
 * A file path as written: a `/` or `\\` in it, or one of the indexed languages' extensions at its
 * end (unless a symbol is called that: `config.py` may be a module's qualified name).
 */
function looksLikePath(target: string, graph: CodeGraph): boolean {
  if (target.includes("/") || target.includes("\\")) return true;
  const ext = /\.[A-Za-z0-9+]{1,6}$/.exec(target)?.[0].toLowerCase();
  return ext !== undefined && languageForExtension(ext) !== undefined && graph.byQualified.get(target) === undefined;
}

/** Seeds for a `METHOD /path` target: the handlers of the routes it matches, inline handlers as chunks. */
function routeSeeds(graph: CodeGraph, io: ContextIO, method: string, path: string, target: string): Seeds {
  const hits = routesNamed(io.routes(), method, path, target);
  const ids: number[] = [];
  const inline: PlannedChunk[] = [];
  const mounts: MountLine[] = [];
  for (const r of hits) {
    if (r.handler !== undefined) ids.push(r.handler);
    else {
      const language = graph.symbols[graph.moduleSymbol.get(r.file)!]!.language;
      inline.push({
        path: r.file,
        start: r.span.start,
        end: r.span.end,
        role: "seed",
        label: `${r.method} ${r.path}`,
        kind: "route",
        language,
        distance: 0,
        confidence: 1,
      });
    }
    for (const m of r.mounts) if (!mounts.some((x) => x.path === m.path && x.start === m.start)) mounts.push(m);
  }
  const notes = hits.map((r) =>
    r.suffixOf !== undefined
      ? `route ${r.method} …${knownSuffix(r)} registered at ${cite(r.file, r.line)}, ` +
        `matched by the end of the path: its prefix ${r.suffixOf} is not a string the project spells out`
      : `route ${r.method} ${r.path} registered at ${cite(r.file, r.line)}`,
  );
  return { ids: [...new Set(ids)], how: "route", notes, mounts, inline, routes: hits };
}

/** The part of a route's path after its last prefix that could not be resolved. */
function knownSuffix(r: Route): string {
  const known = r.mounts.slice(r.mounts.findLastIndex((x) => x.unresolved !== undefined) + 1);
  return joinPaths(...known.map((x) => x.prefix), r.own);
}

/** Understands a target: route, path::symbol, file path, symbol name, or free text for search. */
export function resolveTarget(
  graph: CodeGraph,
  targetArg: string,
  io: ContextIO,
  task?: { maxSeeds: number },
  words?: TaskWords,
  text?: TextIndex,
): Seeds {
  const maxSeeds = task?.maxSeeds ?? DEFAULT_TASK_SEEDS;
  const target = targetArg.trim();
  if (target === "")
    throw new EngineError("invalid_argument", "The target is empty.", {
      hint: "Pass a symbol (Session.send), a file path, `METHOD /path`, or a few words.",
    });
  if (target.length > MAX_TARGET_CHARS) {
    throw new EngineError(
      "invalid_argument",
      `The target is ${target.length} characters; the limit is ${MAX_TARGET_CHARS}.`,
      {
        hint: "Pass a symbol, a path or a short description; for a long task, its key words.",
        data: { length: target.length, max: MAX_TARGET_CHARS },
      },
    );
  }
  // `pack` takes a task in words as it is; `context` first reads it as a route, a location or a name.
  if (task) return textOr(() => taskSeeds(graph, io, target, maxSeeds, words), graph, io, text, target);
  // A section of a doc or a key of a configuration file (`docs/deploy.md#Traefik`, `compose.yml:services.db`).
  const named = text ? textTarget(text, target) : undefined;
  if (named) {
    return {
      ids: [],
      how: "text",
      notes: text ? settingNotes(graph, text, [], named.sets) : [],
      mounts: [],
      inline: [named.chunk],
    };
  }
  const route = ROUTE.exec(target);
  if (route) return routeSeeds(graph, io, route[1]!, route[2]!, target);
  // A pasted trace alone seeds from its innermost project frame; a report that holds a trace among
  // its words is a task, with the frames as evidence; a trace none of whose frames is in the
  // project still has its error line and function names to go by.
  const trace = parseTrace(target);
  if (trace && (words?.evidence ?? readTaskText(target)).traceOnly) {
    const seeds = traceSeeds(graph, io, trace, words && { text: target, ...words });
    if (seeds) return seeds;
  }
  const location = parseLocation(target);
  if (location) {
    const found = findFile(sourceFiles(graph), location.path, io.root, { quoted: location.quoted });
    const notes = found?.note ? [found.note] : [];
    if (found && location.symbol !== undefined) {
      const ids = matchSymbols(graph, `${found.path}::${location.symbol}`);
      if (ids.length >= 1)
        return {
          ids: [findSymbol(graph, `${found.path}::${location.symbol}`).id],
          how: "symbol",
          notes,
          mounts: [],
          inline: [],
        };
      const member = memberSeeds(graph, `${found.path}::${location.symbol}`, notes);
      if (member) return member;
      const inFile = suggestNames(graph, location.symbol, 50)
        .filter((r) => r.path === found.path)
        .slice(0, 5);
      throw new EngineError("unknown_symbol", `No symbol named ${quoted(location.symbol)} in ${found.path}.`, {
        hint: inFile.length
          ? `Did you mean ${inFile.map((r) => r.qualified).join(", ")}?`
          : `The file ${found.path} itself shows what it defines.`,
        data: { target, suggestions: inFile },
      });
    }
    if (found && location.start !== undefined)
      return locationSeeds(graph, found.path, location.start, location.end ?? location.start, notes);
    if (found) return { ids: [graph.moduleSymbol.get(found.path)!], how: "file", notes, mounts: [], inline: [] };
    // A quoted name that is no file: a symbol whose name needed quoting (see citeName).
    if (
      location.quoted &&
      location.start === undefined &&
      location.symbol === undefined &&
      matchSymbols(graph, location.path).length
    ) {
      return { ids: [findSymbol(graph, location.path).id], how: "symbol", notes, mounts: [], inline: [] };
    }
    if (location.quoted || (location.start !== undefined && !/\s/.test(target))) throw notIndexed(graph, location.path);
    // `ns::Class::method` (C++, Rust, PHP) is a symbol when no file is called `ns`.
  }
  // `Session.sned` is a name with a typo, not a file: only a `/` or a source extension makes a path.
  if (!target.includes("::") && !/\s/.test(target) && looksLikePath(target, graph)) {
    const found = findFile(sourceFiles(graph), target, io.root);
    if (found)
      return {
        ids: [graph.moduleSymbol.get(found.path)!],
        how: "file",
        notes: found.note ? [found.note] : [],
        mounts: [],
        inline: [],
      };
    if (matchSymbols(graph, target).length === 0) {
      // A name ending like a file (`Config.js`) may still be a constant or a field: those first, then "not indexed".
      const member = memberSeeds(graph, target, []);
      if (member) return member;
      const found = memberOwners(graph, target);
      if (found.length) throw noMember(found, memberPart(target), graph);
      throw notIndexed(graph, target);
    }
  }
  if (IDENTIFIER_LIKE.test(target)) {
    const ids = matchSymbols(graph, target);
    if (ids.length >= 1)
      return { ids: [findSymbol(graph, target).id], how: "symbol", notes: [], mounts: [], inline: [] };
    const member = NAME_LIKE.test(target) || /[.#]|::/.test(target) ? memberSeeds(graph, target, []) : undefined;
    if (member) return member;
    // `Owner.membr`: the owner exists, the member is misspelled: its closest members.
    const found = /[.#]|::/.test(target) ? memberOwners(graph, target) : [];
    if (found.length) throw noMember(found, memberPart(target), graph);
    // Written like a name (CamelCase, dotted, snake_case, path::name): a name nobody defines is an
    // unknown symbol, with the closest names — never a silent search that answers about something else.
    if (NAME_LIKE.test(target)) {
      const suggestions = suggestNames(graph, target);
      throw new EngineError("unknown_symbol", `No symbol named ${quotedName(target)}.`, {
        hint: suggestions.length
          ? `Did you mean ${suggestions.map((s) => s.qualified).join(", ")}?`
          : "Search for it with words from its name or docstring.",
        data: { target, suggestions },
      });
    }
  }
  return textOr(() => taskSeeds(graph, io, target, maxSeeds, words), graph, io, text, target);
}

/** A task's seeds with the text it points at; text alone when no code matches it but text does. */
function textOr(code: () => Seeds, graph: CodeGraph, io: ContextIO, text: TextIndex | undefined, task: string): Seeds {
  let seeds: Seeds;
  try {
    seeds = code();
  } catch (error) {
    const only =
      text && isEngineError(error, "no_match", "unknown_symbol") && /\s/.test(task.trim())
        ? withText({ ids: [], how: "search", notes: [], mounts: [], inline: [] }, graph, io, text, task)
        : undefined;
    // No code to follow: the text leads whatever kind of task pointed at it.
    if (only?.text)
      return {
        ...only,
        how: "text",
        text: { ...only.text, lead: true },
        inline: only.inline.map((c, i) => (i === 0 ? { ...c, role: "seed", distance: 0 } : c)),
      };
    throw error;
  }
  return withText(seeds, graph, io, text, task);
}

/**
 * A task's seeds with the text chunks it points at (see `pointedText`): leading them when the task
 * asks about configuration or docs (answered from those files first, the code after), else after
 * everything the code brings, as further places.
 */
function withText(seeds: Seeds, graph: CodeGraph, io: ContextIO, text: TextIndex | undefined, task: string): Seeds {
  if (!text) return seeds;
  const { hits, lead } = pointedText(text, io.searchIndex(), task);
  if (hits.length === 0) return seeds;
  return {
    ...seeds,
    notes: [
      ...seeds.notes,
      `the task points at ${hits.map((h) => h.handle).join(", ")} (text)${lead ? " first" : " too"}`,
    ],
    inline: [
      ...hits.map((h, i) => textChunk(h.chunk, lead && i === 0 ? "seed" : "match", lead && i === 0 ? 0 : 1)),
      ...seeds.inline,
    ],
    text: { count: hits.length, lead },
  };
}

/**
 * Seeds for a stack trace: the innermost frame in the project is the seed, the other project
 * frames come as `frame` chunks (outermost last), the error line is a note. Frames are matched by
 * the longest path suffix inside the root, since traces come from other machines and checkouts.
 */
function traceSeeds(
  graph: CodeGraph,
  io: ContextIO,
  trace: ParsedTrace,
  words?: TaskWords & { text: string },
): Seeds | undefined {
  const files = sourceFiles(graph);
  const inProject: { path: string; line: number; fn?: string }[] = [];
  let outside = 0;
  for (const f of trace.frames) {
    let found: { path: string } | undefined;
    try {
      found = findFile(files, f.path, io.root);
    } catch {
      found = undefined; // a suffix several files share: not this frame's to guess
    }
    if (found && (graph.records.get(found.path)?.lines ?? 0) >= f.line) inProject.push({ ...f, path: found.path });
    else outside++;
  }
  const innermost = inProject.at(-1);
  if (!innermost) return undefined;
  const seed = locationSeeds(graph, innermost.path, innermost.line, innermost.line, []);
  const seen = new Set(seed.ids);
  const frames: number[] = [];
  for (const f of inProject.slice(0, -1).reverse()) {
    for (const s of symbolsAt(graph, f.path, f.line, f.line).slice(0, 1)) {
      if (!seen.has(s.id)) frames.push(s.id);
      seen.add(s.id);
    }
  }
  const notes = [
    ...(trace.error ? [`error: ${trace.error.length > 300 ? `${trace.error.slice(0, 300)}…` : trace.error}`] : []),
    `trace: ${inProject.length} of ${trace.frames.length} frames in the project (innermost ` +
      (`${cite(innermost.path, innermost.line)}${innermost.fn ? ` in ${innermost.fn}` : ""})` +
        `${outside ? `; ${outside} outside it (libraries, the runtime)` : ""}`),
  ];
  // The words around the trace (its title, the error, the reporter's code) still point at places:
  // shown last, in what a large budget has left after the frames and their neighbours.
  const late = words ? wordsPastTrace(graph, io, words, [...seed.ids, ...(seed.scopes ?? []), ...frames]) : [];
  if (late.length)
    notes.push(`the task's words point at ${late.length} more place${late.length > 1 ? "s" : ""} (match)`);
  return {
    ...seed,
    how: seed.how === "file" && seed.inline.length === 0 ? "file" : seed.how,
    notes,
    frames,
    ...(late.length ? { lateMatches: late } : {}),
  };
}

/** The places a trace's task text points at besides its frames (none when its words match nothing well). */
function wordsPastTrace(
  graph: CodeGraph,
  io: ContextIO,
  words: TaskWords & { text: string },
  shown: readonly number[],
): number[] {
  const ranking = rankTask(io.searchIndex(), graph, words.text, io.root, words.phrases, words.evidence);
  return ranking.relevant ? taskMatches(graph, ranking, shown, LATE_MATCHES) : [];
}

/** A task text read into evidence, with the quoted messages found in the project. */
interface TaskWords {
  evidence: TaskEvidence;
  phrases: readonly PhraseHit[];
}

/**
 * A route target's models (as `type` chunks), the dependencies and middleware that run before its
 * handler (as `callee` chunks) and the tests that send it a request (as `witness` chunks), with a
 * note naming each; issue 24: a route answer that left them out sent the agent to grep for them.
 */
async function routeSeedParts(
  graph: CodeGraph,
  io: ContextIO,
  seeds: Seeds,
): Promise<{ types: number[]; deps: number[]; tests: number[] }> {
  const out = { types: [] as number[], deps: [] as number[], tests: [] as number[] };
  const all = io.routes();
  for (const r of seeds.routes ?? []) {
    const parts = await routeParts(graph, all, r, io.readText);
    for (const m of parts.models) if (m.id !== undefined) out.types.push(m.id);
    for (const d of parts.dependencies) if (d.id !== undefined) out.deps.push(d.id);
    for (const t of parts.tests) if (graph.symbols[t.callerId]?.kind !== "module") out.tests.push(t.callerId);
    seeds.notes.push(
      ...partsNote(parts, (c) => `${cite(c.path, c.line)}${c.caller !== c.path ? ` (${c.caller})` : ""}`).map(
        (n) => `${r.method} ${r.path} ${n}`,
      ),
    );
  }
  return out;
}

/** Seeds for a task in words: the strongest places in full, the next ones as matches. */
function taskSeeds(graph: CodeGraph, io: ContextIO, text: string, maxSeeds: number, words?: TaskWords): Seeds {
  const ranking = rankTask(io.searchIndex(), graph, text, io.root, words?.phrases, words?.evidence);
  const top = ranking.candidates[0];
  if ((!top || !ranking.relevant) && !/\s/.test(text)) {
    // One word that matches nothing well may be a misspelled name.
    const suggestions = suggestNames(graph, text);
    if (suggestions.length) {
      throw new EngineError("unknown_symbol", `No symbol named ${quoted(text)}.`, {
        hint: `Did you mean ${suggestions.map((s) => s.qualified).join(", ")}?`,
        data: { target: text, suggestions },
      });
    }
  }
  if (!top || !ranking.relevant) {
    const closest = ranking.candidates.slice(0, 5).map((c) => symbolRef(graph.symbols[c.id]!));
    throw new EngineError(
      "no_match",
      `Nothing in the project matches ${quoted(text.length > 80 ? `${text.slice(0, 80)}…` : text)} well.`,
      {
        hint: closest.length
          ? `The closest, each holding few of the words: ${closest.map((r) => r.qualified).join(", ")}.`
          : "Try words from the code itself: names, messages, comments.",
        data: { target: text.slice(0, 200), terms: ranking.terms, closest },
      },
    );
  }
  const best = top.score;
  const seeds = ranking.candidates
    .slice(0, maxSeeds)
    .filter((c, i) => i === 0 || c.score >= best * SEED_SHARE)
    .map((c) => c.id);
  const matches = taskMatches(graph, ranking, seeds, MAX_MATCHES);
  const late = taskMatches(graph, ranking, [...seeds, ...matches], LATE_MATCHES);
  const places = [...matches, ...late];
  const q = (id: number) => citeName(graph.symbols[id]!.qualified);
  return {
    ids: seeds,
    how: "search",
    notes: [
      `the task's words point first at ${seeds.map(q).join(", ")}` +
        (places.length ? `, then ${places.length} more place${places.length > 1 ? "s" : ""} (match)` : ""),
    ],
    mounts: [],
    inline: [],
    matches,
    ...(late.length ? { lateMatches: late } : {}),
    shares: new Map(ranking.candidates.filter((c) => c.score >= best * MATCH_SHARE).map((c) => [c.id, c.score / best])),
  };
}

/**
 * The places a task points at past its seeds, best first, at most `max`. They reach across files
 * in the ranking's file order: the best place of each file not yet shown, taken in turn with the
 * next places in files already shown, so a small budget still points at several files.
 */
function taskMatches(graph: CodeGraph, ranking: TaskRanking, seeds: readonly number[], max: number): number[] {
  const best = ranking.candidates[0]?.score ?? 0;
  const taken = new Set(seeds);
  const shownFiles = new Set(seeds.map((id) => graph.symbols[id]!.file));
  const firsts: number[] = [];
  for (const f of ranking.files) {
    if (firsts.length >= max) break;
    if (shownFiles.has(f.path)) continue;
    const c = f.symbols.find((x) => graph.symbols[x.id]!.kind !== "module") ?? f.symbols[0]!;
    if (c.score < best * MATCH_SHARE || taken.has(c.id)) continue;
    shownFiles.add(f.path);
    firsts.push(c.id);
    taken.add(c.id);
  }
  const rest = ranking.candidates
    .slice(0, seeds.length + max * 2)
    .filter((c) => c.score >= best * MATCH_SHARE && !taken.has(c.id))
    .map((c) => c.id);
  const matches: number[] = [];
  for (let i = 0; matches.length < max && (i < firsts.length || i < rest.length); i++) {
    if (i < firsts.length) matches.push(firsts[i]!);
    if (i < rest.length && matches.length < max) matches.push(rest[i]!);
  }
  return matches;
}

/** Seeds a task in words gets by default (pack's `seeds` option changes it). */
export const DEFAULT_TASK_SEEDS = 5;
/** Seeds a task may have; places past them that score this share of the best become matches. */
const SEED_SHARE = 0.45;
const MATCH_SHARE = 0.12;
/** Places past the seeds a task's answer points at (as outlines, bodies while budget lasts). */
const MAX_MATCHES = 25;
/**
 * Places past those (and the places a stack trace's words point at): outlines after every
 * neighbour of the seeds, so they fill what a large budget has left and take nothing from a small
 * one. On the issue-report benchmark the changed function was more often among them than among the
 * seeds' second-hop neighbours or tests.
 */
const LATE_MATCHES = 75;

/** A fenced code block tagged with the language's fence name. */
function fence(language: string, body: string): string {
  const tick = body.includes("```") ? "````" : "```";
  return `${tick}${languageById(language)?.fence ?? language}\n${body}\n${tick}`;
}

/**
 * A task's chunks with the text chunks it points at (the first `pointed.length` inline chunks): first
 * when the text leads (the code seeds then count as matches), last otherwise.
 */
function textOrder(planned: PlannedChunk[], pointedAt: PlannedChunk[], lead: boolean): PlannedChunk[] {
  const pointed = new Set(pointedAt);
  const rest = planned.filter((c) => !pointed.has(c));
  return lead && planned.some((c) => pointed.has(c))
    ? [
        ...planned.filter((c) => pointed.has(c)),
        ...rest.map((c) => (c.role === "seed" ? { ...c, role: "match" as const } : c)),
      ]
    : [...rest, ...planned.filter((c) => pointed.has(c))];
}

/** The answer's "Seed:" line: the seeds' names (text chunks first when the text leads). */
function seedLabelOf(graph: CodeGraph, seeds: Seeds): string {
  return (
    seeds.text?.lead
      ? [
          ...seeds.inline.slice(0, seeds.text.count).map((c) => c.label),
          ...seeds.ids.map((id) => graph.symbols[id]!.qualified),
        ]
      : seeds.ids.length
        ? seeds.ids.map((id) => graph.symbols[id]!.qualified)
        : seeds.inline.map((c) => c.label)
  )
    .map(citeName)
    .join(", ");
}

/** The symbols the seeds (and their members) call. */
function calledBySeeds(graph: CodeGraph, ids: number[]): Set<number> {
  const used = new Set<number>();
  for (const id of ids) {
    for (const s of [id, ...(graph.children.get(id) ?? [])])
      for (const ei of graph.callsFrom.get(s) ?? []) used.add(graph.calls[ei]!.callee);
  }
  return used;
}

/** How an answer names a chunk to ask for again: its symbol, or its lines. */
function handleOf(c: PlannedChunk): string {
  return c.symbol !== undefined && c.kind !== "file" ? c.label : cite(c.path, c.start, c.end);
}

/** A chunk as the answer lists it shown. */
function shownChunk(c: PlannedChunk, form: "full" | "outline", tokens: number): ContextChunk {
  return { path: c.path, start: c.start, end: c.end, role: c.role, symbol: c.label, kind: c.kind, form, tokens };
}

/** A chunk as the answer lists it cut, with the handle to ask for it. */
function cutChunk(c: PlannedChunk, tokens: number): CutChunk {
  return { path: c.path, start: c.start, end: c.end, role: c.role, symbol: c.label, handle: handleOf(c), tokens };
}

/** The target read (a task's words and quoted messages first), resolved to seeds, and the chunks planned. */
async function seedsAndPlan(
  graph: CodeGraph,
  target: string,
  io: ContextIO,
  task: { maxSeeds: number } | undefined,
): Promise<{ seeds: Seeds; planned: PlannedChunk[] }> {
  // A task in words is read once, and the messages it quotes found (that needs the files) before
  // the target is resolved.
  let words: TaskWords | undefined;
  if (task || /\s\S+\s/.test(target.trim())) {
    const evidence = readTaskText(target);
    words = { evidence, phrases: await findPhrases(io.searchIndex(), graph, target, evidence, io.readText) };
  }
  // The text index only when the target may need it: a name or a handle (one word, or `path#Heading
  // with spaces`: a handle, or a symbol whose settings notes read it), or words that may point at
  // text (a question, an env variable, a text file named). A bug report or a commit message about
  // code does not build it.
  const t = target.trim();
  const text =
    (!task && (!/\s/.test(t) || /^\S+?[#:]/.test(t))) || mayPointAtText(t) ? await io.textIndex?.() : undefined;
  const seeds = resolveTarget(graph, target, io, task, words, text);
  if (text && seeds.ids.length && seeds.how !== "search") seeds.notes.push(...settingNotes(graph, text, seeds.ids, []));
  const parts = seeds.routes ? await routeSeedParts(graph, io, seeds) : undefined;
  const planned = planContext(graph, seeds.ids, {
    mounts: seeds.mounts,
    inline: seeds.inline,
    ...(seeds.scopes ? { scopes: seeds.scopes } : {}),
    ...(seeds.matches ? { matches: seeds.matches } : {}),
    ...(seeds.lateMatches ? { lateMatches: seeds.lateMatches } : {}),
    ...(seeds.frames ? { frames: seeds.frames } : {}),
    ...(parts ? { parts } : {}),
    ...(seeds.shares ? { relevance: seeds.shares } : {}),
  });
  return {
    seeds,
    planned: seeds.text
      ? textOrder(planned, seeds.inline.slice(0, seeds.text.count), seeds.text.lead === true)
      : planned,
  };
}

/**
 * The same lines twice would waste budget: a chunk inside a seed is dropped; one inside another
 * chunk is left to the fitter (`within`: the earlier chunks holding it), which skips it only when
 * the container is shown in full.
 */
function withoutRepeats(planned: PlannedChunk[]): { chunks: PlannedChunk[]; within: number[][] } {
  const chunks = planned.filter(
    (c, i) =>
      !planned.some((o, j) => j < i && o.role === "seed" && o.path === c.path && o.start <= c.start && o.end >= c.end),
  );
  const within = chunks.map((c, i) =>
    chunks.flatMap((o, j) => (j < i && o.path === c.path && o.start <= c.start && o.end >= c.end ? [j] : [])),
  );
  return { chunks, within };
}

/** Builds the context answer for `target`. */
export async function buildContext(
  graph: CodeGraph,
  target: string,
  options: ContextOptions,
  io: ContextIO,
  task?: { maxSeeds: number },
): Promise<ContextAnswer> {
  const budget = checkBudget(options.budget);
  const encoding = checkEncoding(options.encoding);
  // Line by line, remembered: an outline, its brief and the drafts of the answer share most lines.
  const count = lineMemoCounter(await loadTokenCounter(encoding));
  const { seeds, planned } = await seedsAndPlan(graph, target, io, task);

  // Load each cited file once; a chunk nested in another chunk of the answer is skipped.
  const texts = new Map<string, string[]>();
  for (const path of new Set(planned.map((c) => c.path))) texts.set(path, (await io.readText(path)).split("\n"));
  const { chunks, within } = withoutRepeats(planned);

  const seedLabel = seedLabelOf(graph, seeds);
  const notes = [
    ...seeds.notes,
    ...brokenFiles(
      graph,
      planned.filter((c) => !isLateMatch(c)),
    ),
  ];
  const seedRefs = seeds.ids.map((id) => symbolRef(graph.symbols[id]!));
  const seedOutlineNote = (full: number) => `the seed is shown as an outline: its full body needs ${full} tokens`;

  // The envelope: what the front end adds once, and what each record costs when it repeats them.
  const perRecord = options.envelope?.perRecord;
  const fields = options.envelope?.fields ?? {};
  const record = (value: unknown, kind?: string) =>
    perRecord === undefined
      ? 0
      : count(JSON.stringify(envelopeRecord(value, kind === undefined ? undefined : fields[kind]))) + perRecord;
  const envelopeFixed =
    options.envelope === undefined
      ? 0
      : options.envelope.fixed +
        seedRefs.reduce((a, r) => a + record(r, "seed"), 0) +
        notes.reduce((a, n) => a + record(n), 0);

  // What the seed calls: the members a brief outline of a long class keeps first.
  const used = calledBySeeds(graph, [...seeds.ids, ...(seeds.scopes ?? [])]);

  let seedFullTokens = 0;
  const blocks: Block[] = chunks.map((c, i) => {
    const lines = texts.get(c.path) ?? [];
    const body = lines.slice(c.start - 1, c.end).join("\n");
    const head = `## ${cite(c.path, c.start, c.end)} [${c.role}] ${citeName(c.label)}`;
    const sym = c.symbol !== undefined ? graph.symbols[c.symbol]! : undefined;
    const outlineText =
      sym && sym.kind !== "module" ? outline(graph, sym) : sym ? fileOutline(graph, sym.id) : undefined;
    const full = `${head}\n${fence(c.language, body)}`;
    const hasOutline = outlineText !== undefined && outlineText.length < body.length;
    const outlineBlock = hasOutline ? `${head} (outline)\n${fence(c.language, outlineText)}` : undefined;
    const briefTexts =
      hasOutline && sym ? briefsOf(graph, sym, outlineText, { used, task: seeds.how === "search", count }) : [];
    const briefBlocks = briefTexts
      .filter((t) => t.length < outlineText!.length)
      .map((t) => `${head} (outline)\n${fence(c.language, t)}`);
    // The seed as an outline says so, and from which budget its body shows.
    // Counted exactly (a long text's cost is otherwise estimated): the note cites it, and the seed
    // shows whole from the budget its real size asks for.
    const fullTokens = i === 0 && outlineBlock !== undefined ? count(full) : 0;
    if (i === 0) seedFullTokens = fullTokens;
    const note =
      i === 0 && outlineBlock !== undefined
        ? (fullAt: number | undefined) =>
            `Note: the seed's full body needs ${fullTokens} tokens; shown as an outline. ` +
            (fullAt !== undefined && fullAt <= MAX_BUDGET
              ? `Ask with budget ≥ ${fullAt} for the full text, or read its lines.`
              : "Read its lines for the full text.")
        : undefined;
    const block: Block = {
      full,
      ...(outlineBlock !== undefined ? { outline: outlineBlock } : {}),
      ...(briefBlocks.length ? { briefs: briefBlocks } : {}),
      ...(note ? { note } : {}),
      ...(isLateMatch(c)
        ? { trailing: true }
        : {
            listed: (tokens: number) =>
              `- ${cite(c.path, c.start, c.end)} [${c.role}] ${citeName(c.label)} (${tokens} tokens)`,
          }),
      // Beyond the first hop, a neighbour's shape is what helps; its body is one request away.
      ...(c.distance >= 2 && hasOutline ? { outlineOnly: true } : {}),
      ...(c.listOnly ? { listOnly: true } : {}),
      // The next places a task points at: their shapes first, their bodies while budget lasts.
      ...(c.role === "match" && hasOutline ? { preferOutline: true } : {}),
      ...(hasOutline ? bodyRule(c, i, seeds, () => count(full), fullTokens) : {}),
      ...(i === 0 ? { required: true, ...(note ? { cost: fullTokens + 2 } : {}) } : {}),
      ...(within[i]!.length ? { within: within[i]! } : {}),
    };
    if (perRecord !== undefined) {
      const fullCount = count(full);
      // The records of the outline forms cite their token counts (the seed's note counted with a wide number).
      const asOutline = (text: string) =>
        record(shownChunk(c, "outline", count(note ? `${text}\n${note(MAX_BUDGET)}` : text)), "chunk") +
        (i === 0 ? record(seedOutlineNote(fullCount)) : 0);
      block.envelope = {
        full: record(shownChunk(c, "full", fullCount), "chunk"),
        ...(outlineBlock !== undefined ? { outline: asOutline(outlineBlock) } : {}),
        ...(briefBlocks.length ? { briefs: briefBlocks.map(asOutline) } : {}),
        listed: record(cutChunk(c, fullCount), "cut"),
      };
    }
    return block;
  });

  const oneLine = target.replace(/\s*\r?\n\s*/g, " ⏎ ");
  const header = [
    `# codeslice context: ${oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine}`,
    `Seed: ${seedLabel}`,
    ...notes.map((n) => `Note: ${n}`),
  ].join("\n");
  const fit = fitBlocks({
    header,
    blocks,
    budget,
    count,
    ...chunkAnswerLayout(encoding),
    envelope: envelopeFixed,
    smallest: "even the target's outline",
    monotone: GROWTH,
  });

  const included: ContextChunk[] = [];
  const cut: CutChunk[] = [];
  chunks.forEach((c, i) => {
    const form: BlockForm = fit.forms[i]!;
    if (form === "covered") return;
    if (form === "cut") cut.push(cutChunk(c, fit.fullTokens(i)));
    else included.push(shownChunk(c, form === "full" ? "full" : "outline", fit.shownTokens(i)!));
  });
  if (fit.forms[0] === "outline" || fit.forms[0] === "brief") notes.push(seedOutlineNote(seedFullTokens));
  return {
    target,
    resolvedAs: seeds.how,
    seeds: seedRefs,
    notes,
    chunks: included,
    cut,
    cutListed: fit.listed,
    usage: { tokens: fit.tokens, budget, encoding, ...(options.envelope ? { envelope: fit.envelope } : {}) },
    text: fit.text,
  };
}

/**
 * How an answer grows with its budget (see budget/thresholds.ts): a neighbour's outline takes at most a fifth
 * of the budget, the seed's outline (past its smallest brief) two fifths, a neighbour in full a third, the seed in
 * full two thirds; a larger chunk waits for a budget where it takes no more, so it never crowds out what ranks after
 * it. A neighbour whose
 * body is over 400 tokens (~40 lines) shows whole only after every neighbour has appeared. Chosen
 * on test/slice/monotone-budgets.test.ts (requests, click, zod; 210 targets × 8 budgets): against
 * ¼ / ⅖ / ¾ and no deferral, more chunks per answer on all three (e.g. zod 3.37 whole + 2.39
 * outlines, against 3.24 + 2.00) for a few points of budget left unused. The seed's larger briefs at two fifths
 * (test/bench/context-fill-bench.mjs, django's 30 longest classes): at two thirds, like its body, the seed's outline
 * crowded out its neighbours (at 2,000 tokens 3.83 + 2.53 chunks whole + outlined per answer, against 4.30 + 2.67
 * with a single brief); at two fifths the answers fill as much (98.9% of 2,000 tokens, against 97.3%) and show more
 * neighbours (4.67 + 3.00).
 */
const GROWTH = { outline: 0.2, full: 1 / 3, required: 2 / 3, requiredOutline: 0.4, longFull: 400 } as const;

/**
 * Tokens past which the body of a task's seed that is a class or a file enters after every other chunk, the late
 * matches included: a neighbour's share of the default budget. Its entry budget is above what most answers are
 * asked for, and every chunk shown below it must still fit beside it there, so a 6,500-token class seed left a
 * third of an 8,000-token answer empty (jinja's Environment, marshmallow's BaseSchema on the issue-report cases);
 * its outline already lists the members, and they are places of their own.
 */
const BIG_TASK_SEED = Math.round(DEFAULT_BUDGET * GROWTH.full);

/** A task's seed that is a class or file over BIG_TASK_SEED tokens: its body waits for every other chunk. */
function bodyWaits(c: PlannedChunk, seeds: Seeds, tokens: () => number): boolean {
  return (
    c.role === "seed" &&
    seeds.how === "search" &&
    (CLASS_KINDS.has(c.kind) || c.kind === "file") &&
    tokens() > BIG_TASK_SEED
  );
}

/**
 * A seed that is a class or file over BIG_TASK_SEED tokens, whatever the target: its body enters only past the
 * budgets its share rules out (Block.fullAfterSmaller), so below them its outline and the chunks ranked after it fill
 * the answer. Entered first, it held them to the room left beside it at that budget: `context Pytester` on pytest
 * (a 7,426-token class) used 1,326 of 2,000 and 5,097 of 8,000 tokens with 140 chunks cut.
 */
function bigSeed(c: PlannedChunk, tokens: number): boolean {
  return c.role === "seed" && (CLASS_KINDS.has(c.kind) || c.kind === "file") && tokens > BIG_TASK_SEED;
}

/**
 * When a chunk's body enters: a task's big seed after every other chunk (bodyWaits), any other big seed after those
 * entering below its share's budget (bigSeed); else in rank order.
 */
function bodyRule(
  c: PlannedChunk,
  i: number,
  seeds: Seeds,
  tokens: () => number,
  seedTokens: number,
): Pick<Block, "fullAfterTrailing" | "fullAfterSmaller"> {
  if (bodyWaits(c, seeds, tokens)) return { fullAfterTrailing: true };
  return i === 0 && bigSeed(c, seedTokens) ? { fullAfterSmaller: true } : {};
}

/** The most files with syntax errors a context answer names. */
const MAX_BROKEN_FILES = 3;

/**
 * One note per file of the answer's neighbourhood (the planned chunks, shown or cut) that parsed
 * with errors: where the broken regions are, and whether one lies inside a chunk, since what sits
 * there (a definition, a call) is not seen and may be missing from the answer.
 */
function brokenFiles(graph: CodeGraph, planned: PlannedChunk[]): string[] {
  const notes: string[] = [];
  const paths = [...new Set(planned.map((c) => c.path))].filter((p) => graph.records.get(p)?.diagnostics.length);
  for (const path of paths.slice(0, MAX_BROKEN_FILES)) {
    const diagnostics = graph.records.get(path)!.diagnostics;
    const regions = diagnostics.map((d) => (d.end !== undefined ? `${d.line}-${d.end}` : `${d.line}`));
    const inside = planned.find(
      (c) => c.path === path && diagnostics.some((d) => d.line <= c.end && (d.end ?? d.line) >= c.start),
    );
    notes.push(
      `${path} has syntax errors at line${regions.length > 1 || regions[0]!.includes("-") ? "s" : ""} ` +
        (`${regions.join(", ")}${diagnostics.length >= 5 ? " (the first five)" : ""}, read only in ` +
          (`part${inside ? `, one inside ${inside.role} ${citeName(inside.label)}` : ""}: what sits there may be ` +
            `missing from this answer`)),
    );
  }
  if (paths.length > MAX_BROKEN_FILES)
    notes.push(
      `${paths.length - MAX_BROKEN_FILES} more file${paths.length - MAX_BROKEN_FILES > 1 ? "s" : ""} of this ` +
        `answer ha${paths.length - MAX_BROKEN_FILES > 1 ? "ve" : "s"} syntax errors`,
    );
  return notes;
}

/**
 * A long outline's briefs, from BRIEF_TOKENS up (none for an outline within it): no outline takes more than its share
 * of a budget, and a budget shows the largest brief its share allows. A task in words gets one brief: its answer is
 * the places it points at, and its late matches fill the budget; larger briefs of its seeds crowded them out (the
 * commit-message benchmark's file recall at 2,000 tokens went 86.0% → 85.5%).
 */
function briefsOf(
  graph: CodeGraph,
  sym: SymbolNode,
  outlineText: string,
  how: { used: ReadonlySet<number>; task: boolean; count: (text: string) => number },
): string[] {
  const { used, task, count } = how;
  const outlineTokens = count(outlineText);
  if (outlineTokens <= BRIEF_TOKENS) return [];
  const caps = task ? [BRIEF_TOKENS] : briefCaps(outlineTokens);
  return sym.kind === "module"
    ? briefFileOutlines(graph, sym.id, moduleConstants(graph, sym.id), count, caps)
    : briefClassOutlines(graph, sym, used, count, caps);
}

/** A file's outline: each top-level definition's outline. */
function fileOutline(graph: CodeGraph, moduleId: number): string {
  const constants = moduleConstants(graph, moduleId);
  const defs = (graph.children.get(moduleId) ?? []).map((id) => outline(graph, graph.symbols[id]!));
  return (constants.length ? [constants.join("\n"), ...defs] : defs).join("\n\n");
}

/** Module constants a file outline lists: names in capitals, and names holding a string the code spells out. */
function moduleConstants(graph: CodeGraph, moduleId: number): string[] {
  const m = graph.symbols[moduleId]!;
  const record = graph.records.get(m.file);
  if (!record) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const b of record.bindings) {
    if (b.scope >= 0 || b.kind !== "assign" || seen.has(b.name) || out.length >= 24) continue;
    if (!(/^[A-Z][A-Z0-9_]+$/.test(b.name) || (b.literal !== undefined && b.literal.length <= 80))) continue;
    seen.add(b.name);
    out.push(
      `${b.name}${b.type ? `: ${b.type}` : ""}` +
        (b.literal !== undefined && b.literal.length <= 80 ? ` = ${b.literal}` : b.value ? ` = ${b.value}(…)` : " = …"),
    );
  }
  return out;
}
