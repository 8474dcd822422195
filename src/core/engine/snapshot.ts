/**
 * The persisted index: a snapshot manifest plus content-addressed per-file records, each stored
 * sealed (see seal.ts) and checked for its shape when read back, so a damaged entry reads as absent.
 */
import type { SkippedFile } from "../../shared/skip-rules.ts";
import type { FileRecord } from "../extract/record.ts";
import { seal, sealedContent, sealText, unseal } from "./seal.ts";

/**
 * Bump when the record shape or extract.ts rules change (query edits re-key by themselves): every cached record is then
 * re-made.
 */
export const SCHEMA_VERSION = 29;

/** Keys of the engine's own data: a store sweep never touches anything else. */
export const OWN_KEY = /^v\d+\//;

export const SNAPSHOT_KEY = `v${SCHEMA_VERSION}/snapshot.json`;

/**
 * The scan's folder listings (core/scan's `ScanCache`): what lets an unchanged tree be checked by stat instead of
 * listed.
 */
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
  /**
   * Files skipped for their content (binary, not UTF-8, minified), with stat, so an unchanged one is not read again.
   */
  contentSkips?: (SkippedFile & { size: number; mtimeMs: number })[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** JSON, sealed. */
export function encodeJson(value: unknown): Uint8Array {
  return sealText(JSON.stringify(value));
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

/** A decoded snapshot when it has the shape this version writes, else undefined. */
export function checkSnapshot(value: unknown): Snapshot | undefined {
  if (
    !isObj(value) ||
    value.schema !== SCHEMA_VERSION ||
    !isInt(value.createdAt) ||
    (value.scanMode !== "git" && value.scanMode !== "walk")
  )
    return undefined;
  const { files, skipped, contentSkips } = value;
  if (!Array.isArray(files) || !Array.isArray(skipped) || (contentSkips !== undefined && !Array.isArray(contentSkips)))
    return undefined;
  for (const f of files) {
    if (!isObj(f) || !isStr(f.path) || typeof f.size !== "number" || typeof f.mtimeMs !== "number") return undefined;
    if (!optStr(f.hash) || !optStr(f.language) || !optStr(f.record) || !optInt(f.definitions) || !optInt(f.diagnostics))
      return undefined;
    if (f.record !== undefined && (f.hash === undefined || f.language === undefined)) return undefined;
  }
  for (const f of [...skipped, ...(contentSkips ?? [])])
    if (!isObj(f) || !isStr(f.path) || !isStr(f.reason)) return undefined;
  return value as unknown as Snapshot;
}

/**
 * Bounds of a record's fields: each at least what extraction writes (extract.ts caps names at 200
 * characters, signatures at 400 and docs at 1,200, plus an ellipsis), so a record this engine made
 * always passes, and one from a crafted artifact cannot carry a 200 KB signature or cite
 * `src/util.ts:1-999999999`.
 */
export const RECORD_CAPS = {
  /** Lines of a file: a 1 MiB file has at most 1,048,577; options may raise the file size limit. */
  lines: 1 << 24,
  /** A column (UTF-16 units into a line). */
  col: 1 << 24,
  /** Entries of each list (definitions, imports, calls, …). */
  entries: 1 << 20,
  name: 201,
  signature: 401,
  doc: 1201,
  /**
   * Any other string: a qualified name, a receiver, an argument, a module, the terms. Some are
   * text as written (a receiver expression), so the bound is a whole file's: an honest record of
   * a big file must never fail it (the record would be parsed again on every run, and an artifact
   * holding it refused).
   */
  text: 1 << 22,
  /** Entries of a definition's params, decorators, bases; a call's args. */
  list: 1 << 12,
} as const;

const DEFINITION_KINDS = new Set([
  "function",
  "method",
  "constructor",
  "getter",
  "setter",
  "class",
  "interface",
  "type",
  "enum",
  "struct",
  "trait",
  "module",
  "macro",
  "field",
  "constant",
  "property",
]);
const IMPORT_KINDS = new Set([
  "named",
  "module",
  "default",
  "namespace",
  "star",
  "reexport",
  "reexport-namespace",
  "side-effect",
  "require",
  "dynamic",
  "export",
  "export-default",
  "package",
  "self-namespace",
]);
const BINDING_KINDS = new Set(["assign", "param", "field", "global", "return"]);

/**
 * A decoded record when it has the shape extraction produces, with every cross-reference (parent,
 * enclosing scope, caller) inside its file's definitions, every line inside its file, and every
 * field within RECORD_CAPS, else undefined: the graph indexes by them, so a record that passed its
 * checksum but not this would still break it, and a crafted artifact's record would be cited as
 * fact. Loops only: a 50,000-deep parent chain costs nothing more than a flat one.
 */
export function checkRecord(value: unknown): StoredRecord | undefined {
  if (!isObj(value) || !isStr(value.language) || !isStr(value.hash) || !isInt(value.lines)) return undefined;
  const lines = value.lines;
  if (lines < 1 || lines > RECORD_CAPS.lines || value.hash.length > 64) return undefined;
  const { definitions: defs, imports, calls, typeRefs, bindings, diagnostics } = value;
  if (
    ![defs, imports, calls, typeRefs, bindings, diagnostics].every(
      (a) => Array.isArray(a) && a.length <= RECORD_CAPS.entries,
    )
  )
    return undefined;
  const n = (defs as unknown[]).length;
  const inScope = (v: unknown) => isInt(v) && v >= -1 && v < n;
  const line = (v: unknown): boolean => isInt(v) && v >= 1 && v <= lines;
  const optLine = (v: unknown) => v === undefined || line(v);
  const col = (v: unknown) => v === undefined || (isInt(v) && v >= 0 && v <= RECORD_CAPS.col);
  const str = (v: unknown, max: number = RECORD_CAPS.text): v is string => isStr(v) && v.length <= max;
  const optS = (v: unknown, max: number = RECORD_CAPS.text) => v === undefined || str(v, max);
  const strs = (v: unknown) =>
    v === undefined || (Array.isArray(v) && v.length <= RECORD_CAPS.list && v.every((x) => str(x)));
  for (let i = 0; i < n; i++) {
    const d = (defs as unknown[])[i];
    if (
      !isObj(d) ||
      !str(d.name, RECORD_CAPS.name) ||
      !str(d.qualified) ||
      !isStr(d.kind) ||
      !DEFINITION_KINDS.has(d.kind) ||
      !str(d.signature, RECORD_CAPS.signature) ||
      typeof d.exported !== "boolean"
    )
      return undefined;
    if (
      !isInt(d.parent) ||
      d.parent < -1 ||
      d.parent >= i ||
      !line(d.start) ||
      !line(d.end) ||
      (d.start as number) > (d.end as number) ||
      !line(d.nameLine) ||
      !col(d.nameCol)
    )
      return undefined;
    if (!isInt(d.bodyStart) || (d.bodyStart !== 0 && !line(d.bodyStart))) return undefined;
    if (
      !optS(d.doc, RECORD_CAPS.doc) ||
      !optS(d.returns) ||
      !optS(d.terms) ||
      !strs(d.decorators) ||
      !strs(d.bases) ||
      !strs(d.implements)
    )
      return undefined;
    if (
      d.params !== undefined &&
      (!Array.isArray(d.params) ||
        d.params.length > RECORD_CAPS.list ||
        !d.params.every((p) => isObj(p) && str(p.name) && optS(p.type)))
    )
      return undefined;
  }
  if (!optS(value.terms)) return undefined;
  for (const x of imports as unknown[]) {
    if (
      !isObj(x) ||
      !isStr(x.kind) ||
      !IMPORT_KINDS.has(x.kind) ||
      !str(x.module) ||
      !line(x.line) ||
      !inScope(x.scope) ||
      !optS(x.name) ||
      !optS(x.alias)
    )
      return undefined;
  }
  for (const x of calls as unknown[]) {
    if (
      !isObj(x) ||
      !str(x.name, RECORD_CAPS.name) ||
      (x.kind !== "call" && x.kind !== "new") ||
      !line(x.line) ||
      !inScope(x.caller) ||
      !col(x.col) ||
      !optS(x.receiver)
    )
      return undefined;
    if (
      !strs(x.args) ||
      !optLine(x.end) ||
      !(x.argc === undefined || (isInt(x.argc) && x.argc >= 0 && x.argc <= RECORD_CAPS.list)) ||
      !(x.protocol === undefined || x.protocol === true)
    )
      return undefined;
  }
  for (const x of typeRefs as unknown[])
    if (!isObj(x) || !str(x.name, RECORD_CAPS.name) || !line(x.line) || !inScope(x.scope)) return undefined;
  for (const x of bindings as unknown[]) {
    if (
      !isObj(x) ||
      !isStr(x.kind) ||
      !BINDING_KINDS.has(x.kind) ||
      !str(x.name, RECORD_CAPS.name) ||
      !line(x.line) ||
      !inScope(x.scope) ||
      !optLine(x.until)
    )
      return undefined;
    if (
      !optS(x.receiver) ||
      !optS(x.type) ||
      !optS(x.value) ||
      !optS(x.alias) ||
      !optS(x.iter) ||
      !optS(x.literal) ||
      !(x.deref === undefined || x.deref === true)
    )
      return undefined;
    const a = x.argOf;
    if (
      a !== undefined &&
      (!isObj(a) ||
        !str(a.callee) ||
        !isInt(a.arg) ||
        a.arg < 0 ||
        !isInt(a.param) ||
        a.param < 0 ||
        typeof a.isNew !== "boolean")
    )
      return undefined;
  }
  for (const x of diagnostics as unknown[])
    if (!isObj(x) || !line(x.line) || !optLine(x.end) || !str(x.message, 200)) return undefined;
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
  return sealText(JSON.stringify(toStore));
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
