/**
 * The persisted index: a snapshot manifest plus content-addressed per-file records, each stored
 * sealed (see seal.ts) and checked for its shape when read back, so a damaged entry reads as absent.
 */
import type { SkippedFile } from "../../shared/skip-rules.ts";
import type { FileRecord } from "../extract/record.ts";
import { seal, sealedContent, unseal } from "./seal.ts";

/** Bump when the record shape or extract.ts rules change (query edits re-key by themselves): every cached record is then re-made. */
export const SCHEMA_VERSION = 24;

/** Keys of the engine's own data: a store sweep never touches anything else. */
export const OWN_KEY = /^v\d+\//;

export const SNAPSHOT_KEY = `v${SCHEMA_VERSION}/snapshot.json`;

/** The scan's folder listings (core/scan's `ScanCache`): what lets an unchanged tree be checked by stat instead of listed. */
export const SCAN_KEY = `v${SCHEMA_VERSION}/scan.json`;

/** Store key of a record: the extractor version (schema, grammar, query) plus the content hash. */
export function recordKey(extractorVersion: string, hash: string): string {
  return `v${SCHEMA_VERSION}/records/${hash.slice(0, 2)}/${extractorVersion}-${hash}.json`;
}

/** One file in the snapshot. */
export interface SnapshotFile {
  path: string;
  size: number;
  mtimeMs: number;
  /**
   * Content hash (git blob id) of every file the engine reads again after indexing: source files,
   * and the configs and manifests of inputs.ts. Absent for other files (never read by the index).
   */
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

/** JSON, sealed. */
export function encodeJson(value: unknown): Uint8Array {
  return seal(encoder.encode(JSON.stringify(value)));
}

/** The value of sealed JSON bytes, or undefined when they are damaged or not JSON. */
export function decodeJson<T>(bytes: Uint8Array | undefined): T | undefined {
  const inner = unseal(bytes);
  if (!inner) return undefined;
  try {
    return JSON.parse(decoder.decode(inner)) as T;
  } catch {
    return undefined;
  }
}

const isInt = (v: unknown): v is number => Number.isInteger(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const optStr = (v: unknown) => v === undefined || isStr(v);
const optInt = (v: unknown) => v === undefined || isInt(v);
const optStrings = (v: unknown) => v === undefined || (Array.isArray(v) && v.every(isStr));

/** A decoded snapshot when it has the shape this version writes, else undefined. */
export function checkSnapshot(value: unknown): Snapshot | undefined {
  if (!isObj(value) || value.schema !== SCHEMA_VERSION || !isInt(value.createdAt) || (value.scanMode !== "git" && value.scanMode !== "walk")) return undefined;
  const { files, skipped, contentSkips } = value;
  if (!Array.isArray(files) || !Array.isArray(skipped) || (contentSkips !== undefined && !Array.isArray(contentSkips))) return undefined;
  for (const f of files) {
    if (!isObj(f) || !isStr(f.path) || typeof f.size !== "number" || typeof f.mtimeMs !== "number") return undefined;
    if (!optStr(f.hash) || !optStr(f.language) || !optStr(f.record) || !optInt(f.definitions) || !optInt(f.diagnostics)) return undefined;
    if (f.record !== undefined && (f.hash === undefined || f.language === undefined)) return undefined;
  }
  for (const f of [...skipped, ...(contentSkips ?? [])]) if (!isObj(f) || !isStr(f.path) || !isStr(f.reason)) return undefined;
  return value as unknown as Snapshot;
}

/**
 * A decoded record when it has the shape extraction produces, with every cross-reference (parent,
 * enclosing scope, caller) inside its file's definitions, else undefined: the graph indexes by
 * them, so a record that passed its checksum but not this would still break it.
 */
export function checkRecord(value: unknown): StoredRecord | undefined {
  if (!isObj(value) || !isStr(value.language) || !isStr(value.hash) || !isInt(value.lines)) return undefined;
  const { definitions: defs, imports, calls, typeRefs, bindings, diagnostics } = value;
  if (![defs, imports, calls, typeRefs, bindings, diagnostics].every(Array.isArray)) return undefined;
  const n = (defs as unknown[]).length;
  const inScope = (v: unknown) => isInt(v) && v >= -1 && v < n;
  for (let i = 0; i < n; i++) {
    const d = (defs as unknown[])[i];
    if (!isObj(d) || !isStr(d.name) || !isStr(d.qualified) || !isStr(d.kind) || !isStr(d.signature) || typeof d.exported !== "boolean") return undefined;
    if (!isInt(d.parent) || d.parent < -1 || d.parent >= i || !isInt(d.start) || !isInt(d.end) || !isInt(d.nameLine) || !isInt(d.bodyStart) || !optInt(d.nameCol)) return undefined;
    if (!optStr(d.doc) || !optStr(d.returns) || !optStr(d.terms) || !optStrings(d.decorators) || !optStrings(d.bases) || !optStrings(d.implements)) return undefined;
    if (d.params !== undefined && (!Array.isArray(d.params) || !d.params.every((p) => isObj(p) && isStr(p.name) && optStr(p.type)))) return undefined;
  }
  if (!optStr(value.terms)) return undefined;
  for (const x of imports as unknown[]) {
    if (!isObj(x) || !isStr(x.kind) || !isStr(x.module) || !isInt(x.line) || !inScope(x.scope) || !optStr(x.name) || !optStr(x.alias)) return undefined;
  }
  for (const x of calls as unknown[]) {
    if (!isObj(x) || !isStr(x.name) || !isStr(x.kind) || !isInt(x.line) || !inScope(x.caller) || !optInt(x.col) || !optStr(x.receiver) || !optStrings(x.args) || !optInt(x.end) || !optInt(x.argc)) return undefined;
  }
  for (const x of typeRefs as unknown[]) if (!isObj(x) || !isStr(x.name) || !isInt(x.line) || !inScope(x.scope)) return undefined;
  for (const x of bindings as unknown[]) {
    if (!isObj(x) || !isStr(x.kind) || !isStr(x.name) || !isInt(x.line) || !inScope(x.scope)) return undefined;
    if (!optStr(x.receiver) || !optStr(x.type) || !optStr(x.value) || !optStr(x.alias) || !optStr(x.iter)) return undefined;
    const a = x.argOf;
    if (a !== undefined && (!isObj(a) || !isStr(a.callee) || !isInt(a.arg) || !isInt(a.param) || typeof a.isNew !== "boolean")) return undefined;
  }
  for (const x of diagnostics as unknown[]) if (!isObj(x) || !isInt(x.line) || !isStr(x.message)) return undefined;
  return value as unknown as StoredRecord;
}

/** The record stored under sealed `bytes`, for the file at `path`; undefined when damaged. */
export function decodeRecord(bytes: Uint8Array | undefined, path: string): FileRecord | undefined {
  const stored = checkRecord(decodeJson<unknown>(bytes));
  return stored ? { ...stored, path } : undefined;
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
  return { bytes: seal(encoder.encode(json)), record: { ...(JSON.parse(json) as StoredRecord), path } };
}

/** The stored bytes of a fresh record alone: what a parse worker sends back (see parse-pool.ts). */
export function storedBytes(record: FileRecord): Uint8Array {
  const { path: _path, ...toStore } = record;
  return seal(encoder.encode(JSON.stringify(toStore)));
}

/**
 * The in-memory record of bytes `storedBytes` made in this process's own code (a parse worker's
 * reply, handed over in memory), without the checksum and shape checks a record read from the
 * store gets: it equals what `storedForm` keeps for the same record. Those checks guard against
 * disks, and on the engine's thread they would cost a CRC pass over every record for nothing.
 */
export function freshRecord(bytes: Uint8Array, path: string): FileRecord | undefined {
  const inner = sealedContent(bytes);
  if (!inner) return undefined;
  try {
    return { ...(JSON.parse(decoder.decode(inner)) as StoredRecord), path };
  } catch {
    return undefined;
  }
}
