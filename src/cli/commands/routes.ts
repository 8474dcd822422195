/** `codeslice routes`: every HTTP route with its handler, the client calls that reach it, and its tests. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, choiceFlag, engineFlags, textFlag } from "../flags.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

/** `codeslice routes`. */
export const routesCommand = defineCommand({
  name: "routes",
  summary: "Every HTTP route with its handler, the client calls in the project that reach it, and its tests",
  args: [],
  flags: {
    prefix: textFlag("prefix", "PATH", "Only routes whose path starts with PATH (/api/v1/items)"),
    method: choiceFlag("method", "M", METHODS, `Only routes of this method: ${METHODS.join(", ")}`),
    ...budgetFlags(LIMITS.budget.list),
    ...engineFlags,
  },
  help: `Lists the project's HTTP routes (full paths after prefixes and mounts) with the handler of
each, the client calls in the project that reach it (fetch, axios, httpx, requests, test clients such
as client.get(f"/items/{id}"), supertest, app.request), and the calls from tests. URL templates match
by segment; a leading placeholder (a base URL or a settings prefix) matches any prefix. Routes past
what --budget holds are counted, not listed.

--json: { "routes": [ { "method", "path", "file", "line", "handler", "clients": [ { "path", "line", "caller", "method", "url" } ], "tests": [ … ] } ], "total", … }`,
  examples: ["codeslice routes", "codeslice routes --prefix /api/v1/items --method PUT", "codeslice routes --json"],
  async run({ flags }) {
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.routeMap({
        onProgress: progress.onProgress, ...(flags.prefix ? { prefix: flags.prefix } : {}), ...(flags.method ? { method: flags.method } : {}), ...budgetOptions(flags),
      });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
