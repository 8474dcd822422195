/**
 * Text chunks in context answers: a chunk's handle as a target (`docs/deploy.md#Traefik`,
 * `compose.yml:services.db`, `compose.yml:12-30`, a text file's path), the chunks a task in words
 * points at when it asks about configuration or docs, and the notes that link a setting read in
 * code to the files that set it.
 */
import type { CodeGraph } from "../graph/model.ts";
import { EngineError } from "../../shared/errors.ts";
import { cite } from "../../shared/paths.ts";
import { splitWords, termsOf } from "../extract/words.ts";
import { searchSymbols, type SearchIndex } from "../search/search.ts";
import { chunkHandle, type TextChunk, type TextKind } from "../text/chunk.ts";
import { findChunk, searchText, type TextHit, type TextIndex } from "../text/text-index.ts";
import type { PlannedChunk } from "./plan.ts";
import { quoted } from "../../shared/quote.ts";

/** The fence name of each text kind. */
const FENCE: Record<TextKind, string> = {
  markdown: "markdown",
  yaml: "yaml",
  toml: "toml",
  json: "json",
  dockerfile: "dockerfile",
  env: "sh",
  sql: "sql",
  template: "html",
  ini: "ini",
};

/** A text chunk as a planned chunk of a context answer. */
export function textChunk(
  c: Pick<TextChunk, "path" | "kind" | "name" | "start" | "end">,
  role: PlannedChunk["role"],
  distance: number,
): PlannedChunk {
  return {
    path: c.path,
    start: c.start,
    end: c.end,
    role,
    label: chunkHandle(c),
    kind: c.kind,
    language: FENCE[c.kind],
    distance,
    confidence: 1,
  };
}

/**
 * The chunk a target names, as the answer's seed, or undefined when the target names no text file
 * of the index. A text file with no such heading or key is `unknown_symbol` with its chunks as
 * suggestions; `path:12` or `path:12-30` on a text file is those lines.
 */
export function textTarget(text: TextIndex, target: string): { chunk: PlannedChunk; sets: string[] } | undefined {
  const lines = /^(.*?):(\d+)(?:-(\d+))?$/.exec(target);
  if (lines && text.byPath.has(lines[1]!)) {
    const ids = text.byPath.get(lines[1]!)!;
    const last = Math.max(...ids.map((id) => text.chunks[id]!.end));
    const start = Number(lines[2]);
    const end = Math.min(last, Number(lines[3] ?? lines[2]));
    if (start < 1 || start > last || end < start) {
      throw new EngineError(
        "invalid_argument",
        `${lines[1]} has ${last} lines; ${lines[2]}${lines[3] ? `-${lines[3]}` : ""} is not a range inside it.`,
        { data: { path: lines[1]!, totalLines: last } },
      );
    }
    const kind = text.chunks[ids[0]!]!.kind;
    return {
      chunk: {
        ...textChunk({ path: lines[1]!, kind, name: "", start, end }, "seed", 0),
        label: cite(lines[1]!, start, end),
      },
      sets: [],
    };
  }
  const found = findChunk(text, target);
  if (!found) return undefined;
  if ("suggestions" in found) {
    throw new EngineError(
      "unknown_symbol",
      `${found.path} has no section or key named ${quoted(target.slice(found.path.length + 1))}.`,
      {
        hint: found.suggestions.length
          ? `Its sections and keys include ${found.suggestions.join(", ")}.`
          : `Ask for ${found.path} itself.`,
        data: {
          target,
          suggestions: found.suggestions.map((h) => ({ qualified: h, kind: "text", path: found.path, line: 1 })),
        },
      },
    );
  }
  return { chunk: textChunk(found.chunk, "seed", 0), sets: found.chunk.sets };
}

/** A section up to this many lines takes the place of its subsections in a task's answer. */
const MAX_PARENT_LINES = 150;
/** How many text chunks a task's answer leads with, at most. */
const MAX_TEXT_SEEDS = 3;
/** A question this short (in words) asks about one thing: its best text chunk needs only hold its own against code. */
const SHORT_TASK_WORDS = 20;
/** The share of the best code hit's score the best text chunk of a short question needs. */
const TEXT_OVER_CODE = 0.6;
/** A question, as people ask about a project: a question word first, or a question mark. */
const QUESTION = /^\s*(how|where|what|which|why|when|who|is|are|does|do|can|should|could|would|will)\b|\?\s*$/i;
/** An env variable as written: upper case with an underscore (`DATABASE_URL`). */
const ENV_NAME = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;
/** A text file as a task names it: `compose.yml`, `docs/deploy.md`, `.env`, `Dockerfile`. */
const TEXT_FILE_NAME = new RegExp(
  String.raw`(?:^|[\s\x60'"(])((?:[\w.-]+\/)*(?:[\w-]*\.(?:md|mdx|rst|ya?ml|toml|json|ini|cfg|conf|sql|html|` +
    String.raw`env|dockerfile)|\.env(?:\.[\w-]+)?|Dockerfile(?:\.[\w-]+)?))(?=$|[\s\x60'"),.:;!?])`,
);

/** A pattern for every match (a fresh global copy: a shared one would carry its lastIndex between calls). */
const all = (re: RegExp) => new RegExp(re.source, "g");

/**
 * Whether a task could point at text at all (a cheap test on its words, made before the text
 * index is needed): a short question, an env variable's name, a text file's name.
 */
