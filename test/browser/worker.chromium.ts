/**
 * The engine in a real Web Worker: requests and answers as plain data, progress, cancellation that
 * leaves the worker usable, errors that keep their code, and the page's own FileSystem served to
 * the worker on request (the web-IDE variant).
 */
import { afterEach, describe, expect, it } from "vitest";
import { MemoryFileSystem } from "../../src/platform/memory/index.ts";
import { createWorkerEngine, type WorkerEngine, type WorkerProgress } from "../../src/worker/index.ts";
import { makeZip } from "./support/zip-writer.ts";

const SAMPLE: Record<string, string> = {
  "shop/models.py":
    "class Order:\n    def total(self):\n        return sum_items(self)\n\ndef sum_items(order):\n    return 1\n",
  "shop/views.py":
    "from shop.models import Order\n\ndef checkout():\n    order = Order()\n    return order.total()\n\ndef page():\n    return checkout()\n",
  "web/api.ts":
    "export function fetchOrder(id: string): string {\n  return format(id);\n}\n\nfunction format(s: string): string {\n  return s.trim();\n}\n",
};

function generated(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`pkg/m${Math.floor(i / 100)}/mod${i}.py`] =
      `${i > 0 ? `from pkg.m${Math.floor((i - 1) / 100)}.mod${i - 1} import f${i - 1}\n\n` : ""}def f${i}(x):\n    """Step ${i}."""\n    return ${i > 0 ? `f${i - 1}(x) + ` : ""}x\n\nclass C${i}:\n    def run(self):\n        return f${i}(1)\n`;
  }
  return files;
}

let engines: WorkerEngine[] = [];
afterEach(() => {
  for (const e of engines) e.terminate();
  engines = [];
});

function start(options: Parameters<typeof createWorkerEngine>[1] = {}): WorkerEngine {
  const worker = new Worker(new URL("./support/engine.worker.ts", import.meta.url), { type: "module" });
  const engine = createWorkerEngine(worker, options);
  engines.push(engine);
  return engine;
}

