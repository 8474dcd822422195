/** Opens the engine a command runs on, with the progress bar it reports to. */
import * as nodePath from "node:path";
import { createEngine, type Encoding, type Engine, type TestsMode } from "../index.ts";
import type { FlagValues } from "./command.ts";
import type { budgetFlags, outputFlags, pagingFlags, projectFlags } from "./flags.ts";
import { createProgressReporter } from "./output.ts";
import { createHostPlatform } from "./platform.ts";

/** The flags every engine command owns, parsed. */
export type ProjectValues = FlagValues<typeof projectFlags & typeof outputFlags>;

/** The engine's progress callback and the bar behind it. */
export interface Progress {
  onProgress(p: { phase: string; done: number; total?: number }): void;
  /** Clears the bar; call it before writing the answer. */
  done(): void;
}

async function makeEngine(flags: ProjectValues): Promise<Engine> {
  const platform = await createHostPlatform({ root: flags.root ?? process.cwd(), shortLived: true, ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}) });
  // A cache folder inside the root must not be indexed itself.
  const rel = nodePath.relative(platform.fs.rootLabel, platform.store.label);
  const exclude = rel && !rel.startsWith("..") && !nodePath.isAbsolute(rel) ? [rel.split(nodePath.sep).join("/")] : [];
  return createEngine(platform, {
    exclude, ...(flags.maxFileBytes !== undefined ? { maxFileBytes: flags.maxFileBytes } : {}), ...(flags.jobs !== undefined ? { jobs: flags.jobs } : {}),
  });
}

/**
 * Opens the engine on `--root` (with `--cache-dir`, `--max-file-bytes`, `--jobs`), runs `answer`
 * with a progress bar on stderr (unless `--quiet`), and clears the bar however it ends.
 */
export async function withEngine(flags: ProjectValues, answer: (engine: Engine, progress: Progress) => Promise<number>): Promise<number> {
  const engine = await makeEngine(flags);
  const bar = createProgressReporter(flags.quiet !== true);
  const progress: Progress = { onProgress: (p) => bar.update(p.phase, p.done, p.total), done: () => bar.done() };
  try {
    return await answer(engine, progress);
  } finally {
    bar.done();
  }
}

/** `--budget` and `--encoding`, when given, as engine options. */
export function budgetOptions(flags: FlagValues<ReturnType<typeof budgetFlags>>): { budget?: number; encoding?: Encoding } {
  return { ...(flags.budget !== undefined ? { budget: flags.budget } : {}), ...(flags.encoding ? { encoding: flags.encoding } : {}) };
}

/** `--limit`, `--cursor` and `--tests`, when given, as engine options. */
export function pageOptions(flags: FlagValues<typeof pagingFlags>): { limit?: number; cursor?: string; tests?: TestsMode } {
  return {
    ...(flags.limit !== undefined ? { limit: flags.limit } : {}), ...(flags.cursor !== undefined ? { cursor: flags.cursor } : {}), ...(flags.tests ? { tests: flags.tests } : {}),
  };
}
