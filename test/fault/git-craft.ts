/**
 * Hand-made git repositories for the fault suite: loose objects, packs with offset and reference
 * deltas, trees and commits written byte by byte, so a test can hold what `git` itself refuses to
 * write (tree entries named `..`, delta headers that lie, compression bombs).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { createDeflate, deflateSync } from "node:zlib";

export type Kind = "commit" | "tree" | "blob" | "tag";

/** Where a crafted git directory goes: a folder on disk, or a map of its files (relative to it) for a memory file system. */
export type GitDir = string | Map<string, Uint8Array>;

/** Writes `bytes` at `rel` under `gitdir`. */
export function put(gitdir: GitDir, rel: string, bytes: Uint8Array | string): void {
  const data = typeof bytes === "string" ? enc.encode(bytes) : bytes;
  if (typeof gitdir !== "string") {
    gitdir.set(rel, data);
    return;
  }
  const file = path.join(gitdir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
}
const TYPE_NUMBER: Record<Kind, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
const enc = new TextEncoder();

/** Git's id of an object of `kind` holding `body`. */
export function objectId(kind: Kind, body: Uint8Array): string {
  return createHash("sha1").update(`${kind} ${body.length}\0`).update(body).digest("hex");
}

/** Writes a loose object (any bytes as its body); returns its id, or `oid` when given (to lie). */
export function writeLoose(gitdir: GitDir, kind: Kind, body: Uint8Array | string, oid?: string): string {
  const bytes = typeof body === "string" ? enc.encode(body) : body;
  const id = oid ?? objectId(kind, bytes);
  put(
    gitdir,
    `objects/${id.slice(0, 2)}/${id.slice(2)}`,
    deflateSync(Buffer.concat([Buffer.from(`${kind} ${bytes.length}\0`), bytes])),
  );
  return id;
}

/** A loose blob of `size` zero bytes, deflated as it streams (a few hundred KB on disk per 256 MiB). */
export async function writeZeroBomb(gitdir: string, size: number): Promise<string> {
  const hash = createHash("sha1").update(`blob ${size}\0`);
  const chunk = Buffer.alloc(1 << 20);
  for (let done = 0; done < size; done += chunk.length)
    hash.update(done + chunk.length <= size ? chunk : chunk.subarray(0, size - done));
  const oid = hash.digest("hex");
  const file = path.join(gitdir, "objects", oid.slice(0, 2), oid.slice(2));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const out = fs.createWriteStream(file);
  const z = createDeflate({ level: 9 });
  z.pipe(out);
  const write = (b: Buffer) => new Promise<void>((resolve) => (z.write(b) ? resolve() : z.once("drain", resolve)));
  await write(Buffer.from(`blob ${size}\0`));
  for (let done = 0; done < size; done += chunk.length)
    await write(done + chunk.length <= size ? chunk : chunk.subarray(0, size - done));
  await new Promise<void>((resolve) => {
    out.on("close", resolve);
    z.end();
  });
  return oid;
}

/** A tree's bytes from its entries (written in the order given: a test may want them unsorted). */
export function treeBytes(entries: { mode: string; name: string; oid: string }[]): Uint8Array {
  const parts: Buffer[] = [];
  for (const e of entries) parts.push(Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.oid, "hex"));
  return Buffer.concat(parts);
}

export function commitBody(tree: string, parents: string[] = [], message = "commit"): string {
  return `tree ${tree}\n${parents.map((p) => `parent ${p}\n`).join("")}author t <t@example.com> 1700000000 +0000\ncommitter t <t@example.com> 1700000000 +0000\n\n${message}\n`;
}