describe("the engine in a Web Worker", () => {
  it("opens files, indexes with progress, and answers map, search, context, snippet and callers as plain data", async () => {
    const engine = start();
    const opened = await engine.open({ kind: "files", files: SAMPLE, label: "sample" }, { kind: "memory" });
    expect(opened).toMatchObject({ label: "sample", store: { backend: "memory" } });
    const progress: WorkerProgress[] = [];
    const summary = await engine.index({ onProgress: (p) => progress.push(p) });
    expect(summary).toMatchObject({ parsed: 3, sourceFiles: 3, root: "sample" });
    expect(progress.some((p) => p.phase === "parse")).toBe(true);

    const map = await engine.map({ budget: 600 });
    expect(map.tokens).toBeLessThanOrEqual(600);
    expect(map.symbols.map((s) => s.qualified)).toContain("shop.models.Order");

    const hits = await engine.search("checkout");
    expect(hits[0]?.qualified).toBe("shop.views.checkout");

    const context = await engine.context("shop.views.checkout", { budget: 400 });
    expect(context.usage.tokens).toBeLessThanOrEqual(400);
    expect(context.chunks[0]).toMatchObject({ symbol: "shop.views.checkout", role: "seed" });

    const snippet = await engine.snippet("shop/views.py", 3, 5);
    expect(snippet.text).toBe("def checkout():\n    order = Order()\n    return order.total()");

    const callers = await engine.callers("sum_items");
    expect(callers.results.map((r) => r.qualified)).toEqual(["shop.models.Order.total"]);
  });

  it("neighbourhood: callers and callees of a symbol as a small graph with ids and edges", async () => {
    const engine = start();
    await engine.open({ kind: "files", files: SAMPLE, label: "sample" }, { kind: "memory" });
    const n = await engine.neighbourhood("shop.views.checkout");
    expect(n.center.qualified).toBe("shop.views.checkout");
    const byName = Object.fromEntries(n.nodes.map((x) => [x.qualified, x.role]));
    expect(byName).toMatchObject({
      "shop.views.checkout": "center",
      "shop.views.page": "caller",
      "shop.models.Order.total": "callee",
    });
    const id = (q: string) => n.nodes.find((x) => x.qualified === q)!.id;
    expect(n.edges).toContainEqual(
      expect.objectContaining({ from: id("shop.views.page"), to: id("shop.views.checkout") }),
    );
    expect(n.edges).toContainEqual(
      expect.objectContaining({ from: id("shop.views.checkout"), to: id("shop.models.Order.total") }),
    );
    // Everything that crossed is plain data: it survives a JSON round trip unchanged.
    expect(JSON.parse(JSON.stringify(n))).toEqual(n);
  });

  it("query, flows and clusters: rows, an invalid query's column, and Louvain clusters in the browser", async () => {
    const engine = start();
    await engine.open({ kind: "files", files: SAMPLE, label: "sample" }, { kind: "memory" });
    const a = await engine.query(
      "MATCH (a)-[:CALLS*1..2]->(b:Symbol {name: 'sum_items'}) RETURN a.qualified ORDER BY a.qualified",
    );
    expect(a.rows).toEqual([["shop.models.Order.total"], ["shop.views.checkout"]]);
    await expect(engine.query("MATCH (a) DELETE a")).rejects.toMatchObject({
      code: "invalid_query",
      data: { reason: "write", column: 11 },
    });
    const clusters = await engine.clusters();
    // views.py imports and calls models.py; web/api.ts calls only itself and is left out.
    expect(clusters.clusters.flatMap((c) => c.files).sort()).toEqual(["shop/models.py", "shop/views.py"]);
    expect((await engine.flows()).total).toBe(0); // no route, command, main or test in the sample
  });

  it("errors keep their code, hint and data; the code graph is not something the worker hands out", async () => {
    const engine = start();
    await expect(engine.search("x")).rejects.toMatchObject({ name: "EngineError", code: "no_index" });
    await engine.open({ kind: "files", files: SAMPLE, label: "sample" }, { kind: "memory" });
    await expect(engine.callers("no_such_thing")).rejects.toMatchObject({
      name: "EngineError",
      code: "unknown_symbol",
    });
    await expect(engine.call("codeGraph" as never, [] as never)).rejects.toMatchObject({ code: "invalid_argument" });
  });

  it("an abort stops a long index at once, and the worker answers the next request", async () => {
    const engine = start();
    await engine.open({ kind: "files", files: generated(3000), label: "big" }, { kind: "memory" });
    const controller = new AbortController();
    let firstParse = 0;
    const run = engine.index({
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === "parse" && !firstParse) {
          firstParse = performance.now();
          controller.abort();
        }
      },
    });
    await expect(run).rejects.toMatchObject({ code: "cancelled" });
    expect(firstParse).toBeGreaterThan(0);
    // The worker noticed too: a new request is answered promptly, not after the whole index.
    const t0 = performance.now();
    await engine.open({ kind: "files", files: SAMPLE, label: "sample" }, { kind: "memory" });
    expect(performance.now() - t0).toBeLessThan(2000);
    expect((await engine.index()).parsed).toBe(3);
  });

  it("a zip is unpacked in the worker, with what was skipped reported", async () => {
    const engine = start();
    const zip = await makeZip([
      ...Object.entries(SAMPLE).map(([name, data]) => ({ name: `sample-main/${name}`, data })),
      { name: "sample-main/logo.png", data: new Uint8Array([137, 80, 78, 71]) },
    ]);
    const opened = await engine.open({ kind: "zip", file: new Blob([zip]), label: "sample.zip" }, { kind: "memory" });
    expect(opened.unpacked).toMatchObject({
      files: 3,
      stripped: "sample-main",
      skipped: [{ path: "logo.png", reason: "binary" }],
    });
    expect((await engine.index()).parsed).toBe(3);
    await expect(
      engine.open({ kind: "zip", file: new Blob(["nope"]), label: "nope.zip" }, { kind: "memory" }),
    ).rejects.toMatchObject({ code: "invalid_argument", data: { reason: "not_a_zip" } });
  });

  it("a remote source: the worker reads the page's FileSystem through messages", async () => {
    const fs = new MemoryFileSystem(SAMPLE, "workspace");
    const engine = start({ fs });
    await engine.open({ kind: "remote", label: "workspace" }, { kind: "memory" });
    expect((await engine.index()).parsed).toBe(3);
    fs.write("shop/extra.py", "from shop.views import checkout\n\ndef again():\n    return checkout()\n");
    const refreshed = await engine.refresh();
    expect(refreshed).toMatchObject({ refreshed: true, parsed: 1 });
    const callers = await engine.callers("shop.views.checkout");
    expect(callers.results.map((r) => r.qualified).sort()).toEqual(["shop.extra.again", "shop.views.page"]);
    await expect(engine.snippet("../etc/passwd", 1, 2)).rejects.toMatchObject({ code: "outside_root" });
  });

  it("an OPFS-backed index survives the worker: a new worker parses nothing", async () => {
    const namespace = `worker-test-${Date.now().toString(36)}`;
    const first = start();
    await first.open({ kind: "files", files: SAMPLE, label: "sample" }, { kind: "browser", namespace });
    expect((await first.index()).parsed).toBe(3);
    first.terminate();
    const second = start();
    const opened = await second.open({ kind: "files", files: SAMPLE, label: "sample" }, { kind: "browser", namespace });
    expect(opened.store.backend).toBe("opfs");
    const again = await second.index();
    expect(again).toMatchObject({ parsed: 0, reused: 3 });
    const root = await navigator.storage.getDirectory();
    await (await (await root.getDirectoryHandle("codeslice")).getDirectoryHandle("index")).removeEntry(namespace, {
      recursive: true,
    });
  });
});
