/**
 * The portable index: one file holding a snapshot and every record it names, which another machine
 * (a laptop after CI, the browser playground, a web IDE) loads into its own store instead of
 * parsing. Pure: bytes in and out, plus the Store port; the front ends read and write the file.
 *
 * Layout, integers little-endian (the README's "An index other machines can load" says the same):
 *
 *   offset  size  field
 *   0       8     magic: 89 43 53 4C 49 43 45 0A ("\x89CSLICE\n": a high byte and a newline, so a
 *                 text-mode copy that rewrites either is caught at once)
 *   8       4     artifact format (ARTIFACT_FORMAT)
 *   12      4     record schema (SCHEMA_VERSION)
 *   16      8     total length of the artifact in bytes, digest included
 *   24      4     header length H
 *   28      4     CRC-32 of bytes 0–27, so a damaged length reads as damage, not as a cut copy
 *   32      H     header: UTF-8 JSON { tool, extractors: { language: extractor version }, files, records }
 *   …             records, each: u32 length L, then L bytes of the record as the store seals it
 *   …             snapshot: u32 length S, then S bytes of the sealed snapshot JSON
 *   end-32  32    SHA-256 of every byte before it
 *
 * Relocatable by construction: a record holds no path (identical files share one), its store key is
 * made again on import from its language and content hash, and the snapshot's paths are relative
 * to the root. The snapshot's stat facts (mtimes, its time) belong to the exporting machine: they
 * are zeroed, so the first index after an import trusts no stat, finds every file's record by its
 * content hash, and parses nothing that is unchanged. The same files give the same bytes.
 */
import { EngineError } from "../../shared/errors.ts";
import { normalizeRelative } from "../../shared/paths.ts";
import { languageById } from "../../languages/index.ts";
import type { Store } from "../ports.ts";
import { crc32, unseal } from "./seal.ts";
import {
  checkRecord,
  checkSnapshot,
  decodeJson,
  encodeJson,
  OWN_KEY,
  recordKey,
  SCHEMA_VERSION,
  SNAPSHOT_KEY,
  type Snapshot,
} from "./snapshot.ts";
import { quoted } from "../../shared/quote.ts";

/** The artifact's first eight bytes. */
export const ARTIFACT_MAGIC = Uint8Array.of(0x89, 0x43, 0x53, 0x4c, 0x49, 0x43, 0x45, 0x0a);

/** The layout version this engine writes and reads; bumped when the layout above changes. */
export const ARTIFACT_FORMAT = 1;

/** magic, format, schema, total length, header length, their CRC-32. */
const PREAMBLE = 32;
const DIGEST = 32;

/** The artifact's JSON header. */
export interface ArtifactHeader {
  tool: "codeslice";
  /** Per language in the artifact, the extractor version its records were made with (see `extractorVersion`). */
  extractors: Record<string, string>;
  /** Files in the snapshot, and distinct records. */
  files: number;
  records: number;
}

/** What an export or an import carried. */
export interface ArtifactSummary {
  /** Size of the artifact. */
  bytes: number;
  /** Files in its snapshot (every file of the inventory, sources or not). */
  files: number;
  /** Distinct records (identical files share one). */
  records: number;
  /** Source files per language id. */
  languages: Record<string, number>;
}

/** A decoded artifact, every part checked: records by the store key this engine gives them. */
export interface ArtifactContents {
  header: ArtifactHeader;
  snapshot: Snapshot;
  records: Map<string, Uint8Array>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

/** The snapshot as it travels: the same inventory with the exporting machine's stat times zeroed. */
function portableSnapshot(snapshot: Snapshot): Snapshot {
  return {
    ...snapshot,
    createdAt: 0,
    files: snapshot.files.map((f) => ({ ...f, mtimeMs: 0 })),
    ...(snapshot.contentSkips ? { contentSkips: snapshot.contentSkips.map((f) => ({ ...f, mtimeMs: 0 })) } : {}),
  };
}

/** Source files per language in a snapshot. */
function languageCounts(snapshot: Snapshot): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of snapshot.files) if (f.record && f.language) out[f.language] = (out[f.language] ?? 0) + 1;
  return out;
}

/**
 * The artifact of `snapshot` and its records (sealed, as the store holds them, in key order).
 * `extractors` names the extractor version of each language the records were made with.
 */
