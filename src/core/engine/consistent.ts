/**
 * Answers computed from the bytes their snapshot indexed: a file changed since is re-indexed and the answer computed
 * again.
 */
import type { RunOptions } from "./api.ts";
import { snapshotInputs, StaleInputs, staleIndexError, type Inputs, type StaleInput } from "./inputs.ts";
import { recheck } from "./passes.ts";
import type { Snapshot } from "./snapshot.ts";
import type { EngineState } from "./state.ts";

/**
 * Re-indexes of changed files one answer may make before giving up with `stale_index`: the same
 * bound as the cache repair's, for a file saved again while it is re-indexed (an editor writing in
 * two steps). Each round re-indexes every changed file the answer read.
 */
const MAX_INPUT_RETRIES = 2;

/**
 * Runs `answer` until the files it read are the ones its snapshot indexed. A file that changed
 * since (edited, replaced, deleted) is re-indexed alone and the answer computed again: correct
 * lines rather than an error whenever a retry can give them. A file still changing after
 * MAX_INPUT_RETRIES re-indexes ends in `stale_index`.
 */
export async function consistent<T>(
  s: EngineState,
  run: RunOptions,
  answer: (read: (snapshot: Snapshot) => Inputs) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const reads: Inputs[] = [];
    const read = (snapshot: Snapshot) => {
      const inputs = snapshotInputs(s.platform.fs, snapshot);
      reads.push(inputs);
      return inputs;
    };
    let stale: StaleInput[];
    try {
      const value = await answer(read);
      // Whatever the answer did with the bytes, it is not given out if any were not the indexed ones.
      for (const inputs of reads) inputs.check();
      return value;
    } catch (error) {
      if (!(error instanceof StaleInputs)) throw error;
      stale = error.stale;
    }
    if (attempt >= MAX_INPUT_RETRIES) throw staleIndexError(stale[0]!, attempt);
    s.platform.logger?.log(
      "info",
      `${stale.map((x) => x.path).join(", ")} changed since indexed: re-indexing before answering.`,
    );
    await recheck(
      s,
      stale.map((x) => x.path),
      run,
    );
  }
}
