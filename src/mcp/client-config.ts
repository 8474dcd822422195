/**
 * `codeslice mcp --print-config <client>`: the snippet that registers this very server with an MCP
 * client, with the absolute path of the codeslice being run (a clone's dist/cli/main.js, or an
 * installed package's bin), so that setup works before the package is on the registry.
 */

/** The clients a snippet can be printed for. */
export const CONFIG_CLIENTS = ["claude-code", "cursor", "vscode", "codex", "deno"] as const;
export type ConfigClient = (typeof CONFIG_CLIENTS)[number];

/** How to start the server: a command and its arguments up to (and including) `mcp`. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** Where it goes and the text to put there: `snippet` alone goes to stdout. */
export interface ClientConfig {
  where: string;
  snippet: string;
}

/** Folder-placeholder clients: they start servers outside the project, so the root is passed. */
const WORKSPACE = "${workspaceFolder}";

/**
 * The snippet for `client`. `node` and `deno` are the two ways to run this codeslice; `extra` are
 * the server options given after `--print-config` (a `--root` among them replaces the client's
 * default of the folder it starts the server in, or its workspace placeholder).
 */
export function clientConfig(
  client: ConfigClient,
  run: { node: ServerCommand; deno: ServerCommand },
  extra: string[],
): ClientConfig {
  const hasRoot = extra.some((a) => a === "--root" || a.startsWith("--root="));
  const withRoot = (c: ServerCommand, placeholder: boolean): ServerCommand => ({
    command: c.command,
    args: [...c.args, ...extra, ...(placeholder && !hasRoot ? ["--root", WORKSPACE] : [])],
  });
  switch (client) {
    case "claude-code":
      return {
        where: "Run in the project (add --scope project to share it through .mcp.json):",
        snippet: `claude mcp add codeslice -- ${shellLine(withRoot(run.node, false))}`,
      };
    case "deno":
      return {
        where: "Claude Code, with the server under Deno (other clients: the same command and args):",
        snippet: `claude mcp add codeslice -- ${shellLine(withRoot(run.deno, false))}`,
      };
    case "cursor": {
      const c = withRoot(run.node, true);
      return {
        where: ".cursor/mcp.json in the project (or ~/.cursor/mcp.json):",
        snippet: json({ mcpServers: { codeslice: { command: c.command, args: c.args } } }),
      };
    }
    case "vscode": {
      const c = withRoot(run.node, true);
      return {
        where: ".vscode/mcp.json in the project:",
        snippet: json({ servers: { codeslice: { type: "stdio", command: c.command, args: c.args } } }),
      };
    }
    case "codex": {
      const c = withRoot(run.node, false);
      return {
        where: "~/.codex/config.toml (or .codex/config.toml in a trusted project):",
        snippet:
          `[mcp_servers.codeslice]\ncommand = ${JSON.stringify(c.command)}\nargs = ` +
          `[${c.args.map((a) => JSON.stringify(a)).join(", ")}]`,
      };
    }
  }
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** A command line a POSIX shell reads back as the same words. */
export function shellLine(c: ServerCommand): string {
  return [c.command, ...c.args]
    .map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`))
    .join(" ");
}
