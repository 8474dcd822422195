/**
 * Failures as tool results (`isError: true`) whose text tells the model what to do next:
 * did-you-mean for unknown names, candidates with path:line for ambiguous ones, the budget
 * needed when it was too small, the root's path when it is missing, the supported languages when
 * nothing could be indexed. Error results carry text only: a client validates any structured
 * content against the tool's output schema, which describes answers, not errors.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isEngineError, supportedLanguageNames, type EngineError } from "../index.ts";
import type { McpLogger } from "./tool.ts";

interface Candidate {
  qualified?: unknown;
  kind?: unknown;
  path?: unknown;
  line?: unknown;
}

function candidateLine(c: Candidate): string {
  return `- ${String(c.qualified)} (${String(c.kind)}, ${String(c.path)}:${String(c.line)})`;
}

/** The text of an engine error, with the structured data spelled out where it helps. */
export function engineErrorText(error: EngineError, tool: string): string {
  const lines: string[] = [];
  const data = error.data ?? {};
  switch (error.code) {
    case "unknown_symbol": {
      lines.push(error.message);
      const suggestions = Array.isArray(data.suggestions) ? (data.suggestions as Candidate[]) : [];
      if (suggestions.length) lines.push("Did you mean:", ...suggestions.map(candidateLine));
      else lines.push(error.hint ?? "Use the search tool with a few words from the name or docstring to find it.");
      break;
    }
    case "ambiguous_symbol": {
      const candidates = Array.isArray(data.candidates) ? (data.candidates as Candidate[]) : [];
      const total = typeof data.total === "number" ? data.total : candidates.length;
      if (candidates.length === 0) {
        lines.push(error.message);
      } else {
        lines.push(`${JSON.stringify(data.target ?? "")} matches ${total} symbols:`, ...candidates.map(candidateLine));
        if (total > candidates.length) lines.push(`+${total - candidates.length} more`);
      }
      lines.push(error.hint ?? "Qualify the name: Class.method, pkg.module.name or path::name.");
      break;
    }
    case "budget_too_small": {
      lines.push(error.message);
      if (typeof data.needed === "number") lines.push(`Call ${tool} again with budget ≥ ${data.needed}.`);
      else if (error.hint) lines.push(error.hint);
      break;
    }
    case "root_not_found":
    case "root_not_directory":
      lines.push(error.message, "The project folder may have been moved or deleted. Restore it, or restart the codeslice MCP server with --root pointing at the project.");
      break;
    case "memory_limit": {
      lines.push(error.message);
      const suggested = typeof data.suggestedMiB === "number" ? Math.max(512, 2 ** Math.ceil(Math.log2(data.suggestedMiB))) : 1024;
      lines.push(`Restart the codeslice MCP server with more heap: set NODE_OPTIONS=--max-old-space-size=${suggested} in its environment (or pass it to node/deno). Other tools and smaller requests may still answer.`);
      break;
    }
    case "no_supported_files":
      lines.push(error.message);
      if (error.hint) lines.push(error.hint);
      break;
    default:
      lines.push(error.message);
      if (error.hint) lines.push(error.hint);
  }
  return lines.join("\n");
}

/** A tool error result. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Turns anything a handler threw into a tool error; unexpected errors are logged in full and summarized. */
export function toToolError(error: unknown, tool: string, log: McpLogger): CallToolResult {
  if (isEngineError(error)) {
    log.debug(`${tool}: ${error.code}: ${error.message}`);
    return errorResult(engineErrorText(error, tool));
  }
  const e = error instanceof Error ? error : new Error(String(error));
  log.error(`${tool}: unexpected error: ${e.stack ?? e.message}`);
  const first = (e.message || e.name || "unknown error").split("\n")[0]!.slice(0, 300);
  return errorResult(`codeslice could not answer ${tool}: internal error (${first}). Details are in the server's log on stderr; other tools still work.`);
}

/** The message for a project where nothing could be indexed. */
export function noSourceText(root: string, files: number): { message: string; hint: string } {
  const languages = supportedLanguageNames().join(", ");
  return files === 0
    ? { message: `The project root ${root} is empty: no files to index (or all of them are ignored).`, hint: `Start the server with --root pointing at a project folder. Supported languages: ${languages}.` }
    : { message: `No supported source files under ${root} (${files} files scanned).`, hint: `codeslice reads ${languages}. Start the server with --root pointing at a project in one of them.` };
}
