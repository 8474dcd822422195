/**
 * The text index of the engine's snapshot: the docs and configuration files of the inventory
 * (core/text/chunk.ts says which), read through the snapshot's inputs (hash-checked like any cited
 * file), chunked and indexed once per snapshot.
 */
import { languageForExtension } from "../../languages/index.ts";
import { extname } from "../../shared/paths.ts";
import { chunkText, isGeneratedText, MAX_TEXT_BYTES, textKind } from "../text/chunk.ts";
import { buildTextIndex, textFileDocs, type TextFileDocs, type TextIndex } from "../text/text-index.ts";
import type { Inputs } from "./inputs.ts";
import type { Snapshot } from "./snapshot.ts";
import type { EngineState } from "./state.ts";

/** The text files of a snapshot: not source, of a text kind, within MAX_TEXT_BYTES. */
export function textFiles(snapshot: Snapshot): string[] {
  return snapshot.files
    .filter(
      (f) =>
        !f.language &&
        f.size <= MAX_TEXT_BYTES &&
        textKind(f.path) !== undefined &&
        !languageForExtension(extname(f.path)),
    )
    .map((f) => f.path);
}

/**
 * The text index of `inputs.snapshot`, built once per snapshot (every caller of one snapshot
 * shares the build). A file whose bytes changed since the index is read as it is now and flagged
 * stale by `inputs`, so the caller's answer is made again after a re-index.
 */
export function textIndexOf(s: EngineState, inputs: Inputs): Promise<TextIndex> {
  const snapshot = inputs.snapshot;
  if (s.text.cache?.snapshot === snapshot) return s.text.cache.built;
  const built = buildFor(s, snapshot, inputs);
  s.text.cache = { snapshot, built };
  built.catch(() => {
    if (s.text.cache?.built === built) s.text.cache = undefined;
  });
  // A build from a file that changed under it is not kept: the retry after the re-index builds again.
  void built.then(() => {
    if (inputs.stale.size > 0 && s.text.cache?.built === built) s.text.cache = undefined;
  });
  return built;
}

/**
 * Chunks and words of text files by path and content hash, carried from snapshot to snapshot: after
 * an edit only the changed files are read again. A file the snapshot holds no hash for is read
 * every time. The answers that show a chunk read its lines again, hash-checked.
 */
const docsByHash = new WeakMap<EngineState, Map<string, { hash: string; docs: TextFileDocs | undefined }>>();

async function buildFor(s: EngineState, snapshot: Snapshot, inputs: Inputs): Promise<TextIndex> {
  const previous = docsByHash.get(s) ?? new Map<string, { hash: string; docs: TextFileDocs | undefined }>();
  const next = new Map<string, { hash: string; docs: TextFileDocs | undefined }>();
  const hashes = new Map(snapshot.files.map((f) => [f.path, f.hash]));
  const files: TextFileDocs[] = [];
  for (const path of textFiles(snapshot)) {
    const hash = hashes.get(path);
    let docs: TextFileDocs | undefined;
    const known = hash !== undefined ? previous.get(path) : undefined;
    if (known && known.hash === hash) docs = known.docs;
    else {
      let text: string;
      try {
        text = await inputs.text(path);
      } catch {
        continue; // unreadable now: left out, as a file gone since the index
      }
      const chunks = isGeneratedText(text) ? [] : chunkText(path, textKind(path)!, text);
      docs = chunks.length ? textFileDocs(chunks, text.split("\n")) : undefined;
    }
    // Bytes that are not the indexed ones are not remembered under the indexed hash.
    if (hash !== undefined && !inputs.stale.has(path)) next.set(path, { hash, docs });
    if (docs) files.push(docs);
  }
  docsByHash.set(s, next);
  // An edit of source files changes no text file: the last index, built from these very docs, is
  // the one they would build (BM25 over every chunk again was ~3 ms of a django body edit's context).
  const last = lastBuilt.get(s);
  if (last && last.files.length === files.length && last.files.every((d, i) => d === files[i])) return last.index;
  const index = buildTextIndex(files);
  lastBuilt.set(s, { files, index });
  return index;
}

/** The docs the last text index was built from, and that index. */
const lastBuilt = new WeakMap<EngineState, { files: TextFileDocs[]; index: TextIndex }>();
