/**
 * Prompts for the flows agents repeat (explain a symbol, review a diff, plan a change, see what a
 * working-tree change reaches, map the architecture): each is one user message that names the
 * tools to call, in order, and how to cite. They hold no code themselves; the tools fetch it
 * fresh when the model follows them. generate_map carries the Mermaid diagrams the server built
 * from the code graph, since a model cannot draw them from the tools' answers within a budget.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { LIMITS, type MermaidMap } from "../index.ts";
import { fenceFor } from "./render.ts";
import { MAX_SYMBOL_CHARS } from "./schemas.ts";

const CITE =
  "Cite code by the `## path:start-end` headers the tools return; do not quote code you did not get from them.";

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
  return {
    text,
    cut:
      `(The diff was cut after ${lines(text)} of its ${lines(diff.replace(/\n$/, ""))} lines to fit the ` +
      `server's response cap; call changes with the whole diff to review the rest.)`,
  };
}

/** What generate_map needs from the server: the map, after the index is brought up to date. */
export type MapSource = (budget: number) => Promise<MermaidMap>;

/** generate_map's default budget for the diagrams, in tokens. */
export const MAP_BUDGET = { default: 2000, min: 200, max: 8000 };

/**
 * Registers the prompts. `maxChars` bounds the quoted diff: about three characters a token for a
 * diff, so the reply stays under the server's response cap (60,000 for the default 20,000).
 * `map` builds generate_map's diagrams (absent: the prompt is not offered).
 */
