/**
 * Splits the command line into positionals and flags, knowing from the command table which flags
 * take a value. Names are not checked against a command here (the dispatcher does that, with
 * did-you-mean); a value that is missing, empty or looks like another flag is refused here.
 */
import { UsageError } from "./output.ts";
import { quoted } from "../shared/quote.ts";

/**
 * How the table spells its flags: by long name, whether each takes a value (and its placeholder); short letters to long
 * names.
 */
export interface FlagSpelling {
  long: ReadonlyMap<string, { value?: string }>;
  short: ReadonlyMap<string, string>;
}

/** One flag as given on the command line. */
export interface GivenFlag {
  /** The long name, without dashes. */
  name: string;
  /** Its value ("true" for a switch). */
  value: string;
}

/** The command line, split. */
export interface SplitArgv {
  /** Words that are not flags or flag values, in order; the first names the command. */
  positionals: string[];
  /** Known flags in the order given (a flag given twice appears twice; the last one wins). */
  flags: GivenFlag[];
  /** Flags the table does not know, as typed (`--budjet`, `-x`), without any `=value`. */
  unknown: string[];
}

/** A word that reads as a flag rather than a value: `-x`, `--name`, `--`; "-" alone (stdin, stdout) is a value. */
function looksLikeFlag(word: string): boolean {
  return word.length > 1 && word.startsWith("-");
}

function missingValue(name: string, placeholder: string): UsageError {
  return new UsageError(`--${name} needs a value: --${name} ${placeholder}`);
}

/**
 * Splits `argv` as `codeslice` reads it: `--name value`, `--name=value`, switches, `-h`-style
 * letters (grouped switches too), and `--` before words that start with a dash. Throws a
 * UsageError for a value flag without its value (last word, followed by a flag, or empty) and for
 * a switch given a value.
 */
export function splitArgv(argv: readonly string[], spelling: FlagSpelling): SplitArgv {
  const out: SplitArgv = { positionals: [], flags: [], unknown: [] };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!looksLikeFlag(word)) {
      out.positionals.push(word);
      continue;
    }
    if (!word.startsWith("--")) {
      const letters = [...word.slice(1)];
      const names = letters.map((c) => spelling.short.get(c));
      if (names.every((n) => n !== undefined && spelling.long.get(n)?.value === undefined)) {
        for (const name of names) out.flags.push({ name: name!, value: "true" });
      } else out.unknown.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    const name = word.slice(2, eq < 0 ? undefined : eq);
    const known = spelling.long.get(name);
    if (!known) {
      out.unknown.push(`--${name}`);
      continue;
    }
    if (known.value === undefined) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value, got ${quoted(word.slice(eq + 1))}`);
      out.flags.push({ name, value: "true" });
      continue;
    }
    const value = eq >= 0 ? word.slice(eq + 1) : argv[i + 1];
    if (value === undefined || value === "" || (eq < 0 && looksLikeFlag(value))) throw missingValue(name, known.value);
    if (eq < 0) i++;
    out.flags.push({ name, value });
  }
  return out;
}
