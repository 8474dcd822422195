/**
 * Writes values into an OpfsStore as fast as it can and says which write was acknowledged and
 * which had landed, so a test can terminate it mid-write (what a reload does to the engine worker)
 * and look at what is left.
 */
import { openDirectory, OpfsStore } from "../../../src/platform/browser/opfs-store.ts";

/** The value written under key i: its bytes say which write they belong to and how long it is. */
export function valueFor(i: number, size: number): Uint8Array {
  return new Uint8Array(size + i * 97).fill((i % 250) + 1);
}

self.addEventListener("message", async (event: MessageEvent<{ path: string; count: number; size: number }>) => {
  const { path, count, size } = event.data;
  const store = new OpfsStore(await openDirectory(await navigator.storage.getDirectory(), path));
  for (let i = 0; i < count; i++) {
    // Overwrites (key i % 7) and first writes (k/i) both: each has its own way of going wrong.
    await Promise.all([store.set(`k/${i}`, valueFor(i, size)), store.set(`over/${i % 7}`, valueFor(i, size))]);
    // Every few writes, wait until they landed: `landed` says how far a reload cannot undo.
    if (i % 5 === 4) await store.flush();
    self.postMessage({ done: i, landed: i % 5 === 4 ? i : undefined });
  }
});
