/**
 * The persisted index: a snapshot manifest plus content-addressed per-file records, each stored
 * sealed (see seal.ts) and checked for its shape when read back, so a damaged entry reads as absent.
 */
import type { SkippedFile } from "../../shared/skip-rules.ts";
import { EngineError } from "../../shared/errors.ts";
import type { FileRecord } from "../extract/record.ts";
import { seal, sealedContent, sealText, unseal } from "./seal.ts";

/**
 * Bump when the record shape or extract.ts rules change (query edits re-key by themselves): every cached record is then
 * re-made.
 */
export const SCHEMA_VERSION = 32;

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

/** The field checks of one record: `n` definitions, `lines` lines. */
function fieldChecks(n: number, lines: number) {
  const str = (v: unknown, max: number = RECORD_CAPS.text): v is string => isStr(v) && v.length <= max;
  return {
    inScope: (v: unknown) => isInt(v) && v >= -1 && v < n,
    line: (v: unknown): boolean => isInt(v) && v >= 1 && v <= lines,
    optLine: (v: unknown) => v === undefined || (isInt(v) && v >= 1 && v <= lines),
    col: (v: unknown) => v === undefined || (isInt(v) && v >= 0 && v <= RECORD_CAPS.col),
    str,
    optS: (v: unknown, max: number = RECORD_CAPS.text) => v === undefined || str(v, max),
    strs: (v: unknown) =>
      v === undefined || (Array.isArray(v) && v.length <= RECORD_CAPS.list && v.every((x) => str(x))),
  };
}

const isList = (a: unknown) => Array.isArray(a) && a.length <= RECORD_CAPS.entries;

/**
 * A decoded record when it has the shape extraction produces, with every cross-reference (parent,
 * enclosing scope, caller) inside its file's definitions, every line inside its file, and every
 * field within RECORD_CAPS, else undefined: the graph indexes by them, so a record that passed its
 * checksum but not this would still break it, and a crafted artifact's record would be cited as
 * fact. Loops only: a 50,000-deep parent chain costs nothing more than a flat one.
 */
export function checkRecord(value: unknown): StoredRecord | undefined {
  if (!checkHead(value)) return undefined;
  const n = (value.definitions as unknown[]).length;
  return checkTail(value, n, value.lines as number) ? (value as unknown as StoredRecord) : undefined;
}

/** True when `value` has a record's shape in every field but its calls and bindings (see checkRecord). */
function checkHead(value: unknown): value is Record<string, unknown> {
  if (!isObj(value) || !isStr(value.language) || !isStr(value.hash) || !isInt(value.lines)) return false;
  const lines = value.lines;
  if (lines < 1 || lines > RECORD_CAPS.lines || value.hash.length > 64) return false;
  const { definitions: defs, imports, typeRefs, diagnostics } = value;
  if (![defs, imports, typeRefs, diagnostics].every(isList)) return false;
  const n = (defs as unknown[]).length;
  const { inScope, line, optLine, col, str, optS, strs } = fieldChecks(n, lines);
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
      return false;
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
      return false;
    if (!isInt(d.bodyStart) || (d.bodyStart !== 0 && !line(d.bodyStart))) return false;
    if (
      !optS(d.doc, RECORD_CAPS.doc) ||
      !optS(d.returns) ||
      !optS(d.terms) ||
      !strs(d.decorators) ||
      !strs(d.bases) ||
      !strs(d.implements)
    )
      return false;
    if (
      d.params !== undefined &&
      (!Array.isArray(d.params) ||
        d.params.length > RECORD_CAPS.list ||
        !d.params.every((p) => isObj(p) && str(p.name) && optS(p.type)))
    )
      return false;
  }
  if (!optS(value.terms) || !optS(value.fields)) return false;
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
      return false;
  }
  for (const x of typeRefs as unknown[])
    if (!isObj(x) || !str(x.name, RECORD_CAPS.name) || !line(x.line) || !inScope(x.scope)) return false;
  for (const x of diagnostics as unknown[])
    if (!isObj(x) || !line(x.line) || !optLine(x.end) || !str(x.message, 200)) return false;
  return true;
}

