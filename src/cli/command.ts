/** The shape of a command-line command: its arguments, the flags it owns, its help, and what it runs. */
import { UsageError } from "./output.ts";
import { quoted } from "../shared/quote.ts";

/** One flag: its spelling, whether it takes a value, how the value is read, and what help says about it. */
export interface Flag<T = unknown> {
  /** The name after `--` (`budget`, `cache-dir`). */
  name: string;
  /** A one-letter alias after `-` (`h` for `--help`). */
  short?: string;
  /** The value's placeholder in help (`N`, `DIR`); a flag without one is a switch. */
  value?: string;
  /** What it does, in a sentence or two; help and docs/cli.md print it as written. */
  help: string;
  /** What applies when the flag is not given, as help shows it. */
  default?: string;
  /**
   * Reads the given value (a switch is given "true"); throws a UsageError naming the flag when the value is not
   * acceptable.
   */
  parse(raw: string): T;
}

/** A command's flags by the key `run` reads them under (`cacheDir` for `--cache-dir`). */
export type FlagSet = Record<string, Flag>;

/** What `run` gets for a flag set: each flag's parsed value, undefined when it was not given. */
export type FlagValues<F extends FlagSet> = { [K in keyof F]?: F[K] extends Flag<infer T> ? T : never };

/** One positional argument. */
export interface Arg {
  /** Its name in help (`target` is shown `<target>`). */
  name: string;
  /** What it is, for help and docs. */
  help: string;
  /** How a usage error names it when it is missing: "a target", "a file". */
  what: string;
  /** It takes the rest of the words, joined by spaces (unquoted `search parse config`). */
  rest?: boolean;
  /** It may be left out. */
  optional?: boolean;
  /** The longest value accepted, in characters, and what the error calls it ("the task"). */
  maxChars?: { limit: number; noun: string };
  /**
   * It is the project folder, the same as `--root DIR` (`codeslice index ../api`): the dispatcher
   * hands it to `run` as `flags.root`, and refuses it next to a `--root` that names another folder.
   */
  root?: boolean;
}

/** What a command's `run` is handed. */
export interface RunContext<F extends FlagSet> {
  /** The positional arguments after the command's name, one per declared argument (a `rest` argument joined). */
  args: string[];
  /** The flags given, parsed. */
  flags: FlagValues<F>;
  /** The arguments after the command's name as typed, for a command that reads them itself. */
  argv: string[];
  /** This codeslice's version. */
  version: string;
  /** The file the running command line was started from (dist/cli/main.js), for snippets that start it again. */
  entry: string;
}

/** A command as `defineCommand` takes it. */
export interface CommandSpec<F extends FlagSet> {
  /** The word after `codeslice`. */
  name: string;
  /** One line for the command list, the README table and docs/cli.md. */
  summary: string;
  /** Its positional arguments, in order. */
  args?: Arg[];
  /** Added to an error about the number of arguments ("quote a route: …"). */
  argsNote?: string;
  /** The flags it owns; shared groups come from flags.ts. `--help` and `--version` are everyone's. */
  flags: F;
  /** What it does, as paragraphs for `codeslice <name> --help` and docs/cli.md. */
  help: string;
  /** Full command lines that show it at work, for help and docs. */
  examples: string[];
  /**
   * It reads its own arguments (mcp): the table still checks the flags' names and values, then
   * `argv` is handed over as typed and `args` is not checked.
   */
  ownArgs?: boolean;
  /** Runs the command; resolves to the exit code. Errors thrown are reported by the dispatcher. */
  run(ctx: RunContext<F>): Promise<number>;
}

/** A command in the table, its flag types erased. */
export type Command = CommandSpec<FlagSet>;

/** Declares one command; the flag types flow from `flags` into `run`. The result goes into commands/index.ts. */
export function defineCommand<F extends FlagSet>(spec: CommandSpec<F>): Command {
  return spec as unknown as Command;
}

/** Declares one flag. */
export function defineFlag<T>(flag: Flag<T>): Flag<T> {
  return flag;
}

/** `flag` with another default shown (the same flag, a command's own default). */
export function withDefault<T>(flag: Flag<T>, value: string | number): Flag<T> {
  return { ...flag, default: String(value) };
}

/** Refuses a value longer than `arg` accepts (`the task is N characters; the limit is M`). */
export function checkArgLength(arg: Arg, value: string | undefined): void {
  if (arg.maxChars && value !== undefined && value.length > arg.maxChars.limit) {
    throw new UsageError(`the ${arg.maxChars.noun} is ${value.length} characters; the limit is ${arg.maxChars.limit}`);
  }
}

/** `--name` as a whole number from min to max; the messages name the flag. */
export function parseInteger(name: string, value: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`--${name} must be a whole number, got ${quoted(value)}`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}