export function registerPrompts(server: McpServer, maxChars = 60_000, map?: MapSource): void {
  server.registerPrompt(
    "explain_symbol",
    {
      title: "Explain a symbol",
      description: "How a function, class or route works, who uses it and how it is tested, from the codeslice tools.",
      argsSchema: {
        symbol: z
          .string()
          .max(MAX_SYMBOL_CHARS)
          .describe('A symbol (Class.method, pkg.mod.func, path::name) or a route "METHOD /path".'),
      },
    },
    ({ symbol }) =>
      user(
        [
          `Explain ${JSON.stringify(symbol)} in this repository.`,
          `1. Call context with target ${JSON.stringify(symbol)}: it returns the code with the types it uses, ` +
            (`its callees, callers and tests. If the name is unknown or ambiguous, pick from the names the error ` +
              `lists (or call search) and call context again.`),
          "2. If a cut chunk matters to the explanation, ask for it by its handle (context with that handle, or " +
            "read_snippet on its lines).",
          `3. Call callers with symbol ${JSON.stringify(symbol)} for who depends on it (say if the answer ` +
            "reports calls it could not resolve), and tests with target " +
            `${JSON.stringify(symbol)} for how it is tested.`,
          "Then explain: what it does and why, its inputs, outputs and side effects, the main path through it, " +
            "who calls it, and the tests that cover it (with their commands).",
          CITE,
        ].join("\n"),
      ),
  );

  server.registerPrompt(
    "review_diff",
    {
      title: "Review a diff",
      description: "Review a change against the code it touches: callers that may break, tests to run, risks.",
      argsSchema: {
        diff: z.string().describe("The unified diff (git diff output), or the changed files and symbols."),
      },
    },
    ({ diff }) => {
      const quoted = quotedDiff(diff, maxChars);
      // A fence longer than any in the diff: a ``` inside it would otherwise end the quote, and the rest of the diff
      // would read as prompt.
      const tick = fenceFor(quoted.text);
      return user(
        [
          "Review this change to the repository.",
          "",
          `${tick}diff`,
          quoted.text,
          tick,
          ...(quoted.cut ? [quoted.cut] : []),
          "",
          "For each function, method or class the diff changes (take the names from the hunk headers and the " +
            "changed lines):",
          "1. Call context with it as the target to see the current code with its types, callees and callers.",
          "2. Call callers with it to find call sites that the change may break (changed parameters, return " +
            "values, raised errors, side effects); for a changed module, call importers with its path.",
          "3. Call tests with it for the tests that exercise it and the commands that run them.",
          "Then report: bugs and risks, ordered by severity, each with the line it concerns; call sites that " +
            ("need updating; the tests to run (their commands) and tests that are missing. Say what the tools " +
              "could not see (unresolved calls, dynamic dispatch) instead of assuming nothing is there."),
          CITE,
        ].join("\n"),
      );
    },
  );

  server.registerPrompt(
    "plan_change",
    {
      title: "Plan a change",
      description:
        "A step-by-step plan for a change described in words: where to edit, what it affects, which tests to run.",
      argsSchema: {
        task: z.string().max(LIMITS.targetChars).describe('The change in words, e.g. "add retry to the HTTP client".'),
      },
    },
    ({ task }) =>
      user(
        [
          `Plan this change, before editing anything: ${task}`,
          "1. Call repo_map, unless you have it from this session, for the project's shape and names.",
          `2. Call pack with task ${JSON.stringify(task)} (the key words and identifiers): it picks the seed ` +
            (`symbols and returns their code with types, callees, callers and tests. If the seeds are wrong, ` +
              `call search with other words, then context with the right symbol.`),
          "3. For each symbol you would change, call callers (and importers for a module) to see what the " +
            "change reaches, and tests for the tests to run afterwards.",
          "Then write the plan: the files and symbols to change, in order, each with what changes and why; the " +
            ("call sites and importers that must follow; the tests to run (their commands) and the tests to add; " +
              "the risks."),
          CITE,
        ].join("\n"),
      ),
  );

  server.registerPrompt(
    "detect_impact",
    {
      title: "Detect the impact of my change",
      description:
        "What the working-tree change (or the change since a base commit) reaches: changed symbols, their " +
        "callers and routes, the risk, and the tests to run.",
      argsSchema: {
        base: z
          .string()
          .max(200)
          .optional()
          .describe("Compare against this commit or branch instead of HEAD (e.g. main)."),
      },
    },
    ({ base }) =>
      user(
        [
          base
            ? `Find what my change since ${JSON.stringify(base)} reaches, before I commit it.`
            : "Find what my uncommitted change (the working tree and the staged files against HEAD) reaches, " +
              "before I commit it.",
          base
            ? `1. Call changes with base ${JSON.stringify(base)}: the changed definitions with their callers, ` +
              `routes and tests.`
            : "1. Call changes with no arguments: the changed definitions in the working tree with their " +
              "callers, routes and tests (staged: true for the staged files only).",
          "2. For each changed function, method or class whose signature, return value, raised errors or side " +
            ("effects changed, call impact with it as the target: callers by depth, the routes and entry points " +
              ("they serve, the tests, and a risk level. For a changed route handler, also call dataflow with " +
                "the route to see whether user input now reaches a SQL, process, file or HTML call.")),
          "3. Call tests with each changed symbol for the tests that cover it and the commands that run them; " +
            "if the server offers run_tests, run them and read the failures it reports.",
          "Then report: (a) what the change reaches, grouped by changed symbol, with the call sites and routes " +
            ("that may break; (b) the risk (low, medium, high) and why, from the depth and count of callers, " +
              ("public routes and untested code; (c) the tests to run, as commands, and the changed code no test " +
                ("covers. Say what the tools could not see (unresolved or ambiguous calls, dynamic dispatch) " +
                  "instead of assuming nothing is there."))),
          CITE,
        ].join("\n"),
      ),
  );

  if (!map) return;
  server.registerPrompt(
    "generate_map",
    {
      title: "Generate an architecture map",
      description:
        "An architecture overview of the repository with Mermaid diagrams built from the code graph (imports " +
        "between top folders, clusters, execution flows), within a token budget.",
      argsSchema: {
        budget: z
          .string()
          .regex(/^\d+$/, { error: "budget must be a whole number of tokens" })
          .optional()
          .describe(`Tokens for the diagrams (default ${MAP_BUDGET.default}, ${MAP_BUDGET.min}–${MAP_BUDGET.max}).`),
      },
    },
    async ({ budget }) => {
      const n =
        budget === undefined ? MAP_BUDGET.default : Math.min(MAP_BUDGET.max, Math.max(MAP_BUDGET.min, Number(budget)));
      const m = await map(n);
      const cut =
        m.shown.folderEdges < m.total.folderEdges ||
        m.shown.clusters < m.total.clusters ||
        m.shown.flows < m.total.flows;
      return user(
        [
          "Write an architecture overview of this repository for a new contributor, around these diagrams. " +
            ("codeslice built them from its code graph; keep them as they are (they are facts from the graph), " +
              "and add to them only what the tools confirm."),
          "",
          m.text,
          "",
          `(${m.tokens} tokens; ${m.shown.folderEdges} of ${m.total.folderEdges} folder-to-folder import edges, ` +
            (`${m.shown.clusters} of ${m.total.clusters} clusters, ${m.shown.flows} of ${m.total.flows} ` +
              `flows${cut ? ": the smallest were left out to fit the budget" : ""}.)`),
          "",
          "1. Call repo_map for the services, entry points, central symbols and layout, with the names the " +
            "other tools take.",
          "2. Call query with kind clusters and kind flows for each cluster's files and central symbols and " +
            ("each flow's steps; call context on a cluster's central symbol when what it does is not clear from " +
              "its name."),
          "Then write: one paragraph on what the system does; a section per cluster (what it is for, its " +
            ("central symbols, who calls it) under the cluster diagram; how a request or command moves through " +
              ("the system, under the flows diagram; and the layering the import diagram shows (which folders " +
                "depend on which, and any edge that goes against it).")),
          CITE,
        ].join("\n"),
      );
    },
  );
}
