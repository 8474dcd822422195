/**
 * Commands whose answer spans repositories (`routes`, `impact`) take `--root` more than once: the
 * folders are opened as a group of engines, one index and cache each (`--root api=../backend`
 * names one; otherwise the folder's name does), and citations read `repo:path:line`.
 */
import { crossCallersText, type EngineGroup } from "../index.ts";
import { createHostPlatform } from "./platform.ts";

/**
 * `text` with its citations naming `repo`. The MCP module that does it is imported when a group
 * answers: with it come the MCP tool specs and zod (~70 ms of CPU to load, measured), which a
 * call on one root never needs.
 */
export async function citeRepo(text: string, repo: string): Promise<string> {
  return (await import("../mcp/group.ts")).citeRepo(text, repo);
}

/** Every `--root` value in the command line as typed (`--root DIR` and `--root=DIR`). */
export function rootsOf(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") break;
    if (word === "--root" && argv[i + 1] !== undefined) out.push(argv[++i]!);
    else if (word.startsWith("--root=")) out.push(word.slice("--root=".length));
  }
  return out;
}

/** Runs `answer` on the group the command line names when it gives `--root` more than once; undefined otherwise. */
export async function withGroup(
  argv: readonly string[],
  cacheDir: string | undefined,
  answer: (group: EngineGroup) => Promise<number>,
): Promise<number | undefined> {
  const roots = rootsOf(argv);
  if (roots.length < 2) return undefined;
  const { entriesFromRoots, openGroup } = await import("../mcp/group-file.ts");
  const opened = await openGroup(
    entriesFromRoots(roots, process.cwd()),
    (o) => createHostPlatform({ ...o, shortLived: true }),
    cacheDir ? { cacheDir } : {},
  );
  try {
    return await answer(opened.group);
  } finally {
    opened.close();
  }
}

/** An answer of one member with its citations naming the repository, and the callers in the others after it. */
export async function groupImpactText(
  group: EngineGroup,
  repo: string,
  text: string,
  routes: readonly { method: string; path: string }[],
): Promise<{ text: string; crossRepoCallers: string[] }> {
  const cross = routes.length ? await group.crossCallers(repo, routes) : [];
  const suffix = crossCallersText(cross);
  return {
    text: `${await citeRepo(text, repo)}${suffix ? `\n\n${suffix}` : ""}`,
    crossRepoCallers: cross.map((x) => `${x.call.repo}:${x.call.path}:${x.call.line}`),
  };
}
