/**
 * The flags more than one command owns, declared once: the project and output flags every engine
 * command takes, the budget pair, the paging trio and the hop count. A command spreads the groups
 * it owns into its `flags` and declares the rest itself.
 */
import { ENCODINGS, LIMITS, TESTS_MODES, type Encoding, type TestsMode } from "../index.ts";
import { defineFlag, parseInteger, withDefault, type Arg, type Flag } from "./command.ts";
import { UsageError } from "./output.ts";
import { quoted } from "../shared/quote.ts";

/** A flag whose value is taken as typed. */
export function textFlag(name: string, value: string, help: string, extra: { default?: string } = {}): Flag<string> {
  return defineFlag({ name, value, help, ...extra, parse: (raw) => raw });
}

/** A switch: present or not. */
export function switchFlag(name: string, help: string, short?: string): Flag<boolean> {
  return defineFlag({ name, help, ...(short ? { short } : {}), parse: () => true });
}

/** A flag that takes one of `choices`. */
export function choiceFlag<T extends string>(
  name: string,
  value: string,
  choices: readonly T[],
  help: string,
  extra: { default?: string } = {},
): Flag<T> {
  return defineFlag({
    name,
    value,
    help,
    ...extra,
    parse: (raw) => {
      if (!(choices as readonly string[]).includes(raw))
        throw new UsageError(`--${name} must be one of ${choices.join(", ")}, got ${quoted(raw)}`);
      return raw as T;
    },
  });
}

/** A flag that takes a whole number from min to max. */
export function integerFlag(
  name: string,
  value: string,
  min: number,
  max: number,
  help: string,
  extra: { default?: string } = {},
): Flag<number> {
  return defineFlag({ name, value, help, ...extra, parse: (raw) => parseInteger(name, raw, min, max) });
}

/** `--help`, `--version` and `--no-server`: every command's, and the bare `codeslice`'s. */
export const globalFlags = {
  help: switchFlag("help", "Show this help (also: codeslice <command> --help)", "h"),
  version: switchFlag("version", "Print the version", "v"),
  noServer: switchFlag(
    "no-server",
    "Answer in this process, not through the project's warm server (also CODESLICE_NO_SERVER=1; see `codeslice " +
      "stop --help`)",
  ),
};

/** Where the project and its index are, and how it is indexed: every command that opens the engine. */
export const projectFlags = {
  root: textFlag(
    "root",
    "DIR",
    "Project folder; a command with no other argument also takes it as its argument (codeslice map ../api)",
    { default: "the current folder" },
  ),
  cacheDir: textFlag("cache-dir", "DIR", "Where the index is kept", { default: "<root>/.codeslice" }),
  maxFileBytes: integerFlag("max-file-bytes", "N", 1, 2 ** 31, "Skip files larger than N bytes", {
    default: String(LIMITS.maxFileBytes),
  }),
  jobs: integerFlag("jobs", "N", 1, 64, "Threads that parse, 1-64; 1 parses in the main thread", {
    default: "the cores minus one, at most 8",
  }),
};

/**
 * The project folder as the one positional argument of a command that takes no other (`index`,
 * `map`, `routes`, `tools`, `check`, `graph`, `scip`, `stop`; `mcp` and `lsp` read theirs
 * themselves): `codeslice index ../api` is `codeslice index --root ../api`. A command whose
 * argument is a target takes the folder as --root only.
 */
export const rootArg: Arg = {
  name: "root",
  what: "a project folder",
  optional: true,
  root: true,
  help: "The project folder, the same as --root DIR",
};

/** How the answer is printed. */
export const outputFlags = {
  json: switchFlag("json", "Machine-readable output on stdout"),
  quiet: switchFlag("quiet", "No progress bar (shown on a terminal's stderr for runs over a second)"),
};

const budget = integerFlag(
  "budget",
  "N",
  LIMITS.budget.min,
  LIMITS.budget.max,
  `Token budget for the whole answer, ${LIMITS.budget.min}-${LIMITS.budget.max}, counted with the real tokenizer`,
);
const encoding: Flag<Encoding> = choiceFlag("encoding", "E", ENCODINGS, `Tokenizer: ${ENCODINGS.join(" or ")}`, {
  default: ENCODINGS[0]!,
});

/** `--budget N` (with this command's default) and `--encoding E`. */
export function budgetFlags(defaultBudget: number): { budget: Flag<number>; encoding: Flag<Encoding> } {
  return { budget: withDefault(budget, defaultBudget), encoding };
}

/** `--depth N`, with this command's default. */
export function depthFlag(defaultDepth: number): Flag<number> {
  return integerFlag(
    "depth",
    "N",
    LIMITS.depth.min,
    LIMITS.depth.max,
    `Hops to follow, ${LIMITS.depth.min}-${LIMITS.depth.max}`,
    { default: String(defaultDepth) },
  );
}

/** `--limit N` from 1 to `max`. */
export function limitFlag(help: string, max: number, defaultLimit: number): Flag<number> {
  return integerFlag("limit", "N", LIMITS.searchResults.min, max, `${help}, ${LIMITS.searchResults.min}-${max}`, {
    default: String(defaultLimit),
  });
}

/** One page of a list: `--limit`, `--cursor` and `--tests`. */
export const pagingFlags = {
  limit: limitFlag("Entries per page", LIMITS.page.max, LIMITS.page.default),
  cursor: textFlag(
    "cursor",
    "C",
    "The next page: the cursor the previous page named (it carries the tests filter, depth and direction it was " +
      "made with)",
  ),
  tests: choiceFlag<TestsMode>(
    "tests",
    "MODE",
    TESTS_MODES,
    "Test code: summary (production code listed, tests counted by file), include, exclude or only",
    { default: "summary" },
  ),
};

/** The project and output flags together: what every command that opens the engine owns. */
export const engineFlags = { ...projectFlags, ...outputFlags };
