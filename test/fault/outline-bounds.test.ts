/**
 * The outline resource stays bounded (issue 22, items 7 and 4): a file of 3,000 nested functions
 * took 41 s and a 1.1-million-character reply while a ping waited; a record with a 50,000-deep
 * parent chain (from a crafted artifact) overflowed the resource's stack. And SCIP of that chain
 * stays linear. MCP client and server in process, memory platforms, real grammars.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { encodeArtifact } from "../../src/core/engine/artifact.ts";
import {
  SNAPSHOT_KEY,
  decodeJson,
  encodeJson,
  type Snapshot,
  type StoredRecord,
} from "../../src/core/engine/snapshot.ts";
import { outlineUri } from "../../src/mcp/resources.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { wasm } from "../support/platform.ts";
import { connect } from "../mcp/support.ts";

const textOf = (r: { contents: { text?: unknown }[] }) => r.contents.map((c) => String(c.text ?? "")).join("\n");

/** `depth` TypeScript functions, each nested in the previous one. */
function nestedTs(depth: number): string {
  const open = Array.from({ length: depth }, (_, i) => `function f${i}(x${i}: number) { g${i}(x${i});`);
  return `${open.join("\n")}\nreturn 1;\n${"}\n".repeat(depth)}`;
}

describe("the outline resource", () => {
  it("of 3,000 nested functions answers within seconds, bounded in size, and a ping is not held behind it", async () => {
    const engine = createEngine({
      fs: new MemoryFileSystem({ "deep.ts": nestedTs(3000) }, "/p"),
      store: new MemoryStore(),
      wasm,
    });
    await engine.index();
    const c = await connect(engine);
    try {
      const started = performance.now();
      const [read] = await Promise.all([c.client.readResource({ uri: outlineUri("deep.ts") }), c.client.ping()]);
      const ms = performance.now() - started;
      const text = textOf(read);
      expect(text).toMatch(/^# deep\.ts \(typescript, 6,?002 lines, 3,?000 symbols\)/);
      expect(text).toContain("(depth 25) - 26-");
      expect(text).toMatch(/more not shown: over the server's response cap\)$/);
      expect(text.length).toBeLessThan(200_000);
      expect(ms).toBeLessThan(10_000); // 41 s before; ~0.2 s after
    } finally {
      await c.close();
    }
  }, 60_000);

  it("of a record with a 50,000-deep parent chain (a crafted artifact) answers; SCIP of it stays linear", async () => {
    const depth = 50_000;
    const files = { "chain.py": "pass\n".repeat(depth) };
    const a = { fs: new MemoryFileSystem(files, "/a"), store: new MemoryStore() };
    await createEngine({ ...a, wasm }).index();
    const snapshot = decodeJson<Snapshot>(await a.store.get(SNAPSHOT_KEY))!;
    const file = snapshot.files.find((f) => f.path === "chain.py")!;
    const honest = decodeJson<StoredRecord>(await a.store.get(file.record!))!;
    const chain: StoredRecord = {
      ...honest,
      definitions: Array.from({ length: depth }, (_, i) => ({
        name: `f${i}`,
        qualified: `f${i}`,
        kind: "function" as const,
        parent: i - 1,
        start: i + 1,
        end: depth,
        nameLine: i + 1,
        nameCol: 0,
        signature: `def f${i}():`,
        bodyStart: 0,
        exported: false,
      })),
    };
    const version = /([0-9a-f]{16})-[0-9a-f]{40}\.json$/.exec(file.record!)![1]!;
    const bytes = await encodeArtifact(snapshot, [encodeJson(chain)], { python: version });

    const engine = createEngine({ fs: new MemoryFileSystem(files, "/b"), store: new MemoryStore(), wasm });
    await engine.importIndex(bytes);
    expect((await engine.index()).parsed).toBe(0);
    const c = await connect(engine);
    try {
      const text = textOf(await c.client.readResource({ uri: outlineUri("chain.py") }));
      expect(text).toMatch(/^# chain\.py \(python, 50,?001 lines, 50,?000 symbols\)/);
      expect(text).toContain("(depth 30) - 31-50000 def f30():");
    } finally {
      await c.close();
    }
    const scip = await engine.scip({ project: "p" });
    expect(scip.definitions).toBe(depth + 1);
    expect(scip.bytes).toBeLessThan(depth * 200);
  }, 120_000);
});
