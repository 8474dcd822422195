/** The cache folder over node:fs (see DiskStore): atomic writes, codeslice's own folder only. */
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  openSync,
  promises as fsp,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
  writevSync,
} from "node:fs";
import * as nodePath from "node:path";
import { DiskStore, type DiskOps, type DiskStoreOptions } from "../disk-store.ts";
import type { EntryKind } from "../../core/ports.ts";
import { mapNodeError } from "./node-file-system.ts";

let tmpCounter = 0;
const NONBLOCK: number = (fsConstants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0;

const kindOf = (d: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind =>
  d.isFile() ? "file" : d.isDirectory() ? "directory" : d.isSymbolicLink() ? "symlink" : "other";

/** node:fs as DiskStore operations. */
export const nodeDiskOps: DiskOps = {
  join: (base, rel) => (rel === "" ? base : nodePath.join(base, ...rel.split("/"))),
  dirname: (p) => nodePath.dirname(p),
  isInside: (p, root) => {
    const rel = nodePath.relative(root, p);
    return rel === "" || (!rel.startsWith("..") && !nodePath.isAbsolute(rel));
  },
  kind: async (p) => {
    try {
      return kindOf(await fsp.stat(p));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return "missing";
      throw mapNodeError(error, p);
    }
  },
  realpath: (p) => fsp.realpath(p),
  list: async (p) => (await fsp.readdir(p, { withFileTypes: true })).map((d) => ({ name: d.name, kind: kindOf(d) })),
  // Non-blocking open, then only a regular file is read: a named pipe where a value should be
  // would otherwise wait for a writer for ever (it reads as "no value" and is replaced).
  // Reads and writes of values are synchronous: a record is a few kilobytes, and the promise API's
  // file handles cost more CPU than the IO (a cold index writes and reads one per source file).
  readFile: async (p) => {
    const fd = openSync(p, fsConstants.O_RDONLY | NONBLOCK);
    try {
      if (!fstatSync(fd).isFile()) throw Object.assign(new Error(`not a regular file: ${p}`), { code: "EISDIR" });
      const buf = readFileSync(fd);
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } finally {
      closeSync(fd);
    }
  },
  // A pack's table is its first bytes: read with the size in one open, not the whole pack.
  readAt: async (p, offset, length) => {
    const fd = openSync(p, fsConstants.O_RDONLY | NONBLOCK);
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw Object.assign(new Error(`not a regular file: ${p}`), { code: "EISDIR" });
      const bytes = new Uint8Array(Math.max(0, Math.min(length, st.size - offset)));
      let at = 0;
      while (at < bytes.length) {
        const n = readSync(fd, bytes, at, bytes.length - at, offset + at);
        if (n === 0) break;
        at += n;
      }
      return { bytes: at === bytes.length ? bytes : bytes.subarray(0, at), size: st.size };
    } finally {
      closeSync(fd);
    }
  },
  modifiedMs: async (p) => statSync(p).mtimeMs,
  writeFile: async (p, bytes, createNew) => writeFileSync(p, bytes, createNew ? { flag: "wx" } : undefined),
  // One writev per pack (its table and its records as they are), continued where a write stopped short.
  writeFileParts: async (p, parts) => {
    const fd = openSync(p, "w");
    try {
      const rest = parts.filter((part) => part.length > 0);
      while (rest.length > 0) {
        let written = writevSync(fd, rest);
        if (written === 0) throw Object.assign(new Error(`nothing written to ${p}`), { code: "EIO" });
        while (rest.length > 0 && written >= rest[0]!.length) written -= rest.shift()!.length;
        if (rest.length > 0 && written > 0) rest[0] = rest[0]!.subarray(written);
      }
    } finally {
      closeSync(fd);
    }
  },
  mkdir: async (p) => {
    await fsp.mkdir(p);
  },
  rename: async (a, b) => renameSync(a, b),
  remove: (p, recursive) => (recursive ? fsp.rm(p, { recursive: true, force: true }) : fsp.unlink(p)),
  code: (error) => (error as NodeJS.ErrnoException | undefined)?.code,
  mapError: mapNodeError,
  // Dot-named, so a temp file is never listed as a key (keys never start with ".").
  tempFor: (target) =>
    nodePath.join(nodePath.dirname(target), `.${nodePath.basename(target)}.${process.pid}.${tmpCounter++}.tmp`),
};

/**
 * A Store in the cache folder `dir`, created on first write with a cache tag and a `.gitignore` of
 * `*`. A folder that holds anything codeslice did not write is refused (`cache_refused`).
 */
export class NodeStore extends DiskStore {
  constructor(dir: string, options: DiskStoreOptions = {}) {
    super(nodeDiskOps, nodePath.resolve(dir), options);
  }
}
