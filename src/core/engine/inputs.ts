/**
 * Snapshot inputs: the files the engine reads again after indexing them (the source lines that
 * context and snippet cite, the configs the module resolvers read, the manifests the map reads),
 * each read here and checked against the content hash the snapshot recorded. An answer then never
 * pairs the index's line numbers with bytes they were not taken from.
 */
import type { FileSystem } from "../ports.ts";
import { isManifest } from "../map/repo-map.ts";
import { EngineError, isEngineError } from "../../shared/errors.ts";
import { gitBlobId } from "../../shared/hash.ts";
import { allResolverConfigs } from "../../languages/index.ts";
import { textKind } from "../text/chunk.ts";
import type { Snapshot } from "./snapshot.ts";

/**
 * A config file some module resolver reads (what a language's resolver names in `configs`: tsconfig paths, workspace
 * packages, go.mod, …).
 */
export const CONFIG_FILE = { test: (path: string): boolean => allResolverConfigs().some((r) => r.test(path)) };

/**
 * Whether a file that is not source is still read after indexing (a resolver config, a manifest,
 * or a text file the text index chunks: docs, configuration), so the indexer records its hash
 * too. They are small: hashing them costs little.
 */
export function isSnapshotInput(path: string): boolean {
  return CONFIG_FILE.test(path) || isManifest(path) || textKind(path) !== undefined;
}

/** A file whose bytes are not the ones the snapshot recorded: edited, replaced or deleted since. */
export interface StaleInput {
  path: string;
  indexedHash: string;
  /** The hash of the bytes read now; null when the file is gone. */
  currentHash: string | null;
}

/** Thrown by {@link Inputs.check}: the answer read files that changed since they were indexed. */
export class StaleInputs extends Error {
  constructor(readonly stale: StaleInput[]) {
    super(`changed since indexed: ${stale.map((s) => s.path).join(", ")}`);
    this.name = "StaleInputs";
  }
}

/** Reads of project files, checked against one snapshot. */
export interface Inputs {
  /** The snapshot the reads are checked against. */
  readonly snapshot: Snapshot;
  /**
   * The text of `path` as it is now. When its bytes differ from the indexed ones the text is still
   * returned (a deleted file reads as empty) and the file is listed in `stale`: the caller throws
   * its answer away, re-indexes those files and answers again.
   */
  text(path: string): Promise<string>;
  /** Files read so far whose bytes differ from the snapshot's, by path. */
  readonly stale: Map<string, StaleInput>;
  /** Throws {@link StaleInputs} when a read so far was stale. */
  check(): void;
}

const decoder = new TextDecoder();
const hashesBySnapshot = new WeakMap<Snapshot, Map<string, string>>();

/** Content hash of every hashed file of `snapshot`, built once per snapshot. */
function hashesOf(snapshot: Snapshot): Map<string, string> {
  let hashes = hashesBySnapshot.get(snapshot);
  if (!hashes) {
    hashes = new Map();
    for (const f of snapshot.files) if (f.hash !== undefined) hashes.set(f.path, f.hash);
    hashesBySnapshot.set(snapshot, hashes);
  }
  return hashes;
}

/**
 * The one way the engine reads a project file after indexing it. Files the snapshot holds no hash
 * for (a README read by snippet) carry no claim of the index and are read as they are; so are the
 * errors of a file that is there but cannot be read. A hashed file that is gone is stale, not an
 * error: re-indexing it drops it from the index.
 */
export function snapshotInputs(fs: FileSystem, snapshot: Snapshot): Inputs {
  const hashes = hashesOf(snapshot);
  const stale = new Map<string, StaleInput>();
  return {
    snapshot,
    stale,
    check() {
      if (stale.size > 0) throw new StaleInputs([...stale.values()]);
    },
    async text(path) {
      const indexedHash = hashes.get(path);
      let bytes: Uint8Array;
      try {
        bytes = await fs.readFile(path);
      } catch (error) {
        if (indexedHash === undefined || !isEngineError(error, "not_found", "not_directory")) throw error;
        stale.set(path, { path, indexedHash, currentHash: null });
        return "";
      }
      // SHA-1 in Web Crypto: 0.19 ms p50 for django's 82 KiB query.py, about what reading it costs
      // (Node 20 on the 2-core bench machine); the cited files are read whole anyway.
      if (indexedHash !== undefined) {
        const currentHash = await gitBlobId(bytes);
        if (currentHash !== indexedHash) stale.set(path, { path, indexedHash, currentHash });
      }
      return decoder.decode(bytes);
    },
  };
}

/** The error for a file still changing after the engine re-indexed it `attempts` times to answer. */
export function staleIndexError(stale: StaleInput, attempts: number): EngineError {
  return new EngineError(
    "stale_index",
    `${stale.path} kept changing while codeslice re-indexed it to answer (${attempts} times), so its lines ` +
      `could not be cited.`,
    {
      hint: "Ask again once the file has stopped changing.",
      data: { path: stale.path, indexedHash: stale.indexedHash, currentHash: stale.currentHash },
    },
  );
}
