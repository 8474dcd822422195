/**
 * `codeslice shape-check`: the fields of a response model (or a route's response) each consumer reads, and what a
 * rename or removal breaks.
 */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { budgetFlags, engineFlags, textFlag } from "../flags.ts";
import { citeRepo, withGroup } from "../group.ts";
import { EXIT, writeJson, writeOut } from "../output.ts";
import { budgetOptions, printAnswer, withEngine } from "../with-engine.ts";

/** `a=b,c=d` or `a,b` as a list, blanks dropped. */
const list = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

/** `codeslice shape-check`. */
export const shapeCheckCommand = defineCommand({
  name: "shape-check",
  summary:
    "The fields of a response model or route that each consumer reads, and the reads a --rename or --remove breaks",
  args: [
    {
      name: "target",
      what: "a model or route",
      maxChars: { limit: LIMITS.targetChars, noun: "argument" },
      help: "A response model (pydantic model, dataclass, TypeScript interface or class) or METHOD /path",
    },
  ],
  flags: {
    rename: textFlag("rename", "OLD=NEW[,…]", "Fields renamed: list the reads that still use the old name"),
    remove: textFlag("remove", "FIELD[,…]", "Fields removed: list the reads of them"),
    repo: textFlag("repo", "NAME", "With --root more than once: the repository the model is in (default: the first)"),
    ...budgetFlags(LIMITS.budget.list),
    ...engineFlags,
  },
  help: `Lists the fields of <target> (a model with its bases' fields and the models its fields
name, or the response model of a route: response_model=, the handler's return type) and,
for every consumer, the fields it reads with path:line and the expression as written
(page.data, item.title, content["title"], { title }). Consumers are the client calls the
route map finds for the routes returning the model (fetch, axios, httpx, requests, test
clients), followed through the calling function (res.json(), axios's .data, assignments,
destructuring, .map((item) => …), for loops) and into the functions its return value is
handed to; and parameters typed by the model's name (item: ItemPublic), in any language,
or by a props interface whose field is the model ({ item }: EditItemProps).
With --rename old=new or --remove field, the reads that break come first.
With --root more than once (a group of repositories, one index each), the model is in --repo
(default: the first), and the other folders' calls of the routes returning it (a frontend's
fetch, axios or generated client) and their parameters typed by the model's name are read
there too, cited repo:path:line.

--json: { "models": [ { "qualified", "fields": [ … ] } ], "routes": [ … ],
  "reads": [ { "path", "line", "model", "field", "expression", "consumer" } ], "breaks": [ … ], … }`,
  examples: [
    "codeslice shape-check ItemPublic --rename title=name",
    'codeslice shape-check "GET /api/v1/items/" --remove count',
    "codeslice shape-check app.models.User --json",
  ],
  async run({ args: [target], flags, argv }) {
    const options = { rename: list(flags.rename), remove: list(flags.remove), ...budgetOptions(flags) };
    const grouped = await withGroup(argv, flags.cacheDir, async (group) => {
      const member = group.member(flags.repo);
      const answer = await group.shapeCheck(member.name, target!, options);
      const text = await citeRepo(answer.text, member.name);
      if (flags.json) writeJson({ ...answer, repo: member.name, text });
      else writeOut(text);
      return EXIT.ok;
    });
    if (grouped !== undefined) return grouped;
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.shapeCheck(target!, { onProgress: progress.onProgress, ...options });
      return printAnswer(progress, answer, flags.json);
    });
  },
});
