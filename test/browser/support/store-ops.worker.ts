/**
 * Runs an OpfsStore inside a dedicated worker (the engine worker's situation) and reports what it observed, for store-ownership.chromium.ts to judge:
 * round trips of every byte value, the empty value, a 1 MiB value, overwrites longer and shorter,
 * concurrent writes of one key, deletes, listings, healing, and what is left in the folder.
 */
import { openDirectory, OpfsStore } from "../../../src/platform/browser/opfs-store.ts";

type Iterable = FileSystemDirectoryHandle & { entries(): AsyncIterableIterator<[string, FileSystemHandle]> };

async function files(dir: FileSystemDirectoryHandle, base = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const [name, handle] of (dir as Iterable).entries()) {
    const path = base ? `${base}/${name}` : name;
    if (handle.kind === "directory") out.push(...(await files(handle as FileSystemDirectoryHandle, path)));
    else out.push(path);
  }
  return out.sort();
}

self.addEventListener("message", async (event: MessageEvent<{ path: string }>) => {
  try {
    const dir = await openDirectory(await navigator.storage.getDirectory(), event.data.path);
    const store = new OpfsStore(dir);
    const enc = (s: string) => new TextEncoder().encode(s);
    const all = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);
    const big = Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 31 + 7) % 251);
    await store.set("v1/records/ab/all.bin", all);
    await store.set("empty", new Uint8Array(0));
    await store.set("big", big);
    await store.set("over", enc("a first value, longer than the next"));
    await store.set("over", enc("short"));
    await store.set("grow", enc("s"));
    await store.set("grow", enc("a much longer second value"));
    const race = Array.from({ length: 8 }, (_, i) => enc(`race-${i}-${"x".repeat(i * 3000)}`));
    await Promise.all(race.map((v) => store.set("race", v)));
    await store.set("gone", enc("x"));
    await store.delete("gone");
    // A folder where a value goes, inside the store's own folder: healed.
    await openDirectory(dir, "healed/inner");
    await store.set("healed", enc("value"));
    await store.flush(); // what the page reads next must have landed
    const read = async (key: string) => {
      const v = await store.get(key);
      return v === undefined ? null : Array.from(v);
    };
    self.postMessage({
      all: await read("v1/records/ab/all.bin"),
      empty: await read("empty"),
      bigSame:
        (await store.get("big"))?.every((b, i) => b === big[i]) === true &&
        (await store.get("big"))?.length === big.length,
      over: await read("over"),
      grow: await read("grow"),
      race: await read("race"),
      gone: await read("gone"),
      healed: await read("healed"),
      keys: await store.keys(),
      files: await files(dir),
    });
  } catch (error) {
    self.postMessage({ error: String((error as Error)?.stack ?? error) });
  }
});
