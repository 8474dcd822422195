/**
 * Failures as tool results (`isError: true`) whose text tells the model what to do next, in the
 * server's own terms (tools, parameters, the server's options): the engine's hints are neutral,
 * so the advice is worded here from each error's code and typed data — did-you-mean for unknown
 * names, candidates with path:line for ambiguous ones, the budget needed when it was too small,
 * the root's path when it is missing, the supported languages when nothing could be indexed.
 * Error results carry text only: a client validates any structured content against the tool's
 * output schema, which describes answers, not errors.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  cite,
  isEngineError,
  supportedLanguageNames,
  type EngineError,
  type EngineErrorOf,
  type ErrorSymbol,
} from "../index.ts";
import type { McpLogger } from "./tool.ts";
import { quoted } from "../shared/quote.ts";

function candidateLine(c: ErrorSymbol): string {
  return `- ${c.qualified} (${c.kind}, ${cite(c.path, c.line)})`;
}

/** The tools that take a symbol, a path or words, for advice that names the right one. */
const PATH_TOOLS = new Set(["importers", "read_snippet"]);

/** The text of an engine error for a model calling `tool`: the message, then what to call next. */
export function engineErrorText(error: EngineError, tool: string): string {
  const e = error as EngineErrorOf;
  const lines: string[] = [e.message];
  switch (e.code) {
    case "unknown_symbol": {
      const suggestions = e.data.suggestions ?? [];
      if (suggestions.length)
        lines.push("Did you mean:", ...suggestions.map(candidateLine), `Call ${tool} again with one of these names.`);
      else if (e.data.known !== undefined) lines.push(e.hint ?? "", "Call repo_map to see the project's routes.");
      else
        lines.push(
          "Call search with a few words from its name or docstring to find it, then use the qualified name it returns.",
        );
      break;
    }
    case "ambiguous_symbol": {
      const { candidates, total, target } = e.data;
      if (candidates.length) {
        lines[0] =
          `${quoted(target)} matches ${total} ` +
          `${candidates.every((c) => c.kind === "file") ? "files" : "symbols"}:`;
        lines.push(...candidates.map(candidateLine));
        if (total > candidates.length) lines.push(`+${total - candidates.length} more`);
      }
      lines.push(
        new Set(candidates.map((c) => c.qualified)).size < candidates.length
          ? `Call ${tool} again with one of these as path:line (overloads share a qualified name).`
          : `Call ${tool} again with one of these qualified names, or with path::name.`,
      );
      break;
    }
    case "budget_too_small": {
      const { needed, seedOutlineTokens } = e.data;
      lines.push(
        `Call ${tool} again with budget ≥ ${needed}.` +
          (seedOutlineTokens !== undefined && tool !== "signature"
            ? " For the target's header and docstring alone, call signature."
            : ""),
      );
      break;
    }
    case "not_found": {
      if (e.data.skipped) {
        lines.push("Name a source file or a symbol (search finds one); only source files have symbols and calls.");
        break;
      }
      const suggestions = e.data.suggestions ?? [];
      if (suggestions.length) lines.push(`Did you mean: ${suggestions.join(", ")}?`);
      lines.push(`Pass a path relative to the project root, as repo_map and the context headers show it.`);
      break;
    }
    case "outside_root":
      lines.push(
        tool === "grep"
          ? "grep searches only files inside the project root: pass paths as globs relative to it (src/**/*.py, " +
              "*.md, docs/)."
          : `${PATH_TOOLS.has(tool) ? tool : "This tool"} reads only files inside the project root; pass a path ` +
              `relative to it (or absolute inside it).`,
      );
      break;
    case "unknown_repo":
      lines.push(
        `Call ${tool} again with repo set to one of: ${e.data.repos.join(", ")} (the repos tool lists them with ` +
          `their freshness).`,
      );
      break;
    case "invalid_pattern":
      lines.push(e.hint ?? "", `Call ${tool} again with the pattern fixed at column ${e.data.column ?? 1}.`);
      break;
    case "invalid_argument": {
      const { totalLines } = e.data;
      if (totalLines !== undefined && tool === "read_snippet")
        lines.push(`Call read_snippet with start_line from 1 to ${totalLines}.`);
      else if (e.hint) lines.push(e.hint);
      break;
    }
    default:
      lines.push(...recoverySteps(e, tool));
  }
  return lines.filter((l) => l !== "").join("\n");
}