export function mayPointAtText(task: string): boolean {
  return (
    (splitWords(task).length <= SHORT_TASK_WORDS && QUESTION.test(task)) ||
    ENV_NAME.test(task) ||
    TEXT_FILE_NAME.test(task)
  );
}

/**
 * The text chunks a task in words points at, best first: a short question (QUESTION) whose best
 * text chunk scores at least TEXT_OVER_CODE of the best definition's, or a task naming an env
 * variable some text file sets: those lead the answer (`lead`). A task naming a text file
 * (`compose.yml`, `docs/deploy.md`) gets that file's best chunks after the code. Any other task
 * (a bug report, a commit message about code) gets none and keeps its budget for code: the
 * localization benchmark's figures are unchanged. Then the chunks within half the best one's score.
 */
export function pointedText(text: TextIndex, codeIndex: SearchIndex, task: string): { hits: TextHit[]; lead: boolean } {
  const none = { hits: [], lead: false };
  if (text.chunks.length === 0) return none;
  const question = splitWords(task).length <= SHORT_TASK_WORDS && QUESTION.test(task);
  const envNamed = [...task.matchAll(all(ENV_NAME))].some((m) => text.setters.has(m[0]));
  const files = new Set([...task.matchAll(all(TEXT_FILE_NAME))].flatMap((m) => namedFiles(text, m[1]!)));
  if (!question && !envNamed && files.size === 0) return none;
  const lead = question || envNamed;
  const hits = searchText(text, task, 40).filter((h) => lead || files.has(h.chunk.path));
  const best = hits[0];
  if (!best) return none;
  if (question && !envNamed) {
    let codeBest = 0;
    try {
      codeBest = searchSymbols(codeIndex, task, 1)[0]?.score ?? 0;
    } catch {
      // no searchable words for code: the text decides
    }
    if (best.score < codeBest * TEXT_OVER_CODE) return none;
  }
  const out: TextHit[] = [];
  for (const h of hits) {
    if (out.length >= MAX_TEXT_SEEDS || h.score < best.score * 0.5) break;
    // A section nested in one already taken says the same thing twice; a short section holding one
    // taken (its subsections: Details, Usage) takes its place, since it says more.
    const same = (o: TextHit) => o.chunk.path === h.chunk.path;
    if (out.some((o) => same(o) && o.chunk.start <= h.chunk.start && o.chunk.end >= h.chunk.end)) continue;
    const inside = out.findIndex((o) => same(o) && h.chunk.start <= o.chunk.start && h.chunk.end >= o.chunk.end);
    if (inside >= 0) {
      if (h.chunk.end - h.chunk.start < MAX_PARENT_LINES) out.splice(inside, 1, h);
      for (let i = out.length - 1; i > inside; i--)
        if (same(out[i]!) && h.chunk.start <= out[i]!.chunk.start && h.chunk.end >= out[i]!.chunk.end) out.splice(i, 1);
      continue;
    }
    out.push(h);
  }
  return { hits: out, lead };
}

/** The text files of the index a name written in a task stands for: its path, or a path ending in it. */
function namedFiles(text: TextIndex, name: string): string[] {
  const clean = name.replace(/^\.\//, "");
  if (text.byPath.has(clean)) return [clean];
  return [...text.byPath.keys()].filter((p) => p.endsWith(`/${clean}`)).slice(0, 5);
}

/** The env variables the notes name at most. */
const MAX_LINKED = 5;

/**
 * Notes linking settings to the files that set them: for code seeds, each env variable some text
 * chunk sets whose name the seed's code spells (`os.environ["X"]`, `process.env.X`, a settings
 * class field `X`); for a text seed, where the code reads each variable it sets.
 */
export function settingNotes(
  graph: CodeGraph,
  text: TextIndex,
  seedIds: readonly number[],
  textSets: readonly string[],
): string[] {
  const notes: string[] = [];
  if (text.setters.size === 0) return notes;
  if (seedIds.length) {
    const spelled = new Set<string>();
    for (const id of seedIds) {
      const s = graph.symbols[id]!;
      const record = graph.records.get(s.file);
      const d = s.kind === "module" ? undefined : record?.definitions[s.index];
      for (const w of (d ? (d.terms ?? "") : (record?.terms ?? "")).split(" ")) spelled.add(w);
      if (d) for (const w of termsOf(d.signature)) spelled.add(w);
      for (const b of record?.bindings ?? [])
        if (d ? b.scope === s.index : b.scope < 0) for (const w of termsOf(b.name)) spelled.add(w);
    }
    let named = 0;
    for (const [name, ids] of text.setters) {
      if (named >= MAX_LINKED || !spelled.has(splitWords(name).join(""))) continue;
      named++;
      notes.push(
        `setting ${name} is set in ${ids
          .slice(0, 4)
          .map((i) => chunkHandle(text.chunks[i]!))
          .join(", ")}${ids.length > 4 ? ` (+${ids.length - 4} more)` : ""}`,
      );
    }
    return notes;
  }
  for (const name of textSets.slice(0, MAX_LINKED)) {
    const word = splitWords(name).join("");
    const readers = graph.symbols
      .filter(
        (s) => s.kind !== "module" && graph.records.get(s.file)?.definitions[s.index]?.terms?.split(" ").includes(word),
      )
      .slice(0, 3);
    if (readers.length)
      notes.push(
        `${name} is read in code by ${readers.map((r) => `${r.qualified} (${cite(r.file, r.start)})`).join(", ")}`,
      );
  }
  return notes;
}
