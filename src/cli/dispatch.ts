/**
 * Runs one command line against a command table: finds the command, checks every flag against the
 * flags it owns (did-you-mean for a typo, the owners for another command's flag), reads the values
 * and the arguments, prints help, and hands the rest to the command's `run`.
 */
import { statSync } from "node:fs";
import * as nodePath from "node:path";
import { splitArgv, type FlagSpelling, type GivenFlag } from "./argv.ts";
import { checkArgLength, type Command, type Flag } from "./command.ts";
import { globalFlags } from "./flags.ts";
import { commandHelp, generalHelp } from "./help.ts";
import { EXIT, UsageError, reportError, writeOut } from "./output.ts";
import { didYouMean, suggest } from "../shared/suggest.ts";
import { quoted } from "../shared/quote.ts";

/** What the running program tells the dispatcher about itself. */
export interface CliHost {
  version: string;
  /** The file the command line runs from (dist/cli/main.js). */
  entry: string;
}

/** Every flag of the table (and the global ones) by long name, with the commands that own it. */
interface FlagTable {
  spelling: FlagSpelling;
  owners: Map<string, string[]>;
}

function flagTable(commands: readonly Command[]): FlagTable {
  const long = new Map<string, { value?: string }>();
  const short = new Map<string, string>();
  const owners = new Map<string, string[]>();
  const add = (flag: Flag, owner?: string) => {
    const seen = long.get(flag.name);
    // One spelling per name across the table: `--limit N` cannot be a switch in another command.
    if (seen && (seen.value === undefined) !== (flag.value === undefined))
      throw new Error(`--${flag.name} takes a value in one command and not in another`);
    long.set(flag.name, flag.value ? { value: flag.value } : {});
    if (flag.short) short.set(flag.short, flag.name);
    if (owner) owners.set(flag.name, [...(owners.get(flag.name) ?? []), owner]);
  };
  for (const flag of Object.values(globalFlags)) add(flag);
  for (const command of commands) for (const flag of Object.values(command.flags)) add(flag, command.name);
  return { spelling: { long, short }, owners };
}

/** `a`, `a and b`, `a, b and c`. */
function listed(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : (words[0] ?? "");
}

/**
 * Words other tools use for what a flag here is called otherwise, with the flags they may mean, first the one
 * the command owns: `callers --page 2` means --cursor, where the nearest spelling is changes' --base.
 */
const MEANT: Record<string, readonly string[]> = {
  page: ["cursor", "limit", "max-matches"],
  offset: ["cursor", "limit", "max-matches"],
  next: ["cursor"],
  after: ["cursor"],
  skip: ["cursor"],
  max: ["limit", "max-matches"],
  top: ["limit", "max-matches"],
  count: ["limit", "max-matches"],
  tokens: ["budget"],
  "max-tokens": ["budget"],
};

/** What the meant flag takes, when a page number or an offset would not do. */
const MEANT_NOTE: Record<string, string> = {
  cursor: " (pages are not numbered: pass the cursor the previous page named)",
  limit: " (one page: --limit N lists more)",
  "max-matches": " (one page: --max-matches N lists more)",
  budget: " (the tokens of the whole answer)",
};

