/**
 * What the MCP server changes when it serves a group of repositories: every tool takes an
 * optional `repo` (listed only then, so a single-root server's tools/list stays as it was), and
 * every citation in an answer names its repository (`backend:app/main.py:12`).
 */
import { z } from "zod";
import { crossCallersText, type GroupRoute } from "../index.ts";

/** Call sites per route and kind in a group route map's data: the ones its text lists. */
const SITES_SHOWN = 3;
import type { ToolContext, ToolSpec } from "./tool.ts";

/** The `repo` argument every tool takes in a group. */
// No description: 19 tools × its words would cost ~150 tokens of tools/list; the repos tool and the
// instructions say what it names.
const repoArg = z.string({ error: "repo must be a string" }).max(64).optional();

/** A tool with the optional `repo` argument added to its input. */
export function withRepoArg(tool: ToolSpec): ToolSpec {
  return { ...tool, input: tool.input.extend({ repo: repoArg }) } as ToolSpec;
}

/** Tools whose answers span the group and cite `repo:path:line` themselves. */
export function citesRepos(tool: string, args: Record<string, unknown>): boolean {
  return tool === "repos" || (tool === "repo_map" && args.kind === "routes");
}

/**
 * Tools that, called in a group without `repo`, look in every repository: "where is this" has one
 * answer for the group, where the first repository alone would miss what the others hold.
 */
export function spansGroup(tool: string): boolean {
  return tool === "search" || tool === "grep";
}

/** Added to the instructions when a group is served. */
export const GROUP_INSTRUCTIONS = (names: readonly string[]) =>
  `- This server serves ${names.length} repositories: ${names.join(", ")}. Every tool takes repo (default ` +
  (`${names[0]}; search and grep without it look in all); citations read repo:path:line. repo_map kind routes ` +
    `spans them all: the routes each serves and ` +
    (`the calls from the others; impact and changes follow a route to its callers in the other repositories, and ` +
      `shape_check lists their reads of a model's fields.`));

/**
 * `path:line` and `path:start-end` citations in `text` with the repository's name before them. A
 * citation is a file path (a name with an extension, optionally under folders) followed by a line;
 * one that already names a repository (`repo:path:line`) is left alone.
 */
export function citeRepo(text: string, repo: string): string {
  return text.replace(CITATION, (whole, before: string, path: string) =>
    path.startsWith(`${repo}:`) ? whole : `${before}${repo}:${path}`,
  );
}

const CITATION = /(^|[\s(\[`"'=,·])((?:[\w@+~-][\w@.+~-]*\/)*[\w@+~-][\w@.+~-]*\.[A-Za-z][\w]{0,9})(?=:\d)/gm;

/** repo_map kind routes in a group: every member's routes with the calls from every member, cited `repo:path:line`. */
export async function groupRouteMap(
  ctx: ToolContext,
  args: { prefix?: string | undefined; method?: string | undefined },
  budget: number,
) {
  const a = await ctx.group!.routeMap({
    ...(args.prefix ? { prefix: args.prefix } : {}),
    ...(args.method ? { method: args.method } : {}),
    budget,
    signal: ctx.signal,
  });
  const at = (c: { repo: string; path: string; line: number }) => `${c.repo}:${c.path}:${c.line}`;
  // The sites the text lists (other repositories' calls first), not every one: a route called from
  // 120 places would otherwise send them all in the data while the text counts them.
  const shown = (r: GroupRoute) => [
    ...r.clients.filter((c) => c.repo !== r.repo).slice(0, SITES_SHOWN),
    ...r.clients.filter((c) => c.repo === r.repo).slice(0, SITES_SHOWN),
  ];
  const routes = a.routes.map((r) => ({
    method: r.method,
    path: r.path,
    handler: `${r.repo}:${r.file}:${r.line}`,
    clients: shown(r).map(at),
    tests: r.tests.slice(0, SITES_SHOWN).map(at),
  }));
  return { text: a.text, data: { total: a.total, routes } };
}

/**
 * The calls in the group's other repositories that reach the routes an answer names (impact's
 * routes reached, changes' routes touched), as text and data; empty outside a group.
 */
export async function crossRepoCallers(
  ctx: ToolContext,
  routes: readonly { method: string; path: string }[],
  answer: { text: string; data: unknown },
): Promise<{ suffix?: string; callers: string[] }> {
  if (!ctx.group || !ctx.repo || !routes.length) return { callers: [] };
  const cross = await ctx.group.crossCallers(ctx.repo, routes, { signal: ctx.signal });
  const at = (x: (typeof cross)[number]) => `${x.call.repo}:${x.call.path}:${x.call.line}`;
  // The section comes on top of an answer already fitted to the cap: as many callers as the room
  // left holds, in the text and the data alike (the text counts the rest).
  const room = ctx.cap - ctx.measure(answer.text, answer.data) - 8;
  for (let limit = Math.min(12, cross.length); limit > 0; limit--) {
    const text = crossCallersText(cross, limit);
    const callers = cross.slice(0, limit).map(at);
    if (ctx.count(text) + ctx.count(JSON.stringify(callers)) <= room) return { suffix: text, callers };
  }
  return { callers: [] };
}