/**
 * True when the calls and bindings of `value` have the shape extraction produces, for a record of
 * `n` definitions and `lines` lines (see checkRecord).
 */
function checkTail(value: Record<string, unknown>, n: number, lines: number): boolean {
  const { calls, bindings } = value;
  if (!isList(calls) || !isList(bindings)) return false;
  const { inScope, line, optLine, col, str, optS, strs } = fieldChecks(n, lines);
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
      return false;
    if (
      !strs(x.args) ||
      !optLine(x.end) ||
      !(x.argc === undefined || (isInt(x.argc) && x.argc >= 0 && x.argc <= RECORD_CAPS.list)) ||
      !(x.protocol === undefined || x.protocol === true)
    )
      return false;
  }
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
      return false;
    if (
      !optS(x.receiver) ||
      !optS(x.type) ||
      !optS(x.value) ||
      !optS(x.alias) ||
      !optS(x.iter) ||
      !optS(x.literal) ||
      !(x.deref === undefined || x.deref === true)
    )
      return false;
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
      return false;
  }
  return true;
}

/** A record as stored: without its path, since identical files share one record. */
export type StoredRecord = Omit<FileRecord, "path">;

/*
 * How a record is stored: its JSON with `calls` and `bindings` last, behind a line break (JSON
 * allows one between members, and JSON.stringify never writes one, in a string or out), so the
 * stored text is still one JSON value and its one break splits it. A load decodes and checks the
 * head before the break (definitions, imports, type references, diagnostics: all that a graph made
 * from derived.bin and most answers read) and keeps the rest as bytes, decoded and checked when
 * `calls` or `bindings` is first read (call resolution, routes, dataflow, impact, …). Those two are
 * 55% of django's 13.4 MB of records; an in-process `locate` on django decodes none of them
 * (docs/benchmarks.md). Text without the break (a record edited by hand) is read whole, as before.
 */
const BREAK = 0x0a;
const COMMA = 0x2c;

/** The stored JSON text of a record (see BREAK): what `decodeRecord` splits again. */
function recordJson(record: FileRecord | StoredRecord): string {
  const { path: _path, calls, bindings, ...head } = record as FileRecord;
  const text = JSON.stringify(head);
  return `${text.slice(0, -1)},\n${JSON.stringify({ calls, bindings }).slice(1)}`;
}

/** The calls and bindings of a record loaded without them, held until first read. */
interface Tail {
  bytes: Uint8Array;
  /** Whether to check their shape (bytes read from a store) or trust them (made in this process). */
  check: boolean;
}
const tails = new WeakMap<FileRecord, Tail>();

/** Decodes the tail `record` holds into plain data properties (replacing the accessors). */
function settleTail(record: FileRecord): void {
  const tail = tails.get(record);
  if (!tail) return;
  let value: unknown;
  try {
    value = JSON.parse(`{${decoder.decode(tail.bytes)}`);
  } catch {
    value = undefined;
  }
  if (!isObj(value) || !(tail.check ? checkTail(value, record.definitions.length, record.lines) : true))
    throw damagedRecord(record.path);
  tails.delete(record);
  const data = (v: unknown) => ({ value: v, writable: true, enumerable: true, configurable: true });
  Object.defineProperties(record, { calls: data(value.calls), bindings: data(value.bindings) });
}

/**
 * The error a record whose calls or bindings fail their check throws when they are read (bytes a
 * store returned whole, under a good checksum, and yet not what extraction writes). The engine
 * makes the record again from its file and answers once more (engine.ts); the error reaches the
 * caller only if that fails too.
 */
function damagedRecord(path: string): EngineError {
  return new EngineError("no_index", `The index record of ${path} is damaged: its calls do not read back.`, {
    hint: "Ask again: the record is made again from its file. If this persists, delete the cache folder.",
    data: { paths: [path], records: true },
  });
}

