/**
 * An index other machines load, in the browser: the Node CLI builds an artifact for a project (as
 * a CI job would, through the `cliArtifact` command), and the engine in a Web Worker imports it
 * through the worker protocol and answers with no parse, as the CLI answers on the machine that
 * built it. The worker's own export is the same bytes, and a bad artifact reaches the page as the
 * engine's error, code, hint and data intact, with nothing written.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { commands } from "vitest/browser";
import { createWorkerEngine, type WorkerEngine } from "../../src/worker/index.ts";
import type { CliArtifact } from "./support/node-commands.ts";

/** Python and TypeScript: calls within and across files, inheritance on both sides. */
const PROJECT: Record<string, string> = {
  "shop/__init__.py": "",
  "shop/base.py":
    'class Animal:\n    """An animal."""\n\n    def sound(self):\n        return "..."\n\n    def speak(self):\n        return self.sound()\n',
  "shop/dog.py":
    'from shop.base import Animal\n\n\nclass Dog(Animal):\n    def sound(self):\n        return "woof"\n\n\ndef make():\n    return Dog().speak()\n\n\ndef kennel():\n    return [make() for _ in range(3)]\n',
  "web/util.ts": 'export function helper(s: string): string {\n  return s + "!";\n}\n',
  "web/view.ts":
    'import { helper } from "./util";\n\nexport interface Drawable {}\n\nexport class View implements Drawable {\n  render(): string {\n    return helper("x");\n  }\n}\n',
  "README.md": "# shop\n",
};
const QUERIES = [
  ["callers", "shop.dog.make"],
  ["callers", "helper"],
  ["context", "shop.dog.make", "--budget", "600"],
];

const cli = (
  commands as unknown as { cliArtifact(files: Record<string, string>, queries: string[][]): Promise<CliArtifact> }
).cliArtifact;
const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

let built: CliArtifact;
let artifact: Uint8Array;
beforeAll(async () => {
  built = await cli(PROJECT, QUERIES);
  artifact = fromBase64(built.artifact);
}, 300_000);

let engines: WorkerEngine[] = [];
afterEach(() => {
  for (const e of engines) e.terminate();
  engines = [];
});

function start(): WorkerEngine {
  const engine = createWorkerEngine(
    new Worker(new URL("./support/engine.worker.ts", import.meta.url), { type: "module" }),
  );
  engines.push(engine);
  return engine;
}

/** A fresh "machine": a new worker over the project's files and an empty store. */
async function fresh(store: Parameters<WorkerEngine["open"]>[1] = { kind: "memory" }): Promise<WorkerEngine> {
  const engine = start();
  await engine.open({ kind: "files", files: PROJECT, label: "shop" }, store);
  return engine;
}

describe("importIndex / exportIndex through the worker protocol", () => {
  it("an artifact the Node CLI built is loaded with no parse, and answers as the CLI does", async () => {
    expect(built.index).toMatchObject({ parsed: 5, exported: { records: 5, files: 6 } });
    const engine = await fresh();
    const summary = await engine.importIndex(artifact);
    expect(summary).toEqual({ bytes: artifact.length, files: 6, records: 5, languages: { python: 3, typescript: 2 } });
    const index = await engine.index();
    expect(index).toMatchObject({ parsed: 0, reused: 5, sourceFiles: 5, symbols: built.index.symbols });
    expect(await engine.callers("shop.dog.make")).toEqual(built.answers[0]);
    expect(await engine.callers("helper")).toEqual(built.answers[1]);
    expect(await engine.context("shop.dog.make", { budget: 600 })).toEqual(built.answers[2]);
  });

  it("a File picked on the page imports as bytes do, into OPFS, and a new worker re-opens it with no parse", async () => {
    const namespace = `artifact-test-${Date.now().toString(36)}`;
    const first = await fresh({ kind: "browser", namespace });
    await first.importIndex(new File([artifact as BlobPart], "shop.csidx"));
    expect(await first.index()).toMatchObject({ parsed: 0, reused: 5 });
    first.terminate();
    const second = await fresh({ kind: "browser", namespace });
    expect(await second.index()).toMatchObject({ parsed: 0, reused: 5 });
    const root = await navigator.storage.getDirectory();
    await (await (await root.getDirectoryHandle("codeslice")).getDirectoryHandle("index")).removeEntry(namespace, {
      recursive: true,
    });
  });

  it("the worker's export is the Node CLI's artifact byte for byte, and loads into another worker", async () => {
    const exporter = await fresh();
    expect((await exporter.index()).parsed).toBe(5);
    const out = await exporter.exportIndex();
    expect(out.summary).toMatchObject({ files: 6, records: 5, bytes: out.bytes.length });
    expect(out.bytes).toEqual(artifact);
    const importer = await fresh();
    await importer.importIndex(out.bytes);
    expect((await importer.index()).parsed).toBe(0);
  });

  describe("a bad artifact reaches the page as the engine's error, and nothing is written", () => {
    const refuse = async (bad: Uint8Array | Blob, code: string) => {
      const engine = await fresh();
      const error = await engine.importIndex(bad).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ name: "EngineError", code });
      expect((error as { hint?: string }).hint).toBeTruthy();
      // The store is as it was: the index that follows parses every file.
      expect((await engine.index()).parsed).toBe(5);
      return error as { data: Record<string, unknown> };
    };

    it("foreign: not an artifact at all", async () => {
      await refuse(new TextEncoder().encode("PK\u0003\u0004 a zip, not an index"), "artifact_foreign");
    });

    it("truncated", async () => {
      expect((await refuse(artifact.subarray(0, artifact.length - 40), "artifact_truncated")).data).toEqual({
        expectedBytes: artifact.length,
        actualBytes: artifact.length - 40,
      });
    });

    it("corrupt: a flipped byte", async () => {
      const bad = Uint8Array.from(artifact);
      bad[Math.floor(bad.length / 2)]! ^= 0x01;
      expect((await refuse(new Blob([bad as BlobPart]), "artifact_corrupt")).data.reason).toMatch(/checksum/);
    });

    it("another schema version, with checksums that hold", async () => {
      const bad = Uint8Array.from(artifact);
      const view = new DataView(bad.buffer);
      const schema = view.getUint32(12, true);
      view.setUint32(12, schema - 1, true);
      view.setUint32(28, crc32(bad.subarray(0, 28)), true);
      bad.set(new Uint8Array(await crypto.subtle.digest("SHA-256", bad.subarray(0, bad.length - 32))), bad.length - 32);
      expect((await refuse(bad, "artifact_version_mismatch")).data).toEqual({
        schema: { artifact: schema - 1, engine: schema },
      });
    });

    it("something that is not bytes at all", async () => {
      const engine = await fresh();
      await expect(engine.importIndex("shop.csidx" as never)).rejects.toMatchObject({
        name: "EngineError",
        code: "invalid_argument",
      });
    });
  });
});

/** CRC-32 (IEEE), for making an artifact's preamble checksum again. */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
