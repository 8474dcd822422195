/**
 * Help from the command table: `codeslice --help`, `codeslice <command> --help`, and the Markdown
 * of docs/cli.md and the README's command table (written by scripts/cli-docs.mjs, checked by
 * test/cli/cli-docs.test.ts). Nothing here is written by hand per command.
 */
import { ENCODINGS, LIMITS } from "../index.ts";
import type { Arg, Command, Flag } from "./command.ts";
import { engineFlags, globalFlags } from "./flags.ts";

/** Text help is wrapped to this many columns. */
const WIDTH = 100;
/** Flag names are padded to this column in text help, command lines to the next. */
const NAME_COLUMN = 17;
const COMMAND_COLUMN = 20;

const TARGETS = `Symbols: qualified (pkg.mod.Class.method, src/a.ts#Class.method), path::Class.method, a dotted
suffix (Class.method) or a bare name when unique.
A target, task or query is at most ${LIMITS.targetChars} characters.`;

const EXIT_CODES = "Exit codes: 0 success, 1 the engine could not answer (message on stderr), 2 bad usage.";

/** `<target>`, `[<root>]`, `<words>...`. */
function argShown(arg: Arg): string {
  const shown = `<${arg.name}>`;
  return arg.optional ? `[${shown}]` : shown;
}

/** `context <target>`: the command with its arguments. */
export function commandLine(command: Command): string {
  return [command.name, ...(command.args ?? []).map(argShown)].join(" ");
}

/** `-h, --help`, `--budget N`. */
function flagShown(flag: Flag): string {
  return `${flag.short ? `-${flag.short}, ` : ""}--${flag.name}${flag.value ? ` ${flag.value}` : ""}`;
}

/** `text` wrapped to WIDTH, every line after the first indented by `indent` spaces. */
function wrap(text: string, indent: number, first: number): string {
  const lines: string[] = [];
  let line = "";
  let room = WIDTH - first;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
      room = WIDTH - indent;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${" ".repeat(indent)}`);
}

/**
 * One two-column row: the name padded to NAME_COLUMN (or followed by two spaces when longer), the text wrapped beside
 * it.
 */
function row(name: string, text: string, column = NAME_COLUMN): string {
  const left = name.length < column ? `  ${name.padEnd(column)}` : `  ${name}  `;
  return `${left}${wrap(text, column + 2, left.length)}`;
}

/** " (default 50)", " (default: the current folder)". */
function defaultShown(value: string | undefined): string {
  return value === undefined ? "" : /^\d/.test(value) ? ` (default ${value})` : ` (default: ${value})`;
}

/** A flag's help with the command's default, as one sentence. */
function flagText(flag: Flag): string {
  return `${flag.help}${defaultShown(flag.default)}`;
}

/** Every flag of `command`, its own first, then `--help`. */
function flagsOf(command: Command): Flag[] {
  return [...Object.values(command.flags), globalFlags.help];
}

/** The usage line of a command. */
export function usageLine(command: Command): string {
  return `codeslice ${commandLine(command)} [options]`;
}

/** `codeslice <command> --help`. */
export function commandHelp(command: Command): string {
  const args = command.args ?? [];
  return [
    `Usage: ${usageLine(command)}`,
    "",
    command.help.trimEnd(),
    ...(args.length ? ["", "Arguments:", ...args.map((a) => row(argShown(a), a.help))] : []),
    "",
    "Options:",
    ...flagsOf(command).map((f) => row(flagShown(f), flagText(f))),
    ...(command.examples.length ? ["", "Examples:", ...command.examples.map((e) => `  ${e}`)] : []),
    "",
  ].join("\n");
}

/** Each flag name once, first seen first, with the commands that own it and the defaults they give it. */
function flagIndex(commands: readonly Command[]): { flag: Flag; owners: string[]; defaults: Map<string, string[]> }[] {
  const byName = new Map<string, { flag: Flag; owners: string[]; defaults: Map<string, string[]> }>();
  for (const command of commands) {
    for (const flag of Object.values(command.flags)) {
      const entry = byName.get(flag.name) ?? { flag, owners: [], defaults: new Map<string, string[]>() };
      byName.set(flag.name, entry);
      entry.owners.push(command.name);
      if (flag.default !== undefined)
        entry.defaults.set(flag.default, [...(entry.defaults.get(flag.default) ?? []), command.name]);
    }
  }
  return [...byName.values()];
}

/** "Token budget … (default 8000 for context, pack; 2000 for map) [context, pack, map]": a flag across the table. */
function sharedFlagText(
  entry: { flag: Flag; owners: string[]; defaults: Map<string, string[]> },
  commands: readonly Command[],
): string {
  const { flag, owners, defaults } = entry;
  const missing = commands.map((c) => c.name).filter((n) => !owners.includes(n));
  const defaultText =
    defaults.size === 0
      ? ""
      : defaults.size === 1 && [...defaults.values()][0]!.length === owners.length
        ? defaultShown([...defaults.keys()][0])
        : ` (default ${[...defaults].map(([value, names]) => `${value} for ${names.join(", ")}`).join("; ")})`;
  const who =
    missing.length === 0
      ? ""
      : missing.length < owners.length
        ? ` [all but ${missing.join(", ")}]`
        : ` [${owners.join(", ")}]`;
  return `${flag.help}${defaultText}${who}`;
}

/** `codeslice --help`: the commands, what a symbol may be, every flag once with the commands that own it. */
export function generalHelp(commands: readonly Command[], version: string): string {
  return [
    `codeslice ${version}: a code-context engine for AI coding agents`,
    "",
    "Usage: codeslice <command> [options]",
    "",
    "Commands:",
    ...commands.map((c) => row(commandLine(c), c.summary, COMMAND_COLUMN)),
    "",
    TARGETS,
    "",
    "Options (the commands that own each in brackets; codeslice <command> --help for one command's):",
    ...flagIndex(commands).map((e) => row(flagShown(e.flag), sharedFlagText(e, commands))),
    ...Object.values(globalFlags).map((f) => row(flagShown(f), f.help)),
    "",
    EXIT_CODES,
    "",
  ].join("\n");
}

/** A cell of a Markdown table: pipes escaped, on one line. */
function cell(text: string): string {
  return escapeHtml(text.replace(/\s+/g, " ").replaceAll("|", "\\|").trim());
}

/** A code span in a Markdown table: pipes escaped, nothing else (entities would show as typed). */
function code(text: string): string {
  return `\`${text.replace(/\s+/g, " ").replaceAll("|", "\\|").trim()}\``;
}

