/** `repos` (served for a group only): the repositories, each with its folder and the freshness of its index. */
import { z } from "zod";
import type { EngineGroup } from "../../index.ts";
import { defineTool } from "../tool.ts";

/**
 * Each repository of the group with its folder, files and the freshness of its index (brought up to date first), and
 * the text listing them.
 */
export async function listRepos(group: EngineGroup | undefined, signal?: AbortSignal) {
  const repos = await Promise.all(
    (group?.members ?? []).map(async (m) => {
      const r = await m.engine.refresh(signal ? { signal } : {});
      return {
        name: m.name,
        root: m.root,
        sourceFiles: r.sourceFiles,
        files: r.files,
        indexedAt: new Date(r.at).toISOString().replace(/\.\d+Z$/, "Z"),
      };
    }),
  );
  const lines = [
    `# ${repos.length} repositories (pass one as repo; citations read repo:path:line)`,
    ...repos.map((r) => `- ${r.name}: ${r.root} — ${r.sourceFiles} source files of ${r.files}, indexed ${r.indexedAt}`),
  ];
  return { text: lines.join("\n"), repos };
}

export const reposTool = defineTool({
  name: "repos",
  title: "Repositories served",
  description:
    "The repositories this server serves (names for the repo argument), each with its folder, files and when " +
    "its index was refreshed.",
  input: z.strictObject({}),
  output: z.object({
    repos: z.array(
      z.object({ name: z.string(), root: z.string(), sourceFiles: z.int(), files: z.int(), indexedAt: z.string() }),
    ),
  }),
  async run(_args, ctx) {
    const { text, repos } = await listRepos(ctx.group, ctx.signal);
    return { text, data: { repos } };
  },
});