/** The usage error for a flag no command owns, or one `command` does not own. */
function flagError(typed: string, command: Command | undefined, table: FlagTable): UsageError {
  const name = typed.replace(/^-+/, "");
  const owners = table.owners.get(name);
  if (command && owners) {
    return new UsageError(`--${name} is an option of ${listed(owners)}, not of ${command.name}`);
  }
  const own = command
    ? [...Object.values(command.flags), ...Object.values(globalFlags)].map((f) => f.name)
    : [...table.spelling.long.keys()];
  const where = command ? ` for \`codeslice ${command.name}\`` : "";
  if (name.toLowerCase() === "dry-run" && own.includes("apply"))
    return new UsageError(
      `Unknown option ${typed}${where}: ${command?.name ?? "it"} only previews; nothing is written without --apply ` +
        "<plan-token>",
    );
  const meant = MEANT[name.toLowerCase()]?.find((m) => own.includes(m));
  if (meant)
    return new UsageError(`Unknown option ${typed}${where}. Did you mean --${meant}${MEANT_NOTE[meant] ?? ""}?`);
  const near = suggest(name, own);
  const elsewhere = near.length ? [] : suggest(name, [...table.owners.keys()]);
  if (near.length)
    return new UsageError(
      `Unknown option ${typed}${where}.${didYouMean(
        near.map((n) => `--${n}`),
        (s) => s,
      )}`,
    );
  if (elsewhere.length) {
    const [other] = elsewhere;
    return new UsageError(
      `Unknown option ${typed}${where}. Did you mean --${other} (an option of ${listed(table.owners.get(other!)!)})?`,
    );
  }
  return new UsageError(`Unknown option ${typed}${where}`);
}

/** The command named `name`, or a usage error with the nearest names. */
function findCommand(name: string, commands: readonly Command[]): Command {
  const command = commands.find((c) => c.name === name);
  if (command) return command;
  const names = commands.map((c) => c.name);
  const near = suggest(name, names);
  throw new UsageError(
    `Unknown command ${quoted(name)}.${near.length ? didYouMean(near) : ` The commands: ${names.join(", ")}.`}`,
  );
}

/** The flags given, each read by its own parser; the last of a repeated flag wins. */
function readFlags(command: Command, given: readonly GivenFlag[]): Record<string, unknown> {
  const keyOf = new Map(Object.entries(command.flags).map(([key, flag]) => [flag.name, key]));
  const values: Record<string, unknown> = {};
  for (const { name, value } of given) {
    const key = keyOf.get(name);
    if (key !== undefined) values[key] = command.flags[key]!.parse(value);
  }
  return values;
}

/** The positional arguments as the command declares them: counted, a `rest` argument joined, lengths checked. */
function readArgs(command: Command, words: readonly string[]): string[] {
  const declared = command.args ?? [];
  if (command.ownArgs) return [...words];
  const required = declared.filter((a) => !a.optional);
  const rest = declared.at(-1)?.rest === true;
  if (words.length < required.length) {
    if (declared.length > 1)
      throw new UsageError(
        `${command.name} takes ${declared.length} arguments, ` +
          `${listed(declared.map((a) => `<${a.name}>`))}${command.argsNote ?? ""}`,
      );
    throw new UsageError(`${command.name} needs ${required[words.length]!.what}`);
  }
  if (words.length > declared.length && !rest) {
    if (declared.length === 0)
      throw new UsageError(`${command.name} takes no arguments, got ${quoted(words.join(" "))}`);
    const folder = looksLikeFolder(words.at(-1)!) && Object.values(command.flags).some((f) => f.name === "root");
    if (folder)
      throw new UsageError(
        `${command.name} takes ${listed(declared.map((a) => `<${a.name}>`))}; the project folder goes in --root: ` +
          `codeslice ${command.name} ${words.slice(0, -1).join(" ")} --root ${words.at(-1)}`,
      );
    if (declared.length === 1) throw new UsageError(`${command.name} takes exactly one argument`);
    throw new UsageError(
      `${command.name} takes ${declared.length} arguments, ` +
        `${listed(declared.map((a) => `<${a.name}>`))}${command.argsNote ?? ""}`,
    );
  }
  const args = rest ? [...words.slice(0, declared.length - 1), words.slice(declared.length - 1).join(" ")] : [...words];
  declared.forEach((arg, i) => checkArgLength(arg, args[i]));
  return args;
}