/** `<target>` in prose would read as an HTML tag in rendered Markdown. */
function escapeHtml(text: string): string {
  return text.replaceAll("<", "&lt;");
}

/** Help prose as Markdown: plain paragraphs joined, blocks with indented lines kept as they are in a text fence. */
function proseMarkdown(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split("\n")
        .slice(1)
        .some((l) => /^\s/.test(l))
        ? `\`\`\`text\n${block}\n\`\`\``
        : escapeHtml(block.replace(/\s*\n\s*/g, " ")),
    )
    .join("\n\n");
}

/** The flags most commands share, which the README names once below its table instead of in every row. */
const SHARED_IN_README = new Set([...Object.values(engineFlags).map((f) => f.name), "encoding"]);

/**
 * The README's command table (what goes between its cli-table markers): each command, what it answers, the options of
 * its own.
 */
export function readmeTable(commands: readonly Command[]): string {
  const own = (c: Command) =>
    Object.values(c.flags)
      .filter((f) => !SHARED_IN_README.has(f.name))
      .map((f) => `${code(flagShown(f))}${f.default !== undefined && /^\d/.test(f.default) ? ` (${f.default})` : ""}`)
      .join(", ");
  const engine = commands.filter((c) =>
    Object.values(engineFlags).every((f) => Object.values(c.flags).some((g) => g.name === f.name)),
  );
  const others = commands.filter((c) => !engine.includes(c)).map((c) => c.name);
  return [
    "| command | what it answers | options of its own |",
    "| --- | --- | --- |",
    ...commands.map((c) => `| ${code(commandLine(c))} | ${cell(c.summary)} | ${own(c)} |`),
    "",
    `Every command${others.length ? ` but ${listed(others)}` : ""} takes ` +
      `${listed(Object.values(engineFlags).map((f) => code(flagShown(f))))};`,
    `every command with \`--budget N\` takes \`--encoding E\` (${ENCODINGS.join(" or ")}). The defaults and the ` +
      `rest: [docs/cli.md](docs/cli.md).`,
  ].join("\n");
}

/** `a`, `a and b`, `a, b and c`. */
function listed(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : (words[0] ?? "");
}

/** docs/cli.md: the whole command-line reference. */
export function cliMarkdown(commands: readonly Command[]): string {
  const out = [
    "# The codeslice command line",
    "",
    "<!-- Generated from src/cli/commands/ by `npm run docs:cli`; edit the command files, not this page. " +
      "test/cli/cli-docs.test.ts fails when the two disagree. -->",
    "",
    "`codeslice <command> [options]`. Every flag is `--name value` or `--name=value`; a value that starts with " +
      "a dash needs the `=` form.",
    "`codeslice --help` lists everything, `codeslice <command> --help` one command.",
    "",
    TARGETS.replace(/\s*\n\s*/g, " "),
    "",
    `${EXIT_CODES} With \`--json\`, an engine error is also printed as JSON on stdout, with its \`code\` and \`data\`.`,
    "",
    "| command | what it does |",
    "| --- | --- |",
    ...commands.map((c) => `| [${code(commandLine(c))}](#${c.name}) | ${cell(c.summary)} |`),
  ];
  for (const c of commands) {
    out.push("", `## ${c.name}`, "", `\`${usageLine(c)}\``, "", cell(c.summary), "", proseMarkdown(c.help));
    if (c.args?.length)
      out.push(
        "",
        "| argument | what it is |",
        "| --- | --- |",
        ...c.args.map((a) => `| ${code(argShown(a))} | ${cell(a.help)} |`),
      );
    out.push(
      "",
      "| flag | default | what it does |",
      "| --- | --- | --- |",
      ...flagsOf(c).map(
        (f) => `| ${code(flagShown(f))} | ${f.default !== undefined ? code(f.default) : ""} | ${cell(f.help)} |`,
      ),
    );
    if (c.examples.length) out.push("", "```sh", ...c.examples, "```");
  }
  return `${out.join("\n")}\n`;
}

/** The README's markers around the generated command table. */
export const README_MARKERS = { start: "<!-- cli-table:start -->", end: "<!-- cli-table:end -->" } as const;

/**
 * `readme` with the text between its cli-table markers replaced by the table of `commands`; throws when the markers are
 * missing.
 */
export function withReadmeTable(readme: string, commands: readonly Command[]): string {
  const start = readme.indexOf(README_MARKERS.start);
  const end = readme.indexOf(README_MARKERS.end);
  if (start < 0 || end < start)
    throw new Error(`README.md has no ${README_MARKERS.start} … ${README_MARKERS.end} block`);
  return `${readme.slice(0, start + README_MARKERS.start.length)}\n${readmeTable(commands)}\n${readme.slice(end)}`;
}
