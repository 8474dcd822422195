/** `codeslice impact`: what a change to a symbol, file or line range could break. */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, choiceFlag, depthFlag, engineFlags, pagingFlags } from "../flags.ts";
import { budgetOptions, pageOptions, printAnswer, withEngine } from "../with-engine.ts";
import { groupImpactText, withGroup } from "../group.ts";
import { EXIT, writeJson, writeOut } from "../output.ts";
import { textFlag } from "../flags.ts";

const DIRECTIONS = ["up", "down", "both"] as const;

/** `codeslice impact`. */
export const impactCommand = defineCommand({
  name: "impact",
  summary: "The blast radius of a symbol, file or path:lines: by depth, routes and tests reached, a risk summary",
  args: [
    {
      name: "target",
      what: "a target",
      maxChars: { limit: LIMITS.targetChars, noun: "argument" },
      help:
        "A symbol, a file (everything it defines), path:start-end (the definitions those lines touch) or " +
        "METHOD /path (a route)",
    },
  ],
  flags: {
    direction: choiceFlag(
      "direction",
      DIRECTIONS.join("|"),
      DIRECTIONS,
      "up (its callers), down (what it calls) or both",
      { default: "up" },
    ),
    depth: depthFlag(3),
    ...pagingFlags,
    ...budgetFlags(LIMITS.budget.list),
    repo: textFlag("repo", "NAME", "With --root more than once: the repository the target is in (default: the first)"),
    ...engineFlags,
  },
  help: `What a change to <target> could break: its callers, what it calls or both, to --depth hops,
grouped by depth, each with the call site, how the call was resolved and a confidence (and
the product of the confidences along its path). The head of the answer is a risk summary:
production callers and their directories, routes whose handlers are reached, tests with
runnable ids, the reach (the tests and routes whose calls lead to the target at any depth,
of all of them), the deepest path. The risk is high with many callers, or when half the
tests or routes reach the target (a middleware compose every request runs), however few
its callers. Paged like callers.

A route (METHOD /path) is the route impact: its handler's blast radius plus its consumers,
the client calls in the project that reach it (fetch, axios, httpx, requests; the route
map's list), the functions holding them and their callers, and the tests that send it a
request.

With --root given more than once (--root api=../backend --root web=../frontend), the folders are
a group: the target is in --repo (default: the first), citations read repo:path:line, and the routes
the change reaches lead on to the calls in the other folders that send requests to them, with the
code there that reaches those calls.`,
  examples: [
    "codeslice impact Session.send",
    "codeslice impact src/auth.py --direction both --depth 2",
    "codeslice impact src/cart.ts:40-62 --json",
    'codeslice impact "PUT /api/v1/items/{id}"',
  ],
  async run({ args: [target], flags, argv }) {
    const options = {
      ...(flags.depth ? { depth: flags.depth } : {}),
      ...(flags.direction ? { direction: flags.direction } : {}),
      ...pageOptions(flags),
      ...budgetOptions(flags),
      ...(flags.json ? { json: true } : {}),
    };
    const grouped = await withGroup(argv, flags.cacheDir, async (group) => {
      const member = group.member(flags.repo);
      const answer = await member.engine.impact(target!, options);
      const cross = await groupImpactText(group, member.name, answer.text, answer.routes);
      if (flags.json)
        writeJson({ ...answer, repo: member.name, text: cross.text, crossRepoCallers: cross.crossRepoCallers });
      else writeOut(cross.text);
      return EXIT.ok;
    });
    if (grouped !== undefined) return grouped;
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.impact(target!, { onProgress: progress.onProgress, ...options });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
