/** Opens the engine a command runs on, with the progress bar it reports to. */
import { statSync } from "node:fs";
import * as nodePath from "node:path";
import { createEngine, type Encoding, type Engine, type TestsMode } from "../index.ts";
import type { FlagValues } from "./command.ts";
import type { CliHost } from "./dispatch.ts";
import type { budgetFlags, outputFlags, pagingFlags, projectFlags } from "./flags.ts";
import { createProgressReporter, EXIT, writeJson, writeOut } from "./output.ts";
import { createHostPlatform } from "./platform.ts";

/** The flags every engine command owns, parsed. */
export type ProjectValues = FlagValues<typeof projectFlags & typeof outputFlags>;

/** The engine's progress callback and the bar behind it. */
export interface Progress {
  onProgress(p: { phase: string; done: number; total?: number }): void;
  /** Clears the bar; call it before writing the answer. */
  done(): void;
}

let buildId: string | undefined;

/**
 * Tells the engines this process makes which build of codeslice they run in (the version and the
 * entry file's build time, as the warm CLI tells builds apart): they keep what they derive from an
 * unchanged index in the cache for the next call of the same build (EngineOptions.buildId).
 */
export function useBuild(host: CliHost | string): void {
  if (typeof host === "string") {
    buildId = host;
    return;
  }
  try {
    buildId = `${host.version}+${statSync(host.entry).mtimeMs}`;
  } catch {
    buildId = undefined; // an entry we cannot date: keep nothing derived rather than risk another build's
  }
}

/**
 * The engine for `flags`: a new one for this one command (`shortLived`), or, for the warm CLI's
 * server, one that lives on and watches the tree as the MCP server's does.
 */
export async function makeEngine(flags: ProjectValues, longLived = false): Promise<Engine> {
  const platform = await createHostPlatform({
    root: flags.root ?? process.cwd(),
    shortLived: !longLived,
    ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}),
  });
  // A cache folder inside the root must not be indexed itself.
  const rel = nodePath.relative(platform.fs.rootLabel, platform.store.label);
  const exclude = rel && !rel.startsWith("..") && !nodePath.isAbsolute(rel) ? [rel.split(nodePath.sep).join("/")] : [];
  return createEngine(platform, {
    exclude,
    ...(flags.maxFileBytes !== undefined ? { maxFileBytes: flags.maxFileBytes } : {}),
    ...(flags.jobs !== undefined ? { jobs: flags.jobs } : {}),
    ...(longLived ? { watch: true } : {}),
    ...(buildId !== undefined ? { buildId } : {}),
  });
}

/** Lends commands an engine that outlives them (the warm CLI's server); see {@link lendEngines}. */
export type EngineLender = (flags: ProjectValues) => Promise<Engine>;

let lender: EngineLender | undefined;

/** From now on, commands run on the engines `lend` gives instead of making their own. */
export function lendEngines(lend: EngineLender): void {
  lender = lend;
}

/**
 * Opens the engine on `--root` (with `--cache-dir`, `--max-file-bytes`, `--jobs`), runs `answer`
 * with a progress bar on stderr (unless `--quiet`), and clears the bar however it ends.
 */
export async function withEngine(
  flags: ProjectValues,
  answer: (engine: Engine, progress: Progress) => Promise<number>,
): Promise<number> {
  const engine = lender ? await lender(flags) : await makeEngine(flags);
  const bar = createProgressReporter(flags.quiet !== true);
  const progress: Progress = { onProgress: (p) => bar.update(p.phase, p.done, p.total), done: () => bar.done() };
  try {
    return await answer(engine, progress);
  } finally {
    bar.done();
  }
}

/** `--budget` and `--encoding`, when given, as engine options. */
export function budgetOptions(flags: FlagValues<ReturnType<typeof budgetFlags>>): {
  budget?: number;
  encoding?: Encoding;
} {
  return {
    ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
    ...(flags.encoding ? { encoding: flags.encoding } : {}),
  };
}

/** `--limit`, `--cursor` and `--tests`, when given, as engine options. */
export function pageOptions(flags: FlagValues<typeof pagingFlags>): {
  limit?: number;
  cursor?: string;
  tests?: TestsMode;
} {
  return {
    ...(flags.limit !== undefined ? { limit: flags.limit } : {}),
    ...(flags.cursor !== undefined ? { cursor: flags.cursor } : {}),
    ...(flags.tests ? { tests: flags.tests } : {}),
  };
}

/** Clears the bar and prints an answer: its JSON with `--json`, else its text. */
export function printAnswer(progress: Progress, answer: { text: string }, json: boolean | undefined): number {
  progress.done();
  if (json) writeJson(answer);
  else writeOut(answer.text);
  return EXIT.ok;
}

/** What a paged list command (callers, callees, importers, tests) passes its engine call. */
export type ListCallOptions = ReturnType<typeof pageOptions> &
  ReturnType<typeof budgetOptions> & {
    onProgress: Progress["onProgress"];
    depth?: number;
    json?: boolean;
  };

/** The `run` of a paged list command: one engine call on its one argument, printed. */
export function listRun(call: (engine: Engine, target: string, options: ListCallOptions) => Promise<{ text: string }>) {
  return ({
    args: [target],
    flags,
  }: {
    args: string[];
    flags: FlagValues<
      typeof projectFlags & typeof outputFlags & typeof pagingFlags & ReturnType<typeof budgetFlags>
    > & { depth?: number };
  }): Promise<number> =>
    withEngine(flags, async (engine, progress) => {
      const answer = await call(engine, target!, {
        onProgress: progress.onProgress,
        ...(flags.depth ? { depth: flags.depth } : {}),
        ...pageOptions(flags),
        ...budgetOptions(flags),
        ...(flags.json ? { json: true } : {}),
      });
      return printAnswer(progress, answer, flags.json);
    });
}
