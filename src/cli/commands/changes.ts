/** `codeslice changes`: what changed and what it reaches, as one budgeted bundle. */
import { readFileSync } from "node:fs";
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { looksLikeFolder } from "../dispatch.ts";
import { budgetFlags, engineFlags, switchFlag, textFlag } from "../flags.ts";
import { EXIT, UsageError, writeJson, writeOut } from "../output.ts";
import { groupImpactText, withGroup } from "../group.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";
import { quoted } from "../../shared/quote.ts";

/** The text of `--diff FILE`, or of stdin for `--diff -`. */
function readDiff(file: string): string {
  try {
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read the diff ${file === "-" ? "from stdin" : quoted(file)}: ` +
        `${(error as Error).message.split("\n")[0]}`,
    );
  }
}

/** `codeslice changes`. */
export const changesCommand = defineCommand({
  name: "changes",
  summary:
    "What changed and what it reaches, as one budgeted bundle: the working tree against HEAD, --staged, --base " +
    "REF [--head REF], or a pasted --diff; with METHOD /path, only what that route runs",
  args: [
    {
      name: "route",
      what: "a route",
      optional: true,
      maxChars: { limit: 300, noun: "route" },
      help: "METHOD /path (quoted): only the changes to the route's handler and what it reaches",
    },
  ],
  argsNote: ' (quote a route: "PUT /items/{id}")',
  flags: {
    staged: switchFlag("staged", "Compare the index (staged changes) against HEAD"),
    base: textFlag("base", "REF", "Compare against REF: the working tree, or --head"),
    head: textFlag("head", "REF", "Compare commit REF against --base, or against its first parent"),
    diff: textFlag(
      "diff",
      "FILE",
      'A unified diff (git diff, diff -u, a pull request\'s .diff/.patch) from FILE, or stdin for "-"',
    ),
    ...budgetFlags(LIMITS.budget.context),
    repo: textFlag("repo", "NAME", "With --root more than once: the repository that changed (default: the first)"),
    ...engineFlags,
  },
  help: `Prints what changed, by definition (added, removed, renamed, signature or body changed),
and what it reaches, as one bundle within --budget tokens: the changed code (production
code before tests; signatures and removals first; a new definition the changed code calls
just before it; each as its changed lines, the unchanged rest outlined), callers of changed
signatures (the calls that break the new parameters first, listed with path:line) and code
still calling removed names, routes whose handlers reach the change, tests that reach it
within 3 calls (or import a changed file), then callers of changed bodies. Cut chunks are
listed.

What is compared:
  (nothing)              the working tree (untracked files included) against HEAD
  --staged               the index against HEAD
  --base REF             the working tree against REF
  --base A --head B      commit B against commit A
  --head REF             commit REF against its first parent
  --diff FILE, --diff -  a unified diff matched against the files on disk: already applied,
                         or still to apply (then the changed code is cited as it would be)
REF: a commit id (or a prefix), a branch, a tag, HEAD, or any of those followed by ~N or ^N.

With a route ("PUT /items/{id}", as repo_map kind routes and impact name routes), only the
changes to what the route runs are kept: its handler, every definition its calls reach (a
class it constructs with its initializer) and the models its handler's signature names. A
note says how many other changed definitions, and files' module-level lines, were left out.

With --root given more than once (--root api=../backend --root web=../frontend), the change is
in --repo (default: the first), citations read repo:path:line, and the routes it reaches lead on to
the calls in the other folders that send requests to them.`,
  examples: [
    "codeslice changes --root api=backend --root web=frontend --repo api",
    "codeslice changes",
    "codeslice changes --base main --budget 4000",
    'codeslice changes "PUT /api/v1/items/{id}" --base main',
    "git diff HEAD~3 | codeslice changes --diff -",
  ],
  async run({ args: [route], flags, argv }) {
    // A route is "METHOD /path": one word that names a folder is the project, given where other commands take it.
    if (route !== undefined && !/\s/.test(route.trim()) && looksLikeFolder(route))
      throw new UsageError(
        `changes takes a route as its argument ("PUT /items/{id}"); the project folder goes in --root: ` +
          `codeslice changes --root ${route}`,
      );
    const diff = flags.diff !== undefined ? readDiff(flags.diff) : undefined;
    const options = {
      ...(route !== undefined ? { target: route } : {}),
      ...(flags.staged ? { staged: true } : {}),
      ...(flags.base !== undefined ? { base: flags.base } : {}),
      ...(flags.head !== undefined ? { head: flags.head } : {}),
      ...(diff !== undefined ? { diff } : {}),
      ...budgetOptions(flags),
    };
    // --root more than once: the change is in --repo, and the routes it reaches lead to the other repositories' calls.
    const grouped = await withGroup(argv, flags.cacheDir, async (group) => {
      const member = group.member(flags.repo);
      const answer = await member.engine.changes(options);
      const cross = await groupImpactText(group, member.name, answer.text, answer.impact.routes);
      if (flags.json)
        writeJson({ ...answer, repo: member.name, text: cross.text, crossRepoCallers: cross.crossRepoCallers });
      else writeOut(cross.text);
      return EXIT.ok;
    });
    if (grouped !== undefined) return grouped;
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.changes({ onProgress: progress.onProgress, ...options });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
