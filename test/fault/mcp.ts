/** MCP helpers for the fault suite: the built server as a real stdio subprocess, driven by the SDK Client. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expandContent, structuredContentSchema, TOOLS } from "../../src/mcp/server.ts";
import { cliPath, repoRoot } from "./run.ts";

export interface Session {
  client: Client;
  /** The server's process id (for kill -9). */
  pid: number | undefined;
  stderr(): string;
  /** Protocol errors the client saw (anything on stdout that is not JSON-RPC, broken frames). */
  protocolErrors: Error[];
  close(): Promise<void>;
}

/** Starts `codeslice mcp <args>` (in `cwd`, default the repository) and connects a Client to it. */
export async function openServer(args: string[], cwd = repoRoot): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, "mcp", ...args],
    stderr: "pipe",
    cwd,
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: "codeslice-fault-test", version: "1.0.0" });
  const protocolErrors: Error[] = [];
  client.onerror = (e) => protocolErrors.push(e);
  await client.connect(transport);
  return {
    client,
    pid: transport.pid ?? undefined,
    stderr: () => err,
    protocolErrors,
    close: () => client.close(),
  };
}

export interface ToolAnswer {
  isError: boolean;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
  /** The answer's `_meta["codeslice/freshness"]`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  freshness: any;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
  const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  // The lean form the server sends (src/mcp/lean.ts), read back as the tool's shape.
  const tool = TOOLS.find((t) => t.name === name);
  const data =
    r.isError || !tool ? r.structuredContent : expandContent(r.structuredContent, structuredContentSchema(tool));
  return { isError: r.isError === true, text, data, freshness: r._meta?.["codeslice/freshness"] };
}

/** The structured content without the freshness report, which differs from run to run. */
export function withoutFreshness(data: unknown): unknown {
  if (!data || typeof data !== "object") return data;
  const { freshness: _f, ...rest } = data as Record<string, unknown>;
  return JSON.parse(JSON.stringify(rest)) as unknown;
}

/** One call of every tool, on targets of the fault fixture. */
export const TOOL_CALLS: [string, Record<string, unknown>][] = [
  ["context", { target: "Checkout.scan", budget: 1500 }],
  ["context", { target: "web/src/cart.ts::Cart.describe", budget: 1500 }],
  ["callers", { symbol: "format_label" }],
  ["callers", { symbol: "formatPrice" }],
  ["callees", { symbol: "Checkout.scan" }],
  ["importers", { file: "inventory/models.py" }],
  ["signature", { symbol: "Cart" }],
  ["search", { query: "price" }],
  ["read_snippet", { path: "inventory/store.py", start_line: 1, end_line: 12 }],
  ["repo_map", { budget: 1500 }],
  ["pack", { task: "tax on prices", budget: 1500 }],
];