/** Whether the calls and bindings of `record` read back (decoding them now when they are held). */
export function readsWhole(record: FileRecord): boolean {
  try {
    settleTail(record);
    return true;
  } catch (error) {
    if (isDamagedRecord(error)) return false;
    throw error;
  }
}

/** True for the error of a record whose calls or bindings did not read back (see damagedRecord). */
export function isDamagedRecord(error: unknown): error is EngineError<"no_index"> {
  return error instanceof EngineError && error.code === "no_index" && error.data?.records === true;
}

const TAIL_ACCESSORS: PropertyDescriptorMap = {
  calls: {
    get(this: FileRecord) {
      settleTail(this);
      return this.calls;
    },
    enumerable: true,
    configurable: true,
  },
  bindings: {
    get(this: FileRecord) {
      settleTail(this);
      return this.bindings;
    },
    enumerable: true,
    configurable: true,
  },
};

/**
 * The record of stored JSON bytes `inner` (unsealed) for `path`: its head decoded now (and
 * checked, with `check`), its calls and bindings when first read (see BREAK); undefined when the
 * head does not read back.
 */
function recordOf(inner: Uint8Array, path: string, check: boolean): FileRecord | undefined {
  const at = inner.indexOf(BREAK);
  if (at < 1 || inner[at - 1] !== COMMA) return wholeRecord(inner, path, check);
  let head: unknown;
  try {
    head = JSON.parse(`${decoder.decode(inner.subarray(0, at - 1))}}`);
  } catch {
    return undefined;
  }
  if (!(check ? checkHead(head) : isObj(head))) return undefined;
  const record = head as unknown as FileRecord;
  record.path = path;
  tails.set(record, { bytes: inner.slice(at + 1), check });
  return Object.defineProperties(record, TAIL_ACCESSORS);
}

/** The record of JSON bytes without a break, decoded and checked whole. */
function wholeRecord(inner: Uint8Array, path: string, check: boolean): FileRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(inner));
  } catch {
    return undefined;
  }
  const stored = check ? checkRecord(value) : isObj(value) ? (value as unknown as StoredRecord) : undefined;
  if (!stored) return undefined;
  (stored as FileRecord).path = path;
  return stored as FileRecord;
}

/** The record stored under sealed `bytes`, for the file at `path`; undefined when damaged. */
export function decodeRecord(bytes: Uint8Array | undefined, path: string): FileRecord | undefined {
  const inner = unseal(bytes);
  return inner && recordOf(inner, path, true);
}

/** The sealed stored bytes of a record (JSON, see BREAK). */
export function encodeRecord(record: FileRecord | StoredRecord): Uint8Array {
  return sealText(recordJson(record));
}

/**
 * The bytes a fresh record is stored as, and the record to keep in memory: the one those bytes
 * decode to, not the one extraction built. Extracted strings are views into the file's text (V8
 * keeps a slice of 13+ characters as a pointer into its parent), so an extracted record pins its
 * whole source, and its grown arrays carry slack. On a 6,500-file tree the decoded records took
 * 129 MB of heap where the extracted ones took 248 MB. It is also the form a later run loads.
 */
export function storedForm(record: FileRecord): { bytes: Uint8Array; record: FileRecord } {
  const bytes = seal(encoder.encode(recordJson(record)));
  return { bytes, record: freshRecord(bytes, record.path)! };
}

/** The stored bytes of a fresh record alone: what a parse worker sends back (see parse-pool.ts). */
export function storedBytes(record: FileRecord): Uint8Array {
  return encodeRecord(record);
}

/**
 * The in-memory record of bytes `storedBytes` made in this process's own code (a parse worker's
 * reply, handed over in memory), without the checksum and shape checks a record read from the
 * store gets: it equals what `storedForm` keeps for the same record. Those checks guard against
 * disks, and on the engine's thread they would cost a CRC pass over every record for nothing.
 */
export function freshRecord(bytes: Uint8Array, path: string): FileRecord | undefined {
  const inner = sealedContent(bytes);
  return inner && recordOf(inner, path, false);
}
