/**
 * A small zip reader for dropped archives, with the limits a browser tab needs: a cap on entries
 * and on total unpacked bytes, enforced on the bytes actually inflated (a zip bomb can lie in its
 * headers), and entries that escape the archive's root refused. Inflation uses the platform's
 * `DecompressionStream("deflate-raw")`, so there is no dependency and no whole-file buffering.
 */
import { EngineError, throwIfAborted } from "../../shared/errors.ts";
import { normalizeRelative } from "../../shared/paths.ts";
import { skipByName } from "../../shared/skip-rules.ts";

/** Limits for one archive. */
export interface ZipLimits {
  /** Most file entries kept (default 100,000). */
  maxFiles?: number;
  /** Most bytes unpacked in total (default 256 MiB). */
  maxTotalBytes?: number;
  /** Entries larger than this are listed as skipped, not unpacked (default 1 MiB, the engine's own limit). */
  maxFileBytes?: number;
}

/** An entry left in the archive, and why. */
export interface ZipSkipped {
  path: string;
  reason: "too_large" | "binary" | "encrypted" | "unsupported_method" | "unsafe_path" | "symlink";
  detail?: string;
}

/** What came out of an archive. */
export interface UnzipResult {
  /** Unpacked files by workspace-relative path. */
  files: Record<string, Uint8Array>;
  skipped: ZipSkipped[];
  /** Bytes unpacked. */
  totalBytes: number;
  /** The single top folder every entry sat in and which was taken as the root ("" when none). */
  stripped: string;
}

/** Options for {@link unzip}. */
export interface UnzipOptions extends ZipLimits {
  /** For messages: the archive's file name. */
  name?: string;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export const DEFAULT_ZIP_LIMITS: Required<ZipLimits> = {
  maxFiles: 100_000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxFileBytes: 1024 * 1024,
};

interface CentralEntry {
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  unixMode: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function notAZip(name: string, detail: string): EngineError {
  return new EngineError("invalid_argument", `${name} is not a zip archive (${detail}).`, {
    hint: "Drop a .zip file, or the project's folder itself.",
    data: { reason: "not_a_zip", name },
  });
}

function damaged(name: string, detail: string): EngineError {
  return new EngineError("invalid_argument", `${name} is a damaged zip archive (${detail}).`, {
    hint: "Re-create the archive, or open the folder instead.",
    data: { reason: "damaged_zip", name },
  });
}

const fmtMiB = (n: number) => `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MiB`;

function tooBig(name: string, limits: Required<ZipLimits>, detail: { files?: number; bytes?: number }): EngineError {
  const files = detail.files !== undefined;
  return new EngineError(
    "invalid_argument",
    files
      ? `${name} holds ${detail.files!.toLocaleString("en")} files; the limit is ` +
          `${limits.maxFiles.toLocaleString("en")}.`
      : `${name} unpacks to more than ${fmtMiB(limits.maxTotalBytes)} (the limit), so it was not opened.`,
    {
      hint: files
        ? "Zip a smaller part of the project, or open the folder instead."
        : "This looks like a zip bomb, or a project with large non-source files; zip only the source.",
      data: { reason: files ? "too_many_files" : "too_large", name, ...detail, limits },
    },
  );
}

/** Finds the central directory: offset and entry count, zip64 included. */
function locateCentral(view: DataView, name: string): { offset: number; count: number } {
  const len = view.byteLength;
  if (len < 22) throw notAZip(name, len === 0 ? "the file is empty" : "too short");
  // The end record sits within the last 22 + 65,535 (comment) bytes.
  let at = -1;
  for (let i = len - 22; i >= Math.max(0, len - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw notAZip(name, "no end-of-central-directory record");
  let count = view.getUint16(at + 10, true);
  let offset = view.getUint32(at + 16, true);
  if ((count === 0xffff || offset === 0xffffffff) && at >= 20 && view.getUint32(at - 20, true) === EOCD64_LOCATOR) {
    const rec = Number(view.getBigUint64(at - 20 + 8, true));
    if (rec + 56 > len || view.getUint32(rec, true) !== EOCD64) throw damaged(name, "bad zip64 end record");
    count = Number(view.getBigUint64(rec + 32, true));
    offset = Number(view.getBigUint64(rec + 48, true));
  }
  if (offset > len) throw damaged(name, "central directory outside the file");
  return { offset, count };
}

const utf8 = new TextDecoder("utf-8");
const latin1 = new TextDecoder("latin1");

function readCentral(bytes: Uint8Array, view: DataView, name: string): CentralEntry[] {
  const { offset, count } = locateCentral(view, name);
  const out: CentralEntry[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > view.byteLength || view.getUint32(p, true) !== CENTRAL)
      throw damaged(name, `central entry ${i + 1} of ${count} is missing`);
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    let compressedSize = view.getUint32(p + 20, true);
    let size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const madeBy = view.getUint16(p + 4, true) >> 8;
    const external = view.getUint32(p + 38, true);
    let localOffset = view.getUint32(p + 42, true);
    const rawName = bytes.subarray(p + 46, p + 46 + nameLen);
    const entryName = (flags & 0x800 ? utf8 : latin1).decode(rawName);
    // zip64 extra field: the 64-bit values, in order, for each 32-bit field that is 0xffffffff.
    let e = p + 46 + nameLen;
    const extraEnd = e + extraLen;
    while (e + 4 <= extraEnd) {
      const id = view.getUint16(e, true);
      const sz = view.getUint16(e + 2, true);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === 0xffffffff) (size = Number(view.getBigUint64(q, true))), (q += 8);
        if (compressedSize === 0xffffffff) (compressedSize = Number(view.getBigUint64(q, true))), (q += 8);
        if (localOffset === 0xffffffff) localOffset = Number(view.getBigUint64(q, true));
      }
      e += 4 + sz;
    }
    out.push({
      name: entryName,
      flags,
      method,
      compressedSize,
      size,
      localOffset,
      unixMode: madeBy === 3 ? external >>> 16 : 0,
    });
    p = extraEnd + commentLen;
  }
  return out;
}

/** Inflates `data`, failing as soon as more than `limit` bytes come out. */
async function inflate(data: Uint8Array, limit: number, onOverflow: () => EngineError): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("deflate-raw"));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw onOverflow();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/**
 * Unpacks a zip archive into memory within `limits`. Throws `invalid_argument` with
 * `data.reason` = `not_a_zip`, `damaged_zip`, `too_many_files` or `too_large`.
 */
