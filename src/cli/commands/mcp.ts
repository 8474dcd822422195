/** `codeslice mcp`: the MCP stdio server, or the snippet that registers it with a client. */
import * as nodePath from "node:path";
import { existsSync } from "node:fs";
import { LIMITS } from "../../index.ts";
import type { ConfigClient, ServerCommand } from "../../mcp/client-config.ts";
import { defineCommand } from "../command.ts";
import { projectFlags, rootArg, switchFlag, textFlag } from "../flags.ts";
import { EXIT, writeOut } from "../output.ts";
import { createHostPlatform } from "../platform.ts";
import { quoted } from "../../shared/quote.ts";

/**
 * How a client should start this codeslice (`main`: the running dist/cli/main.js): an installed
 * package by its bin (`node_modules/.bin` of a local install, `<prefix>/bin` of a global one), a
 * clone by node and the absolute path of main; under Deno, by that file.
 */
function serverCommands(main: string, version: string): { node: ServerCommand; deno: ServerCommand } {
  // Deno run from its own npm cache (`deno run npm:codeslice`): that folder has no node_modules
  // for node to resolve from, so every client gets the npm: specifier Deno resolved.
  if (/[\\/]registry\.npmjs\.org[\\/]codeslice[\\/]/.test(main)) {
    const viaNpm = { command: "deno", args: ["run", "-A", `npm:codeslice@${version}`, "mcp"] };
    return { node: viaNpm, deno: viaNpm };
  }
  const deno = { command: "deno", args: ["run", "-A", main, "mcp"] };
  const pkg = nodePath.resolve(main, "..", "..", "..");
  const modules = nodePath.dirname(pkg);
  if (nodePath.basename(modules) === "node_modules") {
    for (const bin of [
      nodePath.join(modules, ".bin", "codeslice"),
      nodePath.join(modules, "..", "..", "bin", "codeslice"),
    ]) {
      if (existsSync(bin)) return { node: { command: bin, args: ["mcp"] }, deno };
    }
  }
  return { node: { command: "node", args: [main, "mcp"] }, deno };
}

/** `codeslice mcp --print-config <client> [server options]`: the snippet on stdout, where it goes on stderr. */
async function printMcpConfig(args: string[], at: number, main: string, version: string): Promise<number> {
  const { CONFIG_CLIENTS, clientConfig } = await import("../../mcp/client-config.ts");
  const { configArgs } = await import("../../mcp/stdio.ts");
  const flag = args[at]!;
  const inline = flag.includes("=") ? flag.slice(flag.indexOf("=") + 1) : undefined;
  const client = inline ?? args[at + 1];
  const rest = [...args.slice(0, at), ...args.slice(at + (inline === undefined ? 2 : 1))];
  if (!client || !(CONFIG_CLIENTS as readonly string[]).includes(client)) {
    process.stderr.write(
      `codeslice mcp: --print-config takes one of ` +
        `${CONFIG_CLIENTS.join(", ")}${client ? `, got ${quoted(client)}` : ""}\n`,
    );
    return EXIT.usage;
  }
  let extra: string[];
  try {
    extra = configArgs(rest);
  } catch (error) {
    process.stderr.write(`codeslice mcp: ${(error as Error).message}\nRun \`codeslice mcp --help\` for usage.\n`);
    return EXIT.usage;
  }
  const config = clientConfig(client as ConfigClient, serverCommands(main, version), extra);
  process.stderr.write(`# ${config.where}\n`);
  writeOut(config.snippet);
  return EXIT.ok;
}

/** `codeslice mcp`. */
export const mcpCommand = defineCommand({
  name: "mcp",
  summary: "Serve the tools to an agent over MCP stdio (--print-config <client> for the setup snippet)",
  args: [rootArg],
  ownArgs: true,
  flags: {
    root: textFlag("root", "DIR", "Project folder; more than once (NAME=DIR names one) serves the folders as a group", {
      default: "the current folder",
    }),
    group: textFlag(
      "group",
      "FILE",
      'Serve the repositories a group file lists (codeslice.group.json: { "repos": [ { "name", "root", "index" } ] })',
    ),
    cacheDir: projectFlags.cacheDir,
    logLevel: textFlag("log-level", "L", "debug, info, warn, error or silent; logs go to stderr", { default: "warn" }),
    maxResponseTokens: textFlag(
      "max-response-tokens",
      "N",
      `The largest answer in tokens (at least ${LIMITS.responseTokens.min}), text and structured content together`,
      { default: String(LIMITS.responseTokens.default) },
    ),
    allowRun: switchFlag(
      "allow-run",
      "Also serve run_tests, which runs the project's tests (allowlisted runners, no shell, a timeout); off by default",
    ),
    printConfig: textFlag(
      "print-config",
      "CLIENT",
      "Print the setup snippet for claude-code, cursor, vscode, codex or deno instead of serving",
    ),
  },
  help: `Serves codeslice's tools (repo_map, context, search, signature, callers, callees, importers,
tests, trace, impact, changes, read_snippet, pack, check, dataflow; run_tests with --allow-run),
resources (codeslice://map, codeslice://outline/<path>, codeslice://symbol/<name>) and prompts (explain_symbol,
review_diff, plan_change, detect_impact, generate_map) to an AI agent over the Model Context Protocol on stdin/stdout.
The project is --root DIR (or a positional folder), else the folder the client starts the
server in. The first tool call indexes it; later calls notice edits on their own.

Setup: --print-config claude-code|cursor|vscode|codex|deno prints the snippet that registers
this codeslice with that client (deno: Claude Code's line, run under Deno), with its absolute
path; the options given with it go into the snippet.

Several repositories from one process: --root more than once (--root api=../backend --root
web=../frontend; a folder is named after itself unless NAME= says otherwise) or --group FILE. Each
keeps its own index and cache; every tool then takes an optional repo (default: the first), the
repos tool and codeslice://repos list them with their freshness, citations read repo:path:line,
and repo_map (kind routes), impact and changes follow HTTP routes from one repository to the calls in another.
A group file's roots and index artifacts must lie inside its own folder.`,
  examples: [
    "codeslice mcp --root api=backend --root web=frontend",
    "codeslice mcp --group codeslice.group.json",
    "codeslice mcp --print-config claude-code     # then run the line it prints",
    "codeslice mcp --print-config cursor > .cursor/mcp.json",
    "codeslice mcp ~/src/shop --log-level info",
  ],
  async run({ argv, version, entry }) {
    // The MCP server parses its own options and runs until the client hangs up; loaded only here
    // so the other commands never pay for the MCP SDK.
    const at = argv.findIndex((a) => a === "--print-config" || a.startsWith("--print-config="));
    if (at >= 0) return printMcpConfig(argv, at, entry, version);
    const { runMcpStdio } = await import("../../mcp/stdio.ts");
    return runMcpStdio(argv, { version, createPlatform: createHostPlatform });
  },
});
