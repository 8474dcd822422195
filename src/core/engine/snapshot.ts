/** The persisted index: a snapshot manifest plus content-addressed per-file records. */
import type { SkippedFile } from "../scan/defaults.ts";
import type { FileRecord } from "../extract/record.ts";

/** Bump when the record shape or extract.ts rules change (query edits re-key by themselves): every cached record is then re-made. */
export const SCHEMA_VERSION = 15;

export const SNAPSHOT_KEY = `v${SCHEMA_VERSION}/snapshot.json`;

/** Store key of a record: the extractor version (schema, grammar, query) plus the content hash. */
export function recordKey(extractorVersion: string, hash: string): string {
  return `v${SCHEMA_VERSION}/records/${hash.slice(0, 2)}/${extractorVersion}-${hash}.json`;
}

/** One file in the snapshot. */
export interface SnapshotFile {
  path: string;
  size: number;
  mtimeMs: number;
  /** Content hash (git blob id); absent for files never read (no supported language). */
  hash?: string;
  language?: string;
  /** Store key of the record, for parsed files. */
  record?: string;
  definitions?: number;
  diagnostics?: number;
}

/** The manifest written after every index. */
export interface Snapshot {
  schema: number;
  createdAt: number;
  scanMode: "git" | "walk";
  files: SnapshotFile[];
  skipped: SkippedFile[];
  /** Files skipped for their content (binary, not UTF-8, minified), with stat, so an unchanged one is not read again. */
  contentSkips?: (SkippedFile & { size: number; mtimeMs: number })[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function decodeJson<T>(bytes: Uint8Array): T {
  return JSON.parse(decoder.decode(bytes)) as T;
}

/** A record as stored: without its path, since identical files share one record. */
export type StoredRecord = Omit<FileRecord, "path">;

/**
 * The bytes a fresh record is stored as, and the record to keep in memory: the one those bytes
 * decode to, not the one extraction built. Extracted strings are views into the file's text (V8
 * keeps a slice of 13+ characters as a pointer into its parent), so an extracted record pins its
 * whole source, and its grown arrays carry slack. On a 6,500-file tree the decoded records took
 * 129 MB of heap where the extracted ones took 248 MB. It is also the form a later run loads.
 */
export function storedForm(record: FileRecord): { bytes: Uint8Array; record: FileRecord } {
  const { path, ...toStore } = record;
  const json = JSON.stringify(toStore);
  return { bytes: encoder.encode(json), record: { ...(JSON.parse(json) as StoredRecord), path } };
}
