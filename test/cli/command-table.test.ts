/**
 * The command table and its dispatcher, in process: did-you-mean for commands and flags, another
 * command's flag, a flag without its value (exit 2, never 0), every example in the help parsing,
 * and a throwaway command that works from its own definition plus one registry entry.
 */
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { defineCommand, type Command } from "../../src/cli/command.ts";
import { runCli } from "../../src/cli/dispatch.ts";
import { engineFlags, switchFlag } from "../../src/cli/flags.ts";
import { cliMarkdown, commandHelp, generalHelp, readmeTable } from "../../src/cli/help.ts";
import { editDistance, suggest } from "../../src/shared/suggest.ts";

const host = { version: "9.9.9", entry: "/x/dist/cli/main.js" };

/** The table with every run replaced by one that records its call and exits 0: parsing is all that runs. */
function dryTable(calls: { name: string; args: string[]; flags: object }[] = []): Command[] {
  return COMMANDS.map((c) => ({
    ...c,
    run: async (ctx) => (calls.push({ name: c.name, args: ctx.args, flags: ctx.flags }), 0),
  }));
}

/** Runs argv through the dispatcher, returning the exit code and what it wrote. */
async function cli(
  argv: string[],
  table: readonly Command[] = dryTable(),
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: "", stderr: "" };
  const saved = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = ((chunk: string) => ((out.stdout += chunk), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => ((out.stderr += chunk), true)) as typeof process.stderr.write;
  try {
    return { code: await runCli(argv, table, host), ...out };
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
  }
}