export async function encodeArtifact(
  snapshot: Snapshot,
  records: Uint8Array[],
  extractors: Record<string, string>,
): Promise<Uint8Array> {
  const portable = portableSnapshot(snapshot);
  const header: ArtifactHeader = {
    tool: "codeslice",
    extractors,
    files: portable.files.length,
    records: records.length,
  };
  const headerBytes = encoder.encode(JSON.stringify(header));
  const snapshotBytes = encodeJson(portable);
  const total =
    PREAMBLE + headerBytes.length + records.reduce((n, r) => n + 4 + r.length, 0) + 4 + snapshotBytes.length + DIGEST;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(ARTIFACT_MAGIC, 0);
  view.setUint32(8, ARTIFACT_FORMAT, true);
  view.setUint32(12, SCHEMA_VERSION, true);
  view.setBigUint64(16, BigInt(total), true);
  view.setUint32(24, headerBytes.length, true);
  view.setUint32(28, crc32(out, 28), true);
  out.set(headerBytes, PREAMBLE);
  let at = PREAMBLE + headerBytes.length;
  for (const part of [...records, snapshotBytes]) {
    view.setUint32(at, part.length, true);
    out.set(part, at + 4);
    at += 4 + part.length;
  }
  out.set(await sha256(out.subarray(0, at)), at);
  return out;
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
const corrupt = (reason: string, offset?: number) =>
  new EngineError("artifact_corrupt", `The index artifact is damaged: ${reason}.`, {
    hint: "Copy or download it again as binary, or export it again; nothing was written to the cache.",
    data: { reason, ...(offset !== undefined ? { offset } : {}) },
  });
const otherVersion = (
  data: {
    format?: { artifact: number; engine: number };
    schema?: { artifact: number; engine: number };
    languages?: string[];
  },
  what: string,
) =>
  new EngineError("artifact_version_mismatch", `The index artifact was made by another codeslice version (${what}).`, {
    hint:
      "Export it again with this version of codeslice, or index the project from its source; nothing was " +
      "written to the cache.",
    data,
  });

/**
 * Checks the frame: magic, format, length and checksum, in that order, so a foreign file, a cut
 * copy and a flipped byte each get their own error. Returns the record schema and header length.
 */
async function checkFrame(bytes: Uint8Array): Promise<{ schema: number; headerLength: number; view: DataView }> {
  const prefix = bytes.subarray(0, ARTIFACT_MAGIC.length);
  if (prefix.some((b, i) => b !== ARTIFACT_MAGIC[i])) {
    throw new EngineError("artifact_foreign", "This is not a codeslice index artifact.", {
      hint: "Pass a file made by an index export.",
      data: { bytes: bytes.length, magic: hex(prefix) },
    });
  }
  const truncated = (expectedBytes: number) =>
    new EngineError(
      "artifact_truncated",
      `The index artifact is cut short: ${bytes.length} of ${expectedBytes} bytes.`,
      {
        hint: "Copy or download the whole file again; nothing was written to the cache.",
        data: { expectedBytes, actualBytes: bytes.length },
      },
    );
  if (bytes.length < PREAMBLE) throw truncated(PREAMBLE + DIGEST);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The format first: another format may lay out the rest otherwise.
  const format = view.getUint32(8, true);
  if (format !== ARTIFACT_FORMAT)
    throw otherVersion(
      { format: { artifact: format, engine: ARTIFACT_FORMAT } },
      `artifact format ${format}, this one reads ${ARTIFACT_FORMAT}`,
    );
  if (view.getUint32(28, true) !== crc32(bytes, 28))
    throw corrupt("the checksum of its first bytes does not match them", 0);
  const declared = view.getBigUint64(16, true);
  if (declared < BigInt(PREAMBLE + DIGEST) || declared > BigInt(Number.MAX_SAFE_INTEGER))
    throw corrupt(`a total length of ${declared} bytes`, 16);
  const total = Number(declared);
  if (bytes.length < total) throw truncated(total);
  if (bytes.length > total) throw corrupt(`${bytes.length - total} bytes past the end its header declares`, total);
  const digest = await sha256(bytes.subarray(0, total - DIGEST));
  if (digest.some((b, i) => b !== bytes[total - DIGEST + i]))
    throw corrupt("its SHA-256 checksum does not match its content");
  const schema = view.getUint32(12, true);
  const headerLength = view.getUint32(24, true);
  if (PREAMBLE + headerLength > total - DIGEST) throw corrupt(`a header of ${headerLength} bytes`, 24);
  return { schema, headerLength, view };
}

/** The header when it has the shape this format writes. */
function readHeader(bytes: Uint8Array, length: number): ArtifactHeader {
  let header: unknown;
  try {
    header = JSON.parse(decoder.decode(bytes.subarray(PREAMBLE, PREAMBLE + length)));
  } catch {
    throw corrupt("its header is not JSON", PREAMBLE);
  }
  const h = header as Partial<ArtifactHeader> | null;
  const extractors = h?.extractors;
  const wellFormed =
    h !== null &&
    typeof h === "object" &&
    h.tool === "codeslice" &&
    Number.isInteger(h.files) &&
    Number.isInteger(h.records) &&
    h.records! >= 0 &&
    typeof extractors === "object" &&
    extractors !== null &&
    Object.values(extractors).every((v) => typeof v === "string" && /^[0-9a-f]{16}$/.test(v));
  if (!wellFormed) throw corrupt("its header lacks the fields this format writes", PREAMBLE);
  // A language is looked up by name below: `constructor` or `__proto__` would find Object's own.
  const unknown = Object.keys(extractors).find((l) => !languageById(l));
  if (unknown !== undefined)
    throw corrupt(
      `its header names a language this version does not know (${quoted(unknown.slice(0, 100))})`,
      PREAMBLE,
    );
  return h as ArtifactHeader;
}

/**
 * Decodes and checks a whole artifact before anything is written: the frame (magic, format,
 * length, SHA-256), the schema, each language's extractor version against this engine's
 * (`engineVersion`), every record (seal, shape), and the snapshot (shape, relative paths, each
 * record it names present under the key this engine gives it). Throws `artifact_foreign`,
 * `artifact_truncated`, `artifact_corrupt` or `artifact_version_mismatch`.
 */
export async function decodeArtifact(
  bytes: Uint8Array,
  engineVersion: (language: string) => Promise<string | undefined>,
): Promise<ArtifactContents> {
  const { schema, headerLength, view } = await checkFrame(bytes);
  if (schema !== SCHEMA_VERSION)
    throw otherVersion(
      { schema: { artifact: schema, engine: SCHEMA_VERSION } },
      `record schema ${schema}, this one uses ${SCHEMA_VERSION}`,
    );
  const header = readHeader(bytes, headerLength);
  const stale: string[] = [];
  for (const [language, version] of Object.entries(header.extractors))
    if ((await engineVersion(language)) !== version) stale.push(language);
  if (stale.length)
    throw otherVersion(
      { languages: stale.sort() },
      `its ${stale.join(", ")} records come from other grammars or queries`,
    );
  const end = bytes.length - DIGEST;
  let at = PREAMBLE + headerLength;
  /** The next length-prefixed part. */
  const part = (what: string): Uint8Array => {
    if (at + 4 > end) throw corrupt(`it ends before its ${what}`, at);
    const length = view.getUint32(at, true);
    if (at + 4 + length > end) throw corrupt(`its ${what} runs past the end`, at);
    const out = bytes.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return out;
  };
  const records = new Map<string, Uint8Array>();
  const lines = new Map<string, number>();
  for (let i = 0; i < header.records; i++) {
    const offset = at;
    const sealed = part(`record ${i + 1}`);
    const record = checkRecord(decodeJson<unknown>(sealed));
    const version = record ? extractorOf(header, record.language) : undefined;
    if (!record || !version || !/^[0-9a-f]{40}$/.test(record.hash))
      throw corrupt(`record ${i + 1} is not a record this version writes`, offset);
    const key = recordKey(version, record.hash);
    if (records.has(key)) throw corrupt(`record ${i + 1} repeats an earlier one`, offset);
    records.set(key, sealed);
    lines.set(key, record.lines);
  }
  const snapshotOffset = at;
  const snapshot = checkSnapshot(decodeJson<unknown>(part("snapshot")));
  if (!snapshot) throw corrupt("its snapshot is not one this version writes", snapshotOffset);
  if (at !== end) throw corrupt(`${end - at} bytes between its snapshot and its checksum`, at);
  checkSnapshotFiles(snapshot, header, records, lines, snapshotOffset);
  // Whatever stat times it carries, none is this machine's: the first index trusts no stat.
  return { header, snapshot: portableSnapshot(snapshot), records };
}

/** The extractor version the header gives `language`: its own entry only, never an inherited one. */
function extractorOf(header: ArtifactHeader, language: string | undefined): string | undefined {
  return language !== undefined && Object.hasOwn(header.extractors, language) ? header.extractors[language] : undefined;
}

/**
 * Every path relative and canonical, every record named present under the key this engine gives
 * it, and every record held named by some file, with no more lines than that file's size allows:
 * a record nothing names was kept for ever and reused for any later file with that content.
 */
function checkSnapshotFiles(
  snapshot: Snapshot,
  header: ArtifactHeader,
  records: Map<string, Uint8Array>,
  lines: Map<string, number>,
  offset: number,
): void {
  if (snapshot.files.length !== header.files)
    throw corrupt(`its snapshot lists ${snapshot.files.length} files, its header ${header.files}`, offset);
  const paths = [...snapshot.files, ...snapshot.skipped, ...(snapshot.contentSkips ?? [])].map((f) => f.path);
  const bad = paths.find((p) => p === "" || normalizeRelative(p, "posix") !== p);
  if (bad !== undefined)
    throw corrupt(`its snapshot names ${quoted(bad.slice(0, 200))}, not a path inside a project`, offset);
  const named = new Set<string>();
  for (const f of snapshot.files) {
    if (!Number.isSafeInteger(f.size) || f.size < 0 || (f.definitions ?? 0) < 0 || (f.diagnostics ?? 0) < 0)
      throw corrupt(`its snapshot gives ${quoted(f.path.slice(0, 200))} a negative size or count`, offset);
    if (!f.record) continue;
    const version = extractorOf(header, f.language);
    if (!version || f.record !== recordKey(version, f.hash!) || !records.has(f.record))
      throw corrupt(`its snapshot names a record for ${f.path} that it does not hold`, offset);
    // Each line but the last ends in a byte of its own.
    if (lines.get(f.record)! > f.size + 1)
      throw corrupt(
        `its record for ${f.path} has ${lines.get(f.record)} lines, more than ${f.size} bytes hold`,
        offset,
      );
    named.add(f.record);
  }
  const stray = records.size - named.size;
  if (stray > 0) throw corrupt(`it holds ${stray} record(s) its snapshot does not name`, offset);
}

/**
 * The artifact of the index whose snapshot is `snapshot`: each distinct record once, in key order,
 * as `read` (the store, through the engine) gives its sealed bytes. Returns undefined when a record
 * does not read back whole (the caller repairs the cache and asks again). `extractors` maps each
 * language to its extractor version.
 */
export async function exportArtifact(
  read: (key: string) => Promise<Uint8Array | undefined>,
  snapshot: Snapshot,
  extractors: Record<string, string>,
): Promise<{ bytes: Uint8Array; summary: ArtifactSummary } | undefined> {
  const keys = [...new Set(snapshot.files.map((f) => f.record).filter((k): k is string => k !== undefined))].sort();
  const records: Uint8Array[] = [];
  for (let i = 0; i < keys.length; i += 64) {
    const batch = await Promise.all(keys.slice(i, i + 64).map((k) => read(k).catch(() => undefined)));
    for (const bytes of batch) {
      if (!bytes || !unseal(bytes)) return undefined;
      records.push(bytes);
    }
  }
  const used: Record<string, string> = {};
  for (const language of Object.keys(languageCounts(snapshot)).sort()) {
    const version = extractors[language];
    if (version) used[language] = version;
  }
  const bytes = await encodeArtifact(snapshot, records, used);
  return {
    bytes,
    summary: {
      bytes: bytes.length,
      files: snapshot.files.length,
      records: records.length,
      languages: languageCounts(snapshot),
    },
  };
}

/**
 * Writes a decoded artifact into `store`: its records, then its snapshot (the one write that makes
 * the import visible), then drops the records only the replaced snapshot named. When a write
 * fails, the records this import added are deleted again and the cache is the one it was.
 */
export async function importArtifact(
  store: Store,
  contents: ArtifactContents,
  artifactBytes: number,
): Promise<ArtifactSummary> {
  const previous = checkSnapshot(decodeJson<unknown>(await store.get(SNAPSHOT_KEY).catch(() => undefined)));
  const existing = new Set(await store.keys(`v${SCHEMA_VERSION}/records/`).catch(() => [] as string[]));
  const written: string[] = [];
  try {
    const entries = [...contents.records];
    for (let i = 0; i < entries.length; i += 64) {
      await Promise.all(
        entries.slice(i, i + 64).map(async ([key, bytes]) => {
          // A record this cache holds already stays: an import adds records, never replaces one
          // (the key names the content and extractor, so the local one is the same record or a
          // damaged copy the next index heals).
          if (existing.has(key)) return;
          await store.set(key, bytes);
          written.push(key);
        }),
      );
    }
    await store.set(SNAPSHOT_KEY, encodeJson(contents.snapshot));
  } catch (error) {
    for (const key of written) await store.delete(key).catch(() => {});
    throw error;
  }
  const live = new Set(contents.records.keys());
  for (const f of previous?.files ?? []) {
    if (f.record && !live.has(f.record) && OWN_KEY.test(f.record)) await store.delete(f.record).catch(() => {});
  }
  return {
    bytes: artifactBytes,
    files: contents.snapshot.files.length,
    records: contents.records.size,
    languages: languageCounts(contents.snapshot),
  };
}
