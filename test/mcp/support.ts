/**
 * MCP test support: a fixture project (Python + TypeScript), a real SDK Client connected to the
 * real server over the SDK's in-process linked transport, and a `call` helper that returns the
 * text, the structured content and the error flag of one tool call.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { Engine } from "../../src/core/engine/engine.ts";
import {
  createMcpServer,
  expandContent,
  FRESHNESS_META,
  RUN_TOOLS,
  structuredContentSchema,
  TOOLS,
  type McpServerOptions,
} from "../../src/mcp/server.ts";
import type { ToolSpec } from "../../src/mcp/tool.ts";
import { reposTool } from "../../src/mcp/tools/repos.ts";
import { parseFixture } from "../support/platform.ts";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const cliPath = path.join(repoRoot, "dist", "cli", "main.js");

export { FIXTURE } from "../support/shop-fixture.ts";
import { FIXTURE } from "../support/shop-fixture.ts";

export const FIXTURE_FILES = parseFixture(FIXTURE);

const temps: string[] = [];

/** A fresh temp folder (real path), removed by {@link removeTemps}. */
export function tempDir(prefix = "codeslice-mcp-"): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}

export function removeTemps(): void {
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
}

/** Writes `files` under `root`. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

/** The fixture written to a new temp folder. */
export function fixtureDir(files: Record<string, string> = FIXTURE_FILES): string {
  const root = tempDir();
  writeFiles(root, files);
  return root;
}

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

/** A real Client connected to `createMcpServer(engine)` in process; tools are listed so outputs are validated. */
export async function connect(engine: Engine, options: McpServerOptions = {}): Promise<Connected> {
  const server = createMcpServer(engine, { version: "test", ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "codeslice-test", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
      engine.close();
    },
  };
}

export interface Answer {
  isError: boolean;
  text: string;
  /** How fresh the index was: the answer's `_meta["codeslice/freshness"]`, kept out of the structured content. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  freshness: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
  raw: CallToolResult;
}

/**
 * Expands a successful answer's structured content and checks it against the tool's schema. The schemas are not
 * sent in tools/list (a client would validate them), so the tests do it for every answer.
 */
export function checkStructured(name: string, raw: CallToolResult): unknown {
  if (raw.isError) return raw.structuredContent;
  const tool = [...TOOLS, ...RUN_TOOLS, reposTool as unknown as ToolSpec].find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  const schema = structuredContentSchema(tool);
  const expanded = expandContent(raw.structuredContent, schema);
  const r = schema.strict().safeParse(expanded);
  if (!r.success) throw new Error(`${name}: structured content does not match its schema: ${r.error.message}`);
  return expanded;
}

/** Calls one tool; `onprogress` receives progress notifications (and makes the client send a token). */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  onprogress?: (p: Progress) => void,
): Promise<Answer> {
  const raw = (await client.callTool(
    { name, arguments: args },
    undefined,
    onprogress ? { onprogress } : {},
  )) as CallToolResult;
  const text = raw.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  // The server sends the lean form (src/mcp/lean.ts); the tests read it as objects, as a program would.
  const data = checkStructured(name, raw);
  return { isError: raw.isError === true, text, data, raw, freshness: raw._meta?.[FRESHNESS_META] };
}

/** Tokens of an answer as a client that passes both shows it: the text plus the JSON of the structured content. */
export function answerTokens(a: Answer): number {
  const sent = a.raw.structuredContent;
  return countTokens(a.text) + (sent === undefined ? 0 : countTokens(JSON.stringify(sent)));
}

/** {@link answerTokens} without what the server adds to every answer (the freshness line): what a budget covers. */
export function budgetedTokens(a: Answer): number {
  const data = a.raw.structuredContent;
  const text = a.text.replace(/\n\n\(index (built|loaded|refreshed)[^\n]*\)$/, "");
  return countTokens(text) + (data === undefined ? 0 : countTokens(JSON.stringify(data)));
}
