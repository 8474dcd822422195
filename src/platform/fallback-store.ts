/**
 * A Store wrapper for storage that may refuse writes (a read-only cache folder, Deno without
 * --allow-write, a full or refused browser storage): the first refused write switches it to
 * memory, says so once, and the engine carries on. Whatever the storage already holds stays
 * readable. Each host decides what counts as a refusal; the browser passes its own test.
 */
import { isEngineError } from "../shared/errors.ts";
import type { DiskStore } from "./disk-store.ts";
import { MemoryStore } from "./memory/index.ts";
import { checkStoreKey } from "./store-key.ts";
import type { Logger, Store } from "../core/ports.ts";

/** Codes meaning "this folder takes no writes": read-only, not ours to write, or full. */
const REFUSED_CODES = new Set(["EROFS", "EACCES", "EPERM", "ENOSPC", "EDQUOT"]);
const REFUSED_NAMES = new Set(["NotCapable", "PermissionDenied"]);

/**
 * True when `error` means "this folder may not be written (or read) by us", not a broken disk. The
 * native error may sit in `cause`: node:fs under Deno reports a missing --allow-write as a
 * NotCapable error without an errno code, which NodeStore wraps as `io_error`.
 */
export function isWriteRefused(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; name?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (isEngineError(e, "read_only", "permission_denied", "cache_unavailable")) return true;
    if (
      (typeof e.code === "string" && REFUSED_CODES.has(e.code)) ||
      (typeof e.name === "string" && REFUSED_NAMES.has(e.name))
    )
      return true;
  }
  return false;
}

/** Why the folder was refused, in a few words for the one-line notice. */
export function refusalReason(error: unknown): string {
  for (
    let e = error as { name?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.name === "NotCapable")
      return `Deno was started without ${/--allow-[a-z-]+/.exec(String(e.message))?.[0] ?? "--allow-write"}`;
  }
  if (isEngineError(error)) {
    const flag = error.code === "permission_denied" ? error.data.flag : undefined;
    if (typeof flag === "string") return `Deno was started without ${flag}`;
    const native = causeCode(error);
    if (native === "ENOSPC" || native === "EDQUOT") return "the disk is full";
    return error.code === "read_only"
      ? "read-only file system"
      : error.code === "cache_unavailable"
        ? "its folder is gone"
        : "permission denied";
  }
  const code = causeCode(error);
  return code === "EROFS"
    ? "read-only file system"
    : code === "ENOSPC" || code === "EDQUOT"
      ? "the disk is full"
      : "permission denied";
}

/** The first errno-style code on an error or its causes. */
function causeCode(error: unknown): string | undefined {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)) return e.code;
  }
  return undefined;
}

/**
 * Wraps `inner`. While the folder accepts writes this is `inner` itself; after the first refusal
 * (`read_only` / `permission_denied`, or the native EROFS / EACCES / EPERM / Deno NotCapable),
 * writes and deletes go to memory and reads see memory first, then `inner`.
 */
export class FallbackStore implements Store {
  private memory: Map<string, Uint8Array> | undefined;
  /** Keys deleted while in memory mode: `inner` may still hold them. */
  private readonly deleted = new Set<string>();

  /**
   * @param onFallback called once, with the first refusal
   * @param isRefused what counts as a refusal (then: memory) rather than a fault (then: thrown)
   */
  constructor(
    readonly inner: Store,
    private readonly onFallback: (error: unknown) => void,
    private readonly isRefused: (error: unknown) => boolean = isWriteRefused,
  ) {}

  /** The first refusal, once there was one. */
  refusal: unknown;

  /** The storage, and once writes were refused, a word that nothing is kept there. */
  get label(): string {
    return this.memory ? `memory (${this.inner.label} is not writable; nothing is saved)` : this.inner.label;
  }

  /** True once the store has switched to memory. */
  get inMemory(): boolean {
    return this.memory !== undefined;
  }

