/** What one MCP tool is made of, and what the server hands each tool when it runs. */
import type { z } from "zod";
import type { Engine, EngineGroup } from "../index.ts";

/** Where the server's diagnostics go (stderr in the stdio server). */
export interface McpLogger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What a tool gets besides its arguments. */
export interface ToolContext {
  engine: Engine;
  /** The project root as the platform names it (an absolute path for the Node server). */
  root: string;
  /**
   * Tokens this tool's answer may use, its text and the JSON of its structured content together
   * (a client may pass both to the model): the response cap minus the room the server keeps for
   * the freshness line and field.
   */
  cap: number;
  /** The server's configured response cap, for notes that mention it. */
  responseCap: number;
  /** Counts tokens (o200k_base). */
  count: (text: string) => number;
  /** Tokens of the text plus tokens of the structured content's JSON: what the cap limits. */
  measure: (text: string, data: unknown) => number;
  /** Cancelled when the client cancels the request. */
  signal: AbortSignal;
  log: McpLogger;
  /** Set when the server serves a group of repositories: the group, and the member this call is about. */
  group?: EngineGroup;
  repo?: string;
  /** Set when a tool that spans the group (search, grep) was called without `repo`: it answers from every member. */
  spanning?: boolean;
}

/** A tool's answer before the server adds freshness: text for people and models, data for programs. */
export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
  /** Text after the answer that already names repositories (a group's cross-repository callers): left as written. */
  suffix?: string;
}

/** One tool: its MCP metadata, its schemas and a handler that makes one engine call and renders it. */
export interface ToolSpec<In extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Written for a model: what it returns, when to use it, its limits. */
  description: string;
  input: In;
  /** The structured content's shape, without `freshness` (the server adds it). */
  output: z.ZodObject;
  /**
   * The tool's hints in tools/list when it is not read-only (a tool that writes says so: readOnly
   * false, and whether it destroys or repeats); read-only tools leave it out.
   */
  annotations?: { readOnlyHint: false; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  /** True when these arguments ask for a full re-scan before answering (repo_map's `refresh`). */
  rescan?(args: z.output<In>): boolean;
  run(args: z.output<In>, ctx: ToolContext): Promise<ToolAnswer>;
}

/** Declares a tool with its argument types inferred from its input schema. */
export function defineTool<In extends z.ZodObject>(spec: ToolSpec<In>): ToolSpec<In> {
  return spec;
}
