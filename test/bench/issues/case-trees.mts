// The issue bench's in-process loops (tune.mts, context-loop.mts): each repository cloned once into
// the work folder, one engine per repository (one job), each case's tree at its fix's parent commit.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createEngine, type Engine } from "../../../src/core/engine/engine.ts";
import { createNodePlatform } from "../../../src/platform/node/index.ts";

/** Calls `visit` for every case of every repository, in the order given, with the tree checked out and indexed. */
export async function atEachParent<C extends { parent: string }>(
  byRepo: Map<string, C[]>,
  options: { work: string; casesFile: string; repos: Record<string, { path: string }> },
  visit: (c: C, engine: Engine, tree: string, repo: string) => Promise<void>,
): Promise<void> {
  for (const [repo, list] of byRepo) {
    const tree = path.join(options.work, repo);
    if (!fs.existsSync(tree))
      execFileSync("git", [
        "clone",
        "-q",
        path.resolve(path.dirname(options.casesFile), options.repos[repo]!.path),
        tree,
      ]);
    const platform = await createNodePlatform({ root: tree, cacheDir: path.join(options.work, `${repo}.cache`) });
    const engine = createEngine(platform, { jobs: 1 } as never);
    for (const c of list) {
      execFileSync("git", ["checkout", "-q", "-f", c.parent], { cwd: tree });
      execFileSync("git", ["clean", "-q", "-fdx"], { cwd: tree });
      await engine.index();
      await visit(c, engine, tree, repo);
    }
    engine.close();
  }
}
