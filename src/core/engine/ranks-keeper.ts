/**
 * The tokenizer's tables kept in the index cache (core/budget/tokenizer.ts `RanksKeeper`): one
 * sealed value per encoding, for the build that wrote it (the front end's `buildId`, as derived.bin:
 * another build of codeslice, which may bring another gpt-tokenizer, imports the package's tables
 * afresh). What is read back is checked for its shape before an encoder is made from it; a value
 * damaged, cut, of another build or encoding reads as absent, and the tables are imported and kept
 * again.
 *
 * Layout, integers little-endian, then sealed (seal.ts):
 *
 *   u32 H, H bytes: UTF-8 JSON { format, build, encoding, count, bytes: [[rank, [byte, …]], …] }
 *   count × u32: the length (UTF-16 units) of each rank's string; 0 for a token that is not UTF-8
 *     (its bytes are in the header) and for a hole (no rank)
 *   the UTF-8 of every rank's string, end to end
 *
 * Not JSON: the strings cut from one decoded text cost 20 ms where JSON.parse of the same tables
 * took 60 (o200k_base, 199,998 ranks, on this project's machines under load).
 */
import type { Encoding, RanksKeeper } from "../budget/tokenizer.ts";
import type { Store } from "../ports.ts";
import { seal, unseal } from "./seal.ts";
import { SCHEMA_VERSION } from "./snapshot.ts";

/** Store key of the tables of `encoding`. */
export function ranksKey(encoding: Encoding): string {
  return `v${SCHEMA_VERSION}/tokenizer-${encoding}.bin`;
}

/** Bump when the layout changes. */
const RANKS_FORMAT = 1;
/** Entries an encoding's tables may have (o200k_base has 199,998; cl100k_base 100,256). */
const MAX_RANKS = 1 << 20;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Header {
  format: number;
  build: string;
  encoding: Encoding;
  count: number;
  bytes: [number, number[]][];
}

/** The sealed bytes of `ranks` (as gpt-tokenizer exports them) for `build` and `encoding`. */
export function encodeRanks(build: string, encoding: Encoding, ranks: readonly unknown[]): Uint8Array {
  const bytes: Header["bytes"] = [];
  const lengths = new Uint32Array(ranks.length);
  const texts: string[] = [];
  for (let i = 0; i < ranks.length; i++) {
    if (!(i in ranks)) continue;
    const r = ranks[i];
    if (typeof r === "string") {
      lengths[i] = r.length;
      texts.push(r);
    } else bytes.push([i, Array.from(r as ArrayLike<number>)]);
  }
  const header = encoder.encode(
    JSON.stringify({ format: RANKS_FORMAT, build, encoding, count: ranks.length, bytes } satisfies Header),
  );
  const text = encoder.encode(texts.join(""));
  const out = new Uint8Array(4 + header.length + 4 * ranks.length + text.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, header.length, true);
  out.set(header, 4);
  let at = 4 + header.length;
  for (const n of lengths) {
    view.setUint32(at, n, true);
    at += 4;
  }
  out.set(text, at);
  return seal(out);
}

/** The tables in sealed `sealed` when they are what `encodeRanks` wrote for `build` and `encoding`, else undefined. */
export function decodeRanks(sealed: Uint8Array | undefined, build: string, encoding: Encoding): unknown[] | undefined {
  const inner = unseal(sealed);
  if (!inner || inner.length < 4) return undefined;
  const view = new DataView(inner.buffer, inner.byteOffset, inner.length);
  const h = view.getUint32(0, true);
  if (4 + h > inner.length) return undefined;
  let header: Header;
  try {
    header = JSON.parse(decoder.decode(inner.subarray(4, 4 + h))) as Header;
  } catch {
    return undefined;
  }
  const { format, count, bytes } = header ?? {};
  if (format !== RANKS_FORMAT || header.build !== build || header.encoding !== encoding) return undefined;
  if (!Number.isInteger(count) || count < 1 || count > MAX_RANKS || !Array.isArray(bytes)) return undefined;
  const textAt = 4 + h + 4 * count;
  if (textAt > inner.length) return undefined;
  const binary = new Map<number, number[]>();
  for (const entry of bytes) {
    if (!Array.isArray(entry) || entry.length !== 2) return undefined;
    const [rank, b] = entry;
    if (!Number.isInteger(rank) || rank < 0 || rank >= count || binary.has(rank) || !Array.isArray(b) || !b.length)
      return undefined;
    if (!b.every((x) => Number.isInteger(x) && x >= 0 && x <= 255)) return undefined;
    binary.set(rank, b);
  }
  const text = decoder.decode(inner.subarray(textAt));
  // Pushed in order (a dense array, as the package's literal is), holes deleted after.
  const ranks: unknown[] = [];
  const holes: number[] = [];
  let at = 0;
  for (let i = 0, p = 4 + h; i < count; i++, p += 4) {
    const n = view.getUint32(p, true);
    if (n > 0 && binary.has(i)) return undefined;
    if (n === 0) {
      ranks.push(binary.get(i));
      if (!binary.has(i)) holes.push(i);
      continue;
    }
    if (at + n > text.length) return undefined;
    ranks.push(text.slice(at, (at += n)));
  }
  if (at !== text.length) return undefined;
  for (const i of holes) delete ranks[i];
  return ranks;
}

/** A keeper of the tokenizer's tables in `store`, for the build `build`. */
export function ranksKeeper(store: Store, build: string): RanksKeeper {
  return {
    async load(encoding) {
      return decodeRanks(await store.get(ranksKey(encoding)), build, encoding);
    },
    keep(encoding, ranks) {
      const bytes = encodeRanks(build, encoding, ranks);
      // keep, not set: a cache folder that refuses writes drops it without a word (derived.ts)
      void (store.keep ? store.keep(ranksKey(encoding), bytes) : store.set(ranksKey(encoding), bytes)).catch(() => {});
    },
  };
}
