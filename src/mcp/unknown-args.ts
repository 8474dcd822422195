/**
 * Arguments a tool does not take, answered with the next step. The SDK's own check said only
 * `Unrecognized key: "page"`: a model that pages by number got no hint that pages here go by the
 * cursor the last answer named. So the server lets unknown keys through the SDK (server.ts) and
 * refuses them here, before any work, naming the argument, the one meant and the ones taken.
 */
import { EngineError } from "../index.ts";
import { suggest } from "../shared/suggest.ts";
import type { ToolSpec } from "./tool.ts";

/**
 * Words other tools use, with the arguments here they may mean (the first one the tool takes
 * wins): `page` is the cursor of a paged tool and the budget's neighbour nowhere.
 */
const MEANT: Record<string, readonly string[]> = {
  page: ["cursor"],
  page_number: ["cursor"],
  offset: ["cursor"],
  skip: ["cursor"],
  next: ["cursor"],
  after: ["cursor"],
  page_token: ["cursor"],
  next_cursor: ["cursor"],
  max: ["limit"],
  max_results: ["limit"],
  top: ["limit"],
  count: ["limit"],
  page_size: ["limit"],
  tokens: ["budget"],
  max_tokens: ["budget"],
  token_budget: ["budget"],
  name: ["symbol", "target"],
  symbol_name: ["symbol"],
  function: ["symbol", "target"],
  file: ["path", "target", "symbol"],
  filepath: ["path", "target"],
  file_path: ["path", "target"],
  q: ["query", "target"],
  text: ["query", "task"],
  hops: ["depth"],
  max_depth: ["depth"],
};

/** What the meant argument takes, when a page number or a count would not do: sentences after "Did you mean". */
const MEANT_NOTE: Record<string, string> = {
  cursor:
    "Pages are not numbered: pass cursor, the value the last answer named for the next page (page.next; its " +
    'text says "Next page: ask again with cursor=…"), and limit for the entries per page.',
  budget: "It counts the tokens of the whole answer.",
};

/** The argument names `tool` takes, in its schema's order. */
function argumentsOf(tool: ToolSpec): string[] {
  return Object.keys(tool.input.shape);
}

/** The `invalid_argument` error for the first argument in `given` that `tool` does not take; undefined when none. */
export function unknownArgument(tool: ToolSpec, given: Record<string, unknown>): EngineError | undefined {
  const known = argumentsOf(tool);
  const unknown = Object.keys(given).filter((k) => !known.includes(k));
  if (!unknown.length) return undefined;
  const key = unknown[0]!;
  const normal = key.toLowerCase().replace(/-/g, "_");
  const meant = MEANT[normal]?.find((m) => known.includes(m)) ?? suggest(key, known)[0];
  const note = meant && MEANT_NOTE[meant] && MEANT[normal] ? ` ${MEANT_NOTE[meant]}` : "";
  const others = unknown.length > 1 ? ` (nor ${unknown.slice(1).join(", ")})` : "";
  return new EngineError("invalid_argument", `${tool.name} takes no argument ${key}${others}.`, {
    hint:
      `${meant ? `Did you mean ${meant}?${note} ` : ""}Call ${tool.name} again with only its arguments: ` +
      `${known.join(", ")}.`,
    data: { key, unknown, known },
  });
}