/** A help example as argv: the words after `codeslice`, up to a pipe, a redirection or a comment; quotes kept together. */
function exampleArgv(line: string): string[] {
  const tail = line.slice(line.indexOf("codeslice ") + "codeslice ".length).split(/\s[|#<>]/)[0]!;
  return [...tail.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe("did-you-mean", () => {
  it("measures transpositions as one edit (Damerau-Levenshtein)", () => {
    expect(editDistance("budjet", "budget")).toBe(1);
    expect(editDistance("cotnext", "context")).toBe(1);
    expect(editDistance("contxt", "context")).toBe(1);
    expect(editDistance("", "map")).toBe(3);
  });

  it.each([
    ["contxt", "context"],
    ["cotnext", "context"],
    ["calers", "callers"],
    ["imports", "importers"],
    ["sigature", "signature"],
    ["chnages", "changes"],
  ])("an unknown command %s suggests %s (exit 2)", async (typed, meant) => {
    const r = await cli([typed, "x"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Unknown command "${typed}". Did you mean "${meant}"`);
    expect(r.stdout).toBe("");
  });

  it("suggests nothing for a word far from every command", async () => {
    const r = await cli(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain("Did you mean");
    expect(suggest("x", ["k"])).toEqual([]);
  });

  it.each([
    [["map", "--budjet", "5"], "--budget"],
    [["context", "x", "--budegt", "5"], "--budget"],
    [["callers", "x", "--dept", "2"], "--depth"],
    [["index", "--cahce-dir", "d"], "--cache-dir"],
    [["search", "x", "--limt", "3"], "--limit"],
    [["trace", "a", "b", "--max-hop", "3"], "--max-hops"],
  ])("an unknown flag in %j suggests %s (exit 2)", async (argv, meant) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Did you mean ${meant}`);
  });

  it("a page asked by number or offset names the command's own paging flag, not a near spelling elsewhere", async () => {
    for (const [argv, meant] of [
      [["callers", "x", "--page", "2"], "--cursor"],
      [["callees", "x", "--page", "2"], "--cursor"],
      [["impact", "x", "--offset", "50"], "--cursor"],
      [["tests", "x", "--page", "2"], "--cursor"],
      [["importers", "a.py", "--page", "2"], "--cursor"],
      [["search", "x", "--page", "2"], "--limit"],
      [["grep", "x", "--page", "2"], "--max-matches"],
      [["map", "--tokens", "900"], "--budget"],
    ] as const) {
      const r = await cli([...argv]);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr, argv.join(" ")).toContain(`Did you mean ${meant} (`);
      expect(r.stderr, argv.join(" ")).not.toContain("--base");
    }
    // rename previews unless applied: --dry-run is what it does already.
    const dry = await cli(["rename", "a", "b", "--dry-run"]);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain("only previews; nothing is written without --apply");
  });

  it("a typo of another command's flag names that command", async () => {
    const r = await cli(["map", "--drection", "up"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Did you mean --direction (an option of impact)");
  });

  it("another command's flag names the commands that own it", async () => {
    for (const [argv, owners] of [
      [["map", "--depth", "2"], "callers, callees, importers, tests and impact"],
      [["callers", "x", "--direction", "up"], "impact"],
      [["map", "--staged"], "changes"],
      [["index", "--out", "f"], "scip"],
      [["search", "x", "--budget", "100"], "map, context, pack"],
    ] as const) {
      const r = await cli([...argv]);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr, argv.join(" ")).toContain(
        `--${argv.find((a) => a.startsWith("--"))!.slice(2)} is an option of ${owners}`,
      );
    }
  });
});

describe("a flag without its value is bad usage (exit 2), never a run", () => {
  it.each([
    [["graph", "--json", "--min-confidence"]],
    [["graph", "--min-confidence", "--json"]],
    [["graph", "--min-confidence", ""]],
    [["graph", "--min-confidence="]],
    [["map", "--budget"]],
    [["map", "--budget", "--json"]],
    [["context", "x", "--budget", "-5"]],
    [["index", "--root"]],
    [["changes", "--base", "--staged"]],
  ])("%j", async (argv) => {
    const calls: { name: string }[] = [];
    const r = await cli(argv, dryTable(calls));
    expect(r.code).toBe(2);
    expect(calls).toEqual([]);
    expect(r.stderr).toMatch(/--[a-z-]+ needs a value/);
  });

  it('a value that starts with a dash goes in with =, and "-" alone is a value (stdin)', async () => {
    const calls: { name: string; flags: object }[] = [];
    expect((await cli(["changes", "--diff", "-"], dryTable(calls))).code).toBe(0);
    expect((await cli(["search", "x", "--limit=7"], dryTable(calls))).code).toBe(0);
    expect(calls.map((c) => c.flags)).toEqual([{ diff: "-" }, { limit: 7 }]);
  });
});

describe("the table", () => {
  it("every example in every command's help parses (run stubbed)", async () => {
    for (const c of COMMANDS) {
      expect(c.examples.length, c.name).toBeGreaterThan(0);
      for (const example of c.examples) {
        const argv = exampleArgv(example);
        expect(argv[0], example).toBe(c.name);
        const r = await cli(argv);
        expect(`${r.code} ${r.stderr}`, example).toBe("0 ");
      }
    }
  });

  it("reads arguments and flags as the command declares them", async () => {
    const calls: { name: string; args: string[]; flags: object }[] = [];
    const table = dryTable(calls);
    await cli(["search", "parse", "config", "--limit", "3", "--json"], table);
    await cli(["--root", "/p", "trace", "a", "GET /x", "--k=2"], table);
    await cli(
      [
        "impact",
        "f.py",
        "--direction",
        "both",
        "--depth",
        "2",
        "--tests",
        "only",
        "--budget",
        "900",
        "--budget",
        "800",
      ],
      table,
    );
    expect(calls).toEqual([
      { name: "search", args: ["parse config"], flags: { limit: 3, json: true } },
      { name: "trace", args: ["a", "GET /x"], flags: { root: "/p", k: 2 } },
      { name: "impact", args: ["f.py"], flags: { direction: "both", depth: 2, tests: "only", budget: 800 } },
    ]);
  });

  it("refuses a flag spelled as a switch in one command and with a value in another", async () => {
    const clash = defineCommand({
      name: "clash",
      summary: "s",
      flags: { json: { name: "json", value: "MODE", help: "h", parse: (raw) => raw } },
      help: "h",
      examples: [],
      run: async () => 0,
    });
    await expect(runCli(["clash"], [...COMMANDS, clash], host)).rejects.toThrow(
      /--json takes a value in one command and not in another/,
    );
  });

  it("a throwaway command works from its own definition plus one registry entry: dispatch, flags, did-you-mean, help, docs", async () => {
    const seen: unknown[] = [];
    // Everything the new command is: one defineCommand, its own flag plus a shared group.
    const echo = defineCommand({
      name: "echo",
      summary: "Prints its words back",
      args: [{ name: "words", what: "words to echo", rest: true, help: "What to print" }],
      flags: { shout: switchFlag("shout", "In capitals"), ...engineFlags },
      help: "Prints <words> back, in capitals with --shout.",
      examples: ["codeslice echo hello world --shout"],
      async run({ args: [words], flags }) {
        seen.push({ words, flags });
        process.stdout.write(`${flags.shout ? words!.toUpperCase() : words}\n`);
        return 0;
      },
    });
    // The one registry entry: the table is the registry's array plus it.
    const table = [...COMMANDS, echo];

    expect(await cli(["echo", "hello", "world", "--shout", "--root", "/p"], table)).toEqual({
      code: 0,
      stdout: "HELLO WORLD\n",
      stderr: "",
    });
    expect(seen).toEqual([{ words: "hello world", flags: { shout: true, root: "/p" } }]);
    expect((await cli(["ecoh", "x"], table)).stderr).toContain('Did you mean "echo"?');
    expect((await cli(["echo", "x", "--shuot"], table)).stderr).toContain("Did you mean --shout?");
    expect((await cli(["map", "--shout"], table)).stderr).toContain("--shout is an option of echo, not of map");
    expect((await cli(["echo"], table)).stderr).toContain("echo needs words to echo");
    expect((await cli(["echo", "--help"], table)).stdout).toBe(commandHelp(echo));
    expect(commandHelp(echo)).toContain("--shout          In capitals");
    expect(generalHelp(table, "1")).toMatch(/\n {2}echo <words> +Prints its words back\n/);
    expect(cliMarkdown(table)).toContain("## echo\n");
    expect(readmeTable(table)).toContain("| `echo <words>` | Prints its words back | `--shout` |");
  });
});