/** A word that names a folder (`.`, `../api`, `~/src/shop`, or any folder that exists) rather than a target. */
export function looksLikeFolder(word: string): boolean {
  if (/^(\.{1,2}|~)([\\/]|$)/.test(word)) return true;
  try {
    return statSync(nodePath.resolve(word)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `flags.root` from the positional project folder, for a command that declares one (`index ../api`): given with
 * `--root` too, both must name the same folder.
 */
function rootFromArgs(command: Command, args: readonly string[], given: readonly GivenFlag[]): string | undefined {
  const at = (command.args ?? []).findIndex((a) => a.root);
  const positional = at < 0 ? undefined : args[at];
  if (positional === undefined) return undefined;
  const roots = given.filter((f) => f.name === "root").map((f) => f.value);
  if (roots.length > 1)
    throw new UsageError(
      `${command.name} takes several project folders as --root only: add ${positional} as one more --root, or ` +
        `leave the positional folder out`,
    );
  const [flag] = roots;
  if (flag !== undefined && nodePath.resolve(flag) !== nodePath.resolve(positional))
    throw new UsageError(
      `${command.name} was given two project folders, ${positional} and --root ${flag}: give one (the positional ` +
        `folder is the same as --root)`,
    );
  return positional;
}

/**
 * The command line's words with the command's name taken out (the first positional), for a command that reads them
 * itself.
 */
function withoutCommandName(argv: readonly string[], name: string, table: FlagTable): string[] {
  let skipValue = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (skipValue) skipValue = false;
    else if (word === "--") break;
    else if (word.startsWith("--") && !word.includes("="))
      skipValue = table.spelling.long.get(word.slice(2))?.value !== undefined;
    else if (word === name) return [...argv.slice(0, i), ...argv.slice(i + 1)];
  }
  return [...argv];
}

/**
 * Runs `argv` (the words after `codeslice`) against `commands`; resolves to the exit code: 0
 * success, 1 the engine could not answer, 2 bad usage (an unknown command or flag, a flag without
 * its value, a bad value or argument count). Help and the version go to stdout, errors to stderr.
 */
export async function runCli(argv: readonly string[], commands: readonly Command[], host: CliHost): Promise<number> {
  const table = flagTable(commands);
  let command: Command | undefined;
  let json = false;
  try {
    const split = splitArgv(argv, table.spelling);
    const [name, ...words] = split.positionals;
    // An unknown flag before the command may have swallowed nothing: `--budjet 3 map` reads 3 as
    // the command, so the flag is the error to report first.
    if (name !== undefined && split.unknown.length && !commands.some((c) => c.name === name))
      throw flagError(split.unknown[0]!, undefined, table);
    command = name === undefined ? undefined : findCommand(name, commands);
    const given = new Set(split.flags.map((f) => f.name));
    const globalNames = new Set(Object.values(globalFlags).map((g) => g.name));
    const foreign = split.flags.find(
      (f) => !globalNames.has(f.name) && command && !Object.values(command.flags).some((own) => own.name === f.name),
    );
    if (split.unknown.length || foreign) throw flagError(split.unknown[0] ?? `--${foreign!.name}`, command, table);
    json = given.has("json");
    if (given.has("version")) {
      writeOut(host.version);
      return EXIT.ok;
    }
    if (!command) {
      writeOut(generalHelp(commands, host.version));
      return given.has("help") ? EXIT.ok : EXIT.usage;
    }
    if (given.has("help")) {
      writeOut(commandHelp(command));
      return EXIT.ok;
    }
    const args = readArgs(command, words);
    const flags = readFlags(command, split.flags);
    const root = command.ownArgs ? undefined : rootFromArgs(command, args, split.flags);
    if (root !== undefined) flags.root = root;
    const raw = command.ownArgs ? withoutCommandName(argv, command.name, table) : [...argv];
    return await command.run({ args, flags, argv: raw, version: host.version, entry: host.entry });
  } catch (error) {
    // Point a usage error at the help of the command it was made for.
    if (error instanceof UsageError && command && error.command === undefined) error.command = command.name;
    return reportError(error, json, command?.name);
  }
}
