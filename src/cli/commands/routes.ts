/** `codeslice routes`: every HTTP route with its handler, the client calls that reach it, and its tests. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, choiceFlag, engineFlags, rootArg, textFlag } from "../flags.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";
import { withGroup } from "../group.ts";
import { writeJson, writeOut, EXIT } from "../output.ts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

/** `codeslice routes`. */
export const routesCommand = defineCommand({
  name: "routes",
  summary: "Every HTTP route with its handler, the client calls in the project that reach it, and its tests",
  args: [rootArg],
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

With --root given more than once (--root api=../backend --root web=../frontend; a folder is named
after itself unless NAME= says otherwise), the folders are a group: every route of each, with the
calls from every folder that reach it ("called from other repositories"), cited repo:path:line,
and the packages one folder imports from another.

--json: { "routes": [ { "method", "path", "file", "line", "handler",
  "clients": [ { "path", "line", "caller", "method", "url" } ], "tests": [ … ] } ], "total", … }`,
  examples: [
    "codeslice routes",
    "codeslice routes --prefix /api/v1/items --method PUT",
    "codeslice routes --json",
    "codeslice routes --root api=backend --root web=frontend",
  ],
  async run({ flags, argv }) {
    const grouped = await withGroup(argv, flags.cacheDir, async (group) => {
      const answer = await group.routeMap({
        ...(flags.prefix ? { prefix: flags.prefix } : {}),
        ...(flags.method ? { method: flags.method } : {}),
        ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
      });
      if (flags.json) writeJson(answer);
      else writeOut(answer.text);
      return EXIT.ok;
    });
    if (grouped !== undefined) return grouped;
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.routeMap({
        onProgress: progress.onProgress,
        ...(flags.prefix ? { prefix: flags.prefix } : {}),
        ...(flags.method ? { method: flags.method } : {}),
        ...budgetOptions(flags),
      });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