/** An empty repository at `root` (HEAD on refs/heads/main); returns its git dir. */
export function initRepo(root: string): string {
  const gitdir = path.join(root, ".git");
  for (const d of ["objects/pack", "refs/heads", "refs/tags"]) fs.mkdirSync(path.join(gitdir, d), { recursive: true });
  fs.writeFileSync(path.join(gitdir, "HEAD"), "ref: refs/heads/main\n");
  fs.writeFileSync(path.join(gitdir, "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
  return gitdir;
}

/** Writes a commit of `tree` and points `ref` (default refs/heads/main) at it. */
export function commit(gitdir: GitDir, tree: string, parents: string[] = [], ref = "refs/heads/main"): string {
  const oid = writeLoose(gitdir, "commit", commitBody(tree, parents));
  put(gitdir, ref, `${oid}\n`);
  return oid;
}

/** Git's variable-length size as a delta header writes it. */
export function deltaVarint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

/** One entry of a hand-made pack. */
export type PackEntry =
  | { kind: Kind; body: Uint8Array; oid?: string; declaredSize?: number }
  | { refDelta: string; delta: Uint8Array; oid: string; declaredSize?: number }
  | { ofsDeltaOf: number; delta: Uint8Array; oid: string; declaredSize?: number };

function entryHeader(type: number, size: number): number[] {
  const out: number[] = [];
  let b = (type << 4) | (size & 15);
  size = Math.floor(size / 16);
  while (size > 0) {
    out.push(b | 0x80);
    b = size & 0x7f;
    size = Math.floor(size / 128);
  }
  out.push(b);
  return out;
}

/** Writes objects/pack/pack-<name>.{pack,idx} holding `entries` (index v2); returns each entry's id. */
export function writePack(gitdir: GitDir, entries: PackEntry[], name = "a".repeat(40)): string[] {
  const chunks: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.write("PACK", 0);
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(entries.length, 8);
  chunks.push(header);
  let offset = 12;
  const offsets: number[] = [];
  const oids: string[] = [];
  for (const e of entries) {
    offsets.push(offset);
    let head: number[];
    let data: Uint8Array;
    if ("kind" in e) {
      head = entryHeader(TYPE_NUMBER[e.kind], e.declaredSize ?? e.body.length);
      data = e.body;
      oids.push(e.oid ?? objectId(e.kind, e.body));
    } else if ("refDelta" in e) {
      head = [...entryHeader(7, e.declaredSize ?? e.delta.length), ...Buffer.from(e.refDelta, "hex")];
      data = e.delta;
      oids.push(e.oid);
    } else {
      const back = offset - offsets[e.ofsDeltaOf]!;
      const ofs: number[] = [back & 0x7f];
      let n = back >> 7;
      while (n > 0) {
        n -= 1;
        ofs.unshift(0x80 | (n & 0x7f));
        n >>= 7;
      }
      head = [...entryHeader(6, e.declaredSize ?? e.delta.length), ...ofs];
      data = e.delta;
      oids.push(e.oid);
    }
    const bytes = Buffer.concat([Buffer.from(head), deflateSync(data)]);
    chunks.push(bytes);
    offset += bytes.length;
  }
  const body = Buffer.concat(chunks);
  const pack = Buffer.concat([body, createHash("sha1").update(body).digest()]);
  const order = oids
    .map((oid, i) => ({ oid, offset: offsets[i]! }))
    .sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const idx: Buffer[] = [Buffer.from([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2])];
  const fanout = Buffer.alloc(1024);
  for (let b = 0; b < 256; b++)
    fanout.writeUInt32BE(order.filter((o) => parseInt(o.oid.slice(0, 2), 16) <= b).length, 4 * b);
  idx.push(fanout, ...order.map((o) => Buffer.from(o.oid, "hex")), Buffer.alloc(4 * order.length));
  const offs = Buffer.alloc(4 * order.length);
  order.forEach((o, i) => offs.writeUInt32BE(o.offset, 4 * i));
  idx.push(offs, pack.subarray(pack.length - 20));
  const idxBody = Buffer.concat(idx);
  put(gitdir, `objects/pack/pack-${name}.pack`, pack);
  put(gitdir, `objects/pack/pack-${name}.idx`, Buffer.concat([idxBody, createHash("sha1").update(idxBody).digest()]));
  return oids;
}
