/**
 * Prompts for the flows agents repeat (explain a symbol, review a diff, plan a change): each is
 * one user message that names the tools to call, in order, and how to cite. They hold no code
 * themselves; the tools fetch it fresh when the model follows them.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { LIMITS } from "../index.ts";
import { fenceFor } from "./render.ts";
import { MAX_SYMBOL_CHARS } from "./schemas.ts";

const CITE = "Cite code by the `## path:start-end` headers the tools return; do not quote code you did not get from them.";

const user = (text: string): GetPromptResult => ({ messages: [{ role: "user", content: { type: "text", text } }] });

/**
 * The diff as review_diff quotes it: whole lines up to `maxChars`, and a line saying what was cut
 * (a 10 MiB diff made a reply larger than the SDK client's read buffer; the tools read the rest).
 */
export function quotedDiff(diff: string, maxChars: number): { text: string; cut?: string } {
  if (diff.length <= maxChars) return { text: diff.replace(/\n$/, "") };
  const end = diff.lastIndexOf("\n", maxChars);
  const text = diff.slice(0, end > 0 ? end : maxChars);
  const lines = (s: string) => s.split("\n").length;
  return { text, cut: `(The diff was cut after ${lines(text)} of its ${lines(diff.replace(/\n$/, ""))} lines to fit the server's response cap; call changes with the whole diff to review the rest.)` };
}

/**
 * Registers the prompts. `maxChars` bounds the quoted diff: about three characters a token for a
 * diff, so the reply stays under the server's response cap (60,000 for the default 20,000).
 */
export function registerPrompts(server: McpServer, maxChars = 60_000): void {
  server.registerPrompt(
    "explain_symbol",
    {
      title: "Explain a symbol",
      description: "How a function, class or route works, who uses it and how it is tested, from the codeslice tools.",
      argsSchema: { symbol: z.string().max(MAX_SYMBOL_CHARS).describe("A symbol (Class.method, pkg.mod.func, path::name) or a route \"METHOD /path\".") },
    },
    ({ symbol }) =>
      user([
        `Explain ${JSON.stringify(symbol)} in this repository.`,
        `1. Call context with target ${JSON.stringify(symbol)}: it returns the code with the types it uses, its callees, callers and tests. If the name is unknown or ambiguous, pick from the names the error lists (or call search) and call context again.`,
        "2. If a cut chunk matters to the explanation, ask for it by its handle (context with that handle, or read_snippet on its lines).",
        `3. Call callers with symbol ${JSON.stringify(symbol)} for who depends on it (say if the answer reports calls it could not resolve), and tests with target ${JSON.stringify(symbol)} for how it is tested.`,
        "Then explain: what it does and why, its inputs, outputs and side effects, the main path through it, who calls it, and the tests that cover it (with their commands).",
        CITE,
      ].join("\n")),
  );

  server.registerPrompt(
    "review_diff",
    {
      title: "Review a diff",
      description: "Review a change against the code it touches: callers that may break, tests to run, risks.",
      argsSchema: { diff: z.string().describe("The unified diff (git diff output), or the changed files and symbols.") },
    },
    ({ diff }) => {
      const quoted = quotedDiff(diff, maxChars);
      // A fence longer than any in the diff: a ``` inside it would otherwise end the quote, and the rest of the diff would read as prompt.
      const tick = fenceFor(quoted.text);
      return user([
        "Review this change to the repository.",
        "",
        `${tick}diff`,
        quoted.text,
        tick,
        ...(quoted.cut ? [quoted.cut] : []),
        "",
        "For each function, method or class the diff changes (take the names from the hunk headers and the changed lines):",
        "1. Call context with it as the target to see the current code with its types, callees and callers.",
        "2. Call callers with it to find call sites that the change may break (changed parameters, return values, raised errors, side effects); for a changed module, call importers with its path.",
        "3. Call tests with it for the tests that exercise it and the commands that run them.",
        "Then report: bugs and risks, ordered by severity, each with the line it concerns; call sites that need updating; the tests to run (their commands) and tests that are missing. Say what the tools could not see (unresolved calls, dynamic dispatch) instead of assuming nothing is there.",
        CITE,
      ].join("\n"));
    },
  );

  server.registerPrompt(
    "plan_change",
    {
      title: "Plan a change",
      description: "A step-by-step plan for a change described in words: where to edit, what it affects, which tests to run.",
      argsSchema: { task: z.string().max(LIMITS.targetChars).describe("The change in words, e.g. \"add retry to the HTTP client\".") },
    },
    ({ task }) =>
      user([
        `Plan this change, before editing anything: ${task}`,
        "1. Call repo_map, unless you have it from this session, for the project's shape and names.",
        `2. Call pack with task ${JSON.stringify(task)} (the key words and identifiers): it picks the seed symbols and returns their code with types, callees, callers and tests. If the seeds are wrong, call search with other words, then context with the right symbol.`,
        "3. For each symbol you would change, call callers (and importers for a module) to see what the change reaches, and tests for the tests to run afterwards.",
        "Then write the plan: the files and symbols to change, in order, each with what changes and why; the call sites and importers that must follow; the tests to run (their commands) and the tests to add; the risks.",
        CITE,
      ].join("\n")),
  );
}
