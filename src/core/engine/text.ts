/**
 * The text index of the engine's snapshot: the docs and configuration files of the inventory
 * (core/text/chunk.ts says which), read through the snapshot's inputs (hash-checked like any cited
 * file), chunked and indexed once per snapshot.
 */
import { languageForExtension } from "../../languages/index.ts";
import { extname } from "../../shared/paths.ts";
import { chunkText, isGeneratedText, MAX_TEXT_BYTES, textKind, type TextChunk } from "../text/chunk.ts";
import { buildTextIndex, type TextIndex } from "../text/text-index.ts";
import type { Inputs } from "./inputs.ts";
import type { Snapshot } from "./snapshot.ts";
import type { EngineState } from "./state.ts";

/** The text files of a snapshot: not source, of a text kind, within MAX_TEXT_BYTES. */
export function textFiles(snapshot: Snapshot): string[] {
  return snapshot.files.filter((f) => !f.language && f.size <= MAX_TEXT_BYTES && textKind(f.path) !== undefined && !languageForExtension(extname(f.path))).map((f) => f.path);
}

/**
 * The text index of `inputs.snapshot`, built once per snapshot (every caller of one snapshot
 * shares the build). A file whose bytes changed since the index is read as it is now and flagged
 * stale by `inputs`, so the caller's answer is made again after a re-index.
 */
export function textIndexOf(s: EngineState, inputs: Inputs): Promise<TextIndex> {
  const snapshot = inputs.snapshot;
  if (s.text?.snapshot === snapshot) return s.text.built;
  const built = buildFor(snapshot, inputs);
  s.text = { snapshot, built };
  built.catch(() => {
    if (s.text?.built === built) s.text = undefined;
  });
  // A build from a file that changed under it is not kept: the retry after the re-index builds again.
  void built.then(() => {
    if (inputs.stale.size > 0 && s.text?.built === built) s.text = undefined;
  });
  return built;
}

async function buildFor(snapshot: Snapshot, inputs: Inputs): Promise<TextIndex> {
  const files: { chunks: TextChunk[]; lines: string[] }[] = [];
  for (const path of textFiles(snapshot)) {
    let text: string;
    try {
      text = await inputs.text(path);
    } catch {
      continue; // unreadable now: left out, as a file gone since the index
    }
    if (isGeneratedText(text)) continue;
    const chunks = chunkText(path, textKind(path)!, text);
    if (chunks.length) files.push({ chunks, lines: text.split("\n") });
  }
  return buildTextIndex(files);
}