  protected fallBack(error: unknown): Map<string, Uint8Array> {
    if (!this.memory) {
      this.memory = new Map();
      this.refusal = error;
      this.onFallback(error);
    }
    return this.memory;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkStoreKey(key);
    if (this.memory) {
      const value = this.memory.get(key);
      if (value) return value.slice();
      if (this.deleted.has(key)) return undefined;
      return this.inner.get(key).catch(() => undefined);
    }
    try {
      return await this.inner.get(key);
    } catch (error) {
      if (!this.isRefused(error)) throw error;
      this.fallBack(error);
      return undefined;
    }
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    checkStoreKey(key);
    if (!this.memory) {
      try {
        return await this.inner.set(key, value);
      } catch (error) {
        if (!this.isRefused(error)) throw error;
        this.fallBack(error);
      }
    }
    this.memory!.set(key, value.slice());
    this.deleted.delete(key);
  }

  async delete(key: string): Promise<void> {
    checkStoreKey(key);
    if (!this.memory) {
      try {
        return await this.inner.delete(key);
      } catch (error) {
        if (!this.isRefused(error)) throw error;
        this.fallBack(error);
      }
    }
    this.memory!.delete(key);
    this.deleted.add(key);
  }

  /**
   * A value the engine can rebuild (Store.keep): written through to `inner` and landed, or dropped
   * when `inner` refuses it (or the store is in memory already), with no notice and no switch to
   * memory. Other failures are thrown, as `set` throws them.
   */
  async keep(key: string, value: Uint8Array): Promise<boolean> {
    checkStoreKey(key);
    if (this.memory) return false;
    try {
      await this.inner.set(key, value);
      await this.inner.flush?.();
      return true;
    } catch (error) {
      if (this.isRefused(error)) return false;
      throw error;
    }
  }

  /** Waits for what `inner` acknowledged before it landed (a packed disk store's batches). */
  async flush(): Promise<void> {
    if (this.memory) return;
    try {
      await this.inner.flush?.();
    } catch (error) {
      if (!this.isRefused(error)) throw error;
      this.fallBack(error); // the values that did not land stay readable from `inner`'s memory
    }
  }

  async keys(prefix = ""): Promise<string[]> {
    if (!this.memory) {
      try {
        return await this.inner.keys(prefix);
      } catch (error) {
        if (!this.isRefused(error)) throw error;
        this.fallBack(error);
      }
    }
    const memory = this.memory!;
    const onDisk = await this.inner.keys(prefix).catch(() => [] as string[]);
    const all = new Set(onDisk.filter((k) => !this.deleted.has(k)));
    for (const k of memory.keys()) if (k.startsWith(prefix)) all.add(k);
    return [...all].sort();
  }
}

/**
 * Wraps a host's disk store so a read-only cache folder degrades to memory. The notice goes to
 * `logger` as a warning when given, else one line on stderr.
 */
export function createFallbackStore(inner: Store, logger?: Logger): FallbackStore {
  return new FallbackStore(inner, (error) => {
    const message = fallbackMessage(inner.label, error);
    if (logger) logger.log("warn", message);
    else console.error(`codeslice: ${message}`);
  });
}

/** The one-line notice for a cache folder that refused a write. */
export function fallbackMessage(label: string, error: unknown): string {
  return (
    `cannot write the index cache ${label} (${refusalReason(error)}); indexing in memory, nothing is saved ` +
    `for the next run.`
  );
}

/**
 * Opens a host's cache folder. A folder given explicitly that is not codeslice's own is refused
 * (the error says why, and nothing is written); the default folder in that state, or one that
 * cannot be read, leaves the index in memory with a one-line notice, so the tool still answers.
 */
export async function openDiskCache(disk: DiskStore, options: { explicit: boolean; logger?: Logger }): Promise<Store> {
  try {
    await disk.open();
  } catch (error) {
    const refused = isEngineError(error, "cache_refused");
    if ((refused && options.explicit) || (!refused && !isWriteRefused(error))) throw error;
    const message =
      `${refused ? (error as Error).message : fallbackMessage(disk.label, error)}` +
      `${refused ? " Indexing in memory; nothing is saved for the next run." : ""}`;
    if (options.logger) options.logger.log("warn", message);
    else console.error(`codeslice: ${message}`);
    return new MemoryStore(`memory (${disk.label} is not usable; nothing is saved)`);
  }
  return createFallbackStore(disk, options.logger);
}