/** What to do next after an error about the project, the index, a query or a rename plan. */
function recoverySteps(e: EngineErrorOf, tool: string): string[] {
  const lines: string[] = [];
  switch (e.code) {
    case "root_not_found":
    case "root_not_directory":
      lines.push(
        "The project folder may have been moved or deleted. Restore it, or restart the codeslice MCP server " +
          "with --root pointing at the project.",
      );
      break;
    case "no_supported_files": {
      const languages = e.data.languages ?? supportedLanguageNames();
      lines.push(
        e.hint ?? `Supported languages: ${languages.join(", ")}.`,
        "Restart the codeslice MCP server with --root pointing at a project in one of them.",
      );
      break;
    }
    case "memory_limit": {
      const suggested = Math.max(512, 2 ** Math.ceil(Math.log2(e.data.suggestedMiB)));
      lines.push(
        `Restart the codeslice MCP server with more heap: set NODE_OPTIONS=--max-old-space-size=${suggested} in ` +
          `its environment (or pass it to node/deno). Other tools and smaller requests may still answer.`,
      );
      break;
    }
    case "no_index":
      lines.push(
        `${e.data.store ? `Delete the cache folder ${e.data.store}` : "Delete the server's cache folder"}; the ` +
          `next call rebuilds it. Other tools may still answer.`,
      );
      break;
    case "cache_refused":
      lines.push(
        "Restart the codeslice MCP server with --cache-dir pointing at a new or empty folder (or without it, " +
          "for <root>/.codeslice).",
      );
      break;
    case "not_a_repository":
    case "shallow_history":
      lines.push(e.hint ?? "", "Call changes with diff set to the unified diff (the output of git diff) instead.");
      break;
    case "invalid_query":
      lines.push(
        "```",
        e.data.excerpt,
        "```",
        e.hint ?? "",
        "Read codeslice://schema for the grammar, labels and relationship types.",
      );
      break;
    case "query_over_budget":
      if (e.data.limit === "tokens" && e.data.fits)
        lines.push(
          `Call ${tool} again with LIMIT ${e.data.fits} in the query (SKIP to page), fewer RETURN columns, or ` +
            `budget ≥ ${e.data.needed}.`,
        );
      else if (e.data.limit === "tokens") lines.push(`Call ${tool} again with budget ≥ ${e.data.needed}.`);
      else lines.push(e.hint ?? "");
      break;
    case "empty_repository":
      lines.push(
        "Make a first commit, or call changes with staged: true (every staged file counts as added), or with " +
          "diff set to a unified diff.",
      );
      break;
    case "plan_unknown":
    case "plan_stale":
      lines.push(
        "Nothing was written. Call rename again without apply for a fresh preview, then with apply set to the " +
          "plan_token it gives.",
      );
      break;
    case "apply_failed":
      lines.push(e.hint ?? "", "Then call rename again without apply for a fresh preview and apply its plan_token.");
      break;
    case "rename_refused":
      lines.push(
        e.data.reason === "collision" ||
          e.data.reason === "keyword" ||
          e.data.reason === "invalid_identifier" ||
          e.data.reason === "same_name"
          ? "Call rename again with another new_name."
          : (e.hint ?? ""),
      );
      break;
    default:
      if (e.hint) lines.push(e.hint);
  }
  return lines;
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
  return errorResult(
    `codeslice could not answer ${tool}: internal error (${first}). Details are in the server's log on stderr; ` +
      `other tools still work.`,
  );
}

/** The message for a project where nothing could be indexed. */
export function noSourceText(root: string, files: number): { message: string; hint: string } {
  const languages = supportedLanguageNames().join(", ");
  return files === 0
    ? {
        message: `The project root ${root} is empty: no files to index (or all of them are ignored).`,
        hint: `Supported languages: ${languages}.`,
      }
    : {
        message: `No supported source files under ${root} (${files} files scanned).`,
        hint: `codeslice reads ${languages}.`,
      };
}
