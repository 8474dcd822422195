/**
 * `codeslice tools`: the project's MCP tools, JSON-RPC and gRPC methods and CLI commands. A
 * command of its own rather than `routes --kind`: routes' filters (--prefix, --method) mean
 * nothing for a tool, and a tool's kind means nothing for a route.
 */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, choiceFlag, engineFlags, rootArg } from "../flags.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";

const KINDS = ["mcp", "jsonrpc", "grpc", "cli"] as const;

/** `codeslice tools`. */
export const toolsCommand = defineCommand({
  name: "tools",
  summary:
    "The project's MCP tools, JSON-RPC and gRPC methods and CLI commands, each with where it is defined and handled",
  args: [rootArg],
  flags: {
    kind: choiceFlag("kind", KINDS.join("|"), KINDS, "Only this kind"),
    ...budgetFlags(LIMITS.budget.list),
    ...engineFlags,
  },
  help: `Lists the tools and commands the project defines, with the registration (path:line) and
the code that handles each: MCP tools (server.tool("x", …), registerTool, @mcp.tool(),
defineTool({ name })), JSON-RPC methods (addMethod("x", …), @jsonrpc.method("x"), @method),
gRPC methods (a Python …Servicer subclass's methods, Node's server.addService(svc, { m: impl }))
and CLI commands (click and typer @x.command(), argparse add_parser("x") with
set_defaults(func=…), commander and yargs .command("x") with .action(…), defineCommand({ name })).
Those registered in test files come last. Entries past what --budget holds are counted.

--json: { "tools": [ { "kind", "name", "via", "file", "line", "handler", "handledAt": { "path", "line" } } ],
  "total", "counts", … }`,
  examples: ["codeslice tools", "codeslice tools --kind cli", "codeslice tools --json"],
  async run({ flags }) {
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.toolMap({
        onProgress: progress.onProgress,
        ...(flags.kind ? { kind: flags.kind } : {}),
        ...budgetOptions(flags),
      });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
