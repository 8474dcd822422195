/** Memos with a size limit, for the graph's resolution passes. */

/** Entries a memo holds before it starts over (V8 refuses a Map past 2^24 entries). */
export const MEMO_LIMIT = 1 << 23;

/**
 * A memo that forgets everything when it reaches its limit: a memo is only a cache, and on the
 * Linux kernel the names looked up through its headers passed the 2^24 entries V8 allows a Map
 * (`graph` failed with "Map maximum size exceeded").
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit = MEMO_LIMIT) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}

/**
 * A memo keyed by a pair (file, name), as a map of maps: no key string is built per look-up (a
 * `file\0name` key was ~70 bytes for each of millions of entries on the Linux kernel, and hashed
 * afresh every time). Bounded like BoundedMap: at `limit` entries in all it forgets everything.
 */
export class PairMemo<A, B, V> {
  private readonly outer = new Map<A, Map<B, V>>();
  private count = 0;
  constructor(private readonly limit = MEMO_LIMIT) {}

  get size(): number {
    return this.count;
  }

  has(a: A, b: B): boolean {
    return this.outer.get(a)?.has(b) ?? false;
  }

  get(a: A, b: B): V | undefined {
    return this.outer.get(a)?.get(b);
  }

  set(a: A, b: B, value: V): this {
    let inner = this.outer.get(a);
    if (!inner?.has(b)) {
      if (this.count >= this.limit) {
        this.clear();
        inner = undefined;
      }
      if (!inner) this.outer.set(a, (inner = new Map()));
      this.count++;
    }
    inner.set(b, value);
    return this;
  }

  clear(): void {
    this.outer.clear();
    this.count = 0;
  }
}