export async function unzip(archive: Uint8Array, options: UnzipOptions = {}): Promise<UnzipResult> {
  const name = options.name ?? "The archive";
  const limits: Required<ZipLimits> = {
    maxFiles: options.maxFiles ?? DEFAULT_ZIP_LIMITS.maxFiles,
    maxTotalBytes: options.maxTotalBytes ?? DEFAULT_ZIP_LIMITS.maxTotalBytes,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_ZIP_LIMITS.maxFileBytes,
  };
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  const entries = readCentral(archive, view, name).filter((e) => !e.name.endsWith("/"));
  if (entries.length > limits.maxFiles) throw tooBig(name, limits, { files: entries.length });

  // One top folder shared by every entry (as in GitHub's "repo-main/" archives) becomes the root.
  const tops = new Set(entries.map((e) => (e.name.includes("/") ? e.name.slice(0, e.name.indexOf("/")) : "")));
  const stripped = tops.size === 1 && !tops.has("") ? [...tops][0]! : "";

  const files: Record<string, Uint8Array> = Object.create(null);
  const skipped: ZipSkipped[] = [];
  let totalBytes = 0;
  const kept: { entry: CentralEntry; path: string }[] = [];
  for (const entry of entries) {
    const path = normalizeRelative(stripped ? entry.name.slice(stripped.length + 1) : entry.name);
    if (path === undefined || path === "" || /^[a-zA-Z]:/.test(entry.name) || entry.name.includes("\0")) {
      skipped.push({ path: entry.name, reason: "unsafe_path", detail: "escapes the archive's root" });
    } else if ((entry.unixMode & 0o170000) === 0o120000) {
      skipped.push({ path, reason: "symlink" });
    } else if (entry.flags & 1) {
      skipped.push({ path, reason: "encrypted" });
    } else if (entry.method !== 0 && entry.method !== 8) {
      skipped.push({ path, reason: "unsupported_method", detail: `compression method ${entry.method}` });
    } else if (entry.size > limits.maxFileBytes) {
      skipped.push({ path, reason: "too_large", detail: `${entry.size} bytes` });
    } else if (skipByName(path) === "binary") {
      skipped.push({ path, reason: "binary" });
    } else {
      kept.push({ entry, path });
    }
  }
  // Honest headers that add up past the cap are refused before inflating anything, large entries
  // included: a classic bomb is a few huge entries, and saying so beats opening an empty project.
  const declared = entries.reduce((n, e) => n + e.size, 0);
  if (declared > limits.maxTotalBytes) throw tooBig(name, limits, { bytes: declared });

  let done = 0;
  let lastYield = Date.now();
  for (const { entry, path } of kept) {
    throwIfAborted(options.signal);
    const p = entry.localOffset;
    if (p + 30 > archive.length || view.getUint32(p, true) !== LOCAL)
      throw damaged(name, `no local header for ${entry.name}`);
    const start = p + 30 + view.getUint16(p + 26, true) + view.getUint16(p + 28, true);
    const data = archive.subarray(start, start + entry.compressedSize);
    if (data.length < entry.compressedSize) throw damaged(name, `${entry.name} is cut short`);
    // Headers may lie: inflate no more than the entry declared (which the checks above bounded).
    const room = entry.size;
    let content: Uint8Array;
    if (entry.method === 0) {
      content = data.slice();
    } else {
      try {
        content = await inflate(data, room, () =>
          damaged(name, `${entry.name} inflates past the size it declares, as zip bombs do`),
        );
      } catch (error) {
        if (error instanceof EngineError) throw error;
        throw damaged(name, `${entry.name} does not inflate: ${(error as Error).message}`);
      }
    }
    if (content.length !== entry.size)
      throw damaged(name, `${entry.name} unpacks to ${content.length} bytes, not the ${entry.size} it declares`);
    totalBytes += content.length;
    if (totalBytes > limits.maxTotalBytes) throw tooBig(name, limits, { bytes: totalBytes });
    files[path] = content;
    done++;
    if (Date.now() - lastYield > 50) {
      // Let the host see an abort message and paint progress.
      options.onProgress?.(done, kept.length);
      await new Promise((r) => setTimeout(r, 0));
      lastYield = Date.now();
    }
  }
  options.onProgress?.(done, kept.length);
  return { files, skipped, totalBytes, stripped };
}
