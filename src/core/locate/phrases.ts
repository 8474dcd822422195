/**
 * Messages a task quotes, found where the project spells them: an error message, a log line or a
 * quoted string is the strongest evidence a bug report carries, and the code that raises or
 * formats it is where to look. A message's literal runs (the parts between the values the program
 * filled in) are looked up in the files that hold all their words, then confirmed in the text.
 */
import type { CodeGraph } from "../graph/model.ts";
import { filesHoldingAll, splitWords, type SearchIndex } from "../search/search.ts";
import { STOP_WORDS } from "../extract/words.ts";
import type { TaskEvidence } from "./task-text.ts";
import { symbolsAt } from "../slice/locate.ts";

/** A phrase of the task found in the project: the symbol around it, the line, the phrase. */
export interface PhraseHit {
  symbol: number;
  path: string;
  line: number;
  phrase: string;
}

/** Most phrases tried, and files read, per task. */
const MAX_PHRASES = 24;
const MAX_FILES_PER_PHRASE = 12;
/** A literal run must be this long and hold this many words to count. */
const MIN_CHARS = 12;
const MIN_WORDS = 2;

/** Literal runs of the task's error messages and quoted strings, longest first. */
export function quotedPhrases(text: string, ev: TaskEvidence): string[] {
  const sources: string[] = [];
  for (const e of ev.errors) {
    const colon = e.indexOf(": ");
    if (colon > 0) sources.push(e.slice(colon + 2));
  }
  for (const m of text.slice(0, 100_000).matchAll(/(["'`])([^"'`\n]{12,200})\1/g)) sources.push(m[2]!);
  const runs = new Set<string>();
  for (const s of sources) {
    // Values a program fills in (quoted values, numbers, paths, reprs) break a message into runs.
    for (const raw of s.split(/'[^']*'|"[^"]*"|<[^>]*>|\{[^}]*\}|\b0x[0-9a-f]+\b|\S*\d\S*|\S*[/\\]\S*|[:;()[\]]/i)) {
      const run = raw
        .replace(/\s+/g, " ")
        .trim()
        .replace(/[.,!?]+$/, "");
      const words = splitWords(run).filter((w) => w.length > 1 && !STOP_WORDS.has(w));
      // A message has words between spaces; one token (`applyPatches`, `--skip-magic-trailing-comma`)
      // is a name, which the ranking's name evidence weighs, not a message the code spells.
      if (run.length >= MIN_CHARS && words.length >= MIN_WORDS && run.includes(" ")) runs.add(run);
    }
  }
  return [...runs].sort((a, b) => b.length - a.length).slice(0, MAX_PHRASES);
}

/** Finds the task's quoted phrases in the project's files (case-insensitive, whitespace-folded). */
export async function findPhrases(
  index: SearchIndex,
  graph: CodeGraph,
  text: string,
  ev: TaskEvidence,
  readText: (path: string) => Promise<string>,
): Promise<PhraseHit[]> {
  const hits: PhraseHit[] = [];
  const cache = new Map<string, string[]>();
  for (const phrase of quotedPhrases(text, ev)) {
    const words = [...new Set(splitWords(phrase).filter((w) => w.length > 1 && !STOP_WORDS.has(w)))];
    const files = filesHoldingAll(index, words, MAX_FILES_PER_PHRASE + 1);
    if (files.length === 0 || files.length > MAX_FILES_PER_PHRASE) continue; // too common to tell
    const needle = phrase.toLowerCase();
    for (const path of files) {
      let lines = cache.get(path);
      if (!lines) {
        try {
          lines = (await readText(path)).split("\n");
        } catch {
          continue; // changed or gone since the index: the next refresh sees it
        }
        cache.set(path, lines);
      }
      for (let i = 0; i < lines.length; i++) {
        if (!lines[i]!.toLowerCase().replace(/\s+/g, " ").includes(needle)) continue;
        hits.push({
          symbol: symbolsAt(graph, path, i + 1, i + 1)[0]?.id ?? graph.moduleSymbol.get(path)!,
          path,
          line: i + 1,
          phrase,
        });
        break;
      }
    }
  }
  return hits;
}
