/**
 * The engine's side of the index other machines load (artifact.ts holds the format) and of the
 * SCIP export (core/scip): what `exportIndex`, `importIndex` and `scip` do with the engine's state.
 */
import { languageById } from "../../languages/index.ts";
import { EngineError } from "../../shared/errors.ts";
import { buildScip, type ScipAnswer, type ScipOptions } from "../scip/scip.ts";
import { decodeArtifact, exportArtifact, importArtifact, type ArtifactSummary } from "./artifact.ts";
import { consistent } from "./consistent.ts";
import type { RunOptions } from "./api.ts";
import { dropGraph, graphOf } from "./graph-cache.ts";
import { extractorVersion } from "./indexer.ts";
import { dropIndex, loadAll, reindex, saveNow } from "./passes.ts";
import { decodeRecord, readsWhole, storedBytes } from "./snapshot.ts";
import { RecordMap } from "./record-map.ts";
import type { EngineState } from "./state.ts";

/** The extractor version of a language id, undefined for a language this engine does not know. */
function versionOf(s: EngineState, language: string): Promise<string | undefined> {
  const spec = languageById(language);
  return spec ? extractorVersion(s.platform, spec) : Promise.resolve(undefined);
}

/**
 * The artifact of the current index (made first when there is none). A record held in memory is
 * sealed again (its stored form, byte for byte); the rest are read from the store and checked as a
 * load checks them, so a damaged cache never travels: it is repaired first.
 */
export async function exportIndex(
  s: EngineState,
  run: RunOptions,
): Promise<{ bytes: Uint8Array; summary: ArtifactSummary }> {
  for (let attempt = 0; ; attempt++) {
    if (!s.passes.index) await reindex(s, run);
    const { snapshot, records } = s.passes.index!;
    const extractors: Record<string, string> = {};
    for (const f of snapshot.files)
      if (f.language && !(f.language in extractors)) extractors[f.language] = (await versionOf(s, f.language)) ?? "";
    const byKey = new Map(snapshot.files.filter((f) => f.record).map((f) => [f.record!, f]));
    const read = async (key: string) => {
      const f = byKey.get(key)!;
      // A record this process made is still its stored bytes (RecordMap): exported as they are.
      const made = records instanceof RecordMap ? records.stored(f.path) : undefined;
      if (made) return made;
      const held = records.get(f.path);
      if (held) return storedBytes(held);
      const bytes = await s.platform.store.get(key);
      const record = decodeRecord(bytes, f.path);
      return record && record.hash === f.hash && record.language === f.language && readsWhole(record)
        ? bytes
        : undefined;
    };
    const out = await exportArtifact(read, snapshot, extractors);
    if (out) return out;
    if (attempt >= 1) {
      throw new EngineError(
        "no_index",
        `The index cache ${s.platform.store.label} could not be read back whole to export it.`,
        {
          hint: "Delete the cache folder; it is rebuilt on the next run.",
          data: { store: s.platform.store.label },
        },
      );
    }
    await loadAll(s, run); // reads every record and makes the damaged ones again
  }
}

/**
 * Checks all of an artifact, then writes it into the store, replacing the index; what the engine
 * held came from the replaced index, so the next answer starts from the imported one.
 */
export async function importIndex(s: EngineState, bytes: Uint8Array): Promise<ArtifactSummary> {
  const contents = await decodeArtifact(bytes, (language) => versionOf(s, language));
  while (s.passes.running) await s.passes.running.catch(() => {});
  // The store's own snapshot first: the import sweeps the records that one names and it keeps none of.
  await saveNow(s);
  const summary = await importArtifact(s.platform.store, contents, bytes.length);
  dropIndex(s);
  dropGraph(s);
  return summary;
}

/** The code graph as a SCIP index; import references are placed by reading their files' lines. */
export function answerScip(s: EngineState, opts: ScipOptions & RunOptions): Promise<ScipAnswer> {
  return consistent(s, opts, async (read) => {
    const { graph, snapshot } = await graphOf(s, opts);
    const inputs = read(snapshot);
    return buildScip(
      graph,
      { root: s.platform.fs.rootLabel, readText: (path) => inputs.text(path).catch(() => undefined) },
      opts,
    );
  });
}
