/**
 * Resources and prompts through a real MCP Client over the SDK's in-process transport, on a real
 * temp folder with the folder watcher: the map, outlines and symbol sources as `codeslice://`
 * resources, subscriptions told of a refresh, list_changed when a file is added, and the prompts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { CLUSTERS_URI, FLOWS_URI, MAP_URI, outlineUri, SCHEMA_URI, symbolUri } from "../../src/mcp/resources.ts";
import { connect, FIXTURE_FILES, fixtureDir, removeTemps, tempDir, type Connected } from "./support.ts";

afterAll(removeTemps);

async function nodeServer(root: string): Promise<Connected> {
  const platform = await createNodePlatform({ root, cacheDir: path.join(tempDir("codeslice-mcp-cache-"), "c") });
  return connect(createEngine(platform, { watch: true }), { fs: platform.fs });
}

const textOf = (r: { contents: { text?: unknown }[] }) => r.contents.map((c) => String(c.text ?? "")).join("\n");

async function until(pred: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("resources", () => {
  it("lists the map and file outlines, templates outlines and symbols, and reads each", async () => {
    const root = fixtureDir();
    const c = await nodeServer(root);
    try {
      const caps = c.client.getServerCapabilities()!;
      expect(caps.resources).toMatchObject({ subscribe: true, listChanged: true });
      expect(caps.tools).toEqual({ listChanged: false });
      expect(caps.prompts).toEqual({ listChanged: false });
      // Listed before anything is indexed: the fixed resources alone (the map, the query schema, flows
      // and clusters; listing them indexes nothing), and list_changed once the index is built.
      let listChanged = 0;
      c.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
      expect((await c.client.listResources()).resources.map((r) => r.uri)).toEqual([
        MAP_URI,
        SCHEMA_URI,
        FLOWS_URI,
        CLUSTERS_URI,
      ]);
      const map = textOf(await c.client.readResource({ uri: MAP_URI }));
      expect(map).toContain("shop/");
      await until(() => listChanged === 1, "list_changed after the first index");
      const { resources } = await c.client.listResources();
      const uris = resources.map((r) => r.uri);
      expect(uris).toContain(MAP_URI);
      expect(uris).toContain(outlineUri("web/src/cart.ts"));
      expect(uris).toContain(outlineUri("shop/models.py"));
      const { resourceTemplates } = await c.client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
        "codeslice://outline/{+path}",
        "codeslice://symbol/{+symbol}",
      ]);

      const outline = textOf(await c.client.readResource({ uri: outlineUri("shop/models.py") }));
      expect(outline).toMatch(/^# shop\/models\.py \(python, 33 lines, 8 symbols\)/);
      expect(outline).toMatch(/\n- 4-16 class User:\n/);
      expect(outline).toMatch(/\n {2}- 10-12 def greet\(self\) -> str:\n/);
      expect(outline).not.toContain("return format_greeting");
      const source = textOf(await c.client.readResource({ uri: symbolUri("shop.models.User.greet") }));
      expect(source).toMatch(/^## shop\/models\.py:\d+-\d+ method shop\.models\.User\.greet/);
      expect(source).toContain("return format_greeting(self.name)");
      // A path::name with its # and slashes, percent-encoded, and the same name written plainly.
      expect(textOf(await c.client.readResource({ uri: symbolUri("web/src/cart.ts#Cart.total") }))).toContain(
        "formatPrice(",
      );
      expect(textOf(await c.client.readResource({ uri: "codeslice://symbol/Cart.total" }))).toContain("formatPrice(");

      await expect(c.client.readResource({ uri: symbolUri("no_such_symbol_here") })).rejects.toThrow(
        /no_such_symbol_here/,
      );
      await expect(c.client.readResource({ uri: symbolUri("save") })).rejects.toThrow(/User\.save|Order\.save/);
      await expect(c.client.readResource({ uri: outlineUri("shop/nope.py") })).rejects.toThrow(/nope\.py/);
      await expect(c.client.readResource({ uri: outlineUri("../../etc/passwd") })).rejects.toThrow();
      const completion = await c.client.complete({
        ref: { type: "ref/resource", uri: "codeslice://outline/{+path}" },
        argument: { name: "path", value: "web/" },
      });
      expect(completion.completion.values.sort()).toEqual(["web/src/app.ts", "web/src/cart.ts", "web/src/format.ts"]);
    } finally {
      await c.close();
    }
  });

  it("tells subscribers when the index refreshes, and the list when a file is added", async () => {
    const root = fixtureDir();
    const c = await nodeServer(root);
    const updated: string[] = [];
    let listChanged = 0;
    c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    c.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    try {
      const uri = symbolUri("shop.service.register");
      expect(textOf(await c.client.readResource({ uri }))).not.toContain("notify(user)");
      await c.client.subscribeResource({ uri });
      fs.writeFileSync(
        path.join(root, "shop/service.py"),
        FIXTURE_FILES["shop/service.py"]!.replace("user.save()", "user.save()\n    notify(user)"),
      );
      // No tool call: the subscription's own check notices the edit.
      await until(() => updated.includes(uri), "resources/updated");
      expect(textOf(await c.client.readResource({ uri }))).toContain("notify(user)");

      fs.writeFileSync(path.join(root, "shop/extra.py"), "def extra():\n    return 1\n");
      await until(() => listChanged > 0, "resources/list_changed");
      expect((await c.client.listResources()).resources.map((r) => r.uri)).toContain(outlineUri("shop/extra.py"));

      await c.client.unsubscribeResource({ uri });
      const seen = updated.length;
      fs.writeFileSync(path.join(root, "shop/service.py"), FIXTURE_FILES["shop/service.py"]!);
      await new Promise((r) => setTimeout(r, 3000));
      expect(updated.length).toBe(seen);
    } finally {
      await c.close();
    }
  }, 30_000);
});

/** Three layers that import one way: api → services → db (two import statements each way down). */
const LAYERED = {
  "api/__init__.py": "",
  "api/routes.py":
    'from services.orders import place, cancel\nfrom services import orders\n\n@app.post("/orders")\ndef create():\n    return place(1)\n\ndef remove():\n    return cancel(1)\n',
  "services/__init__.py": "",
  "services/orders.py":
    "from db.store import save\nfrom db import store\n\ndef place(n):\n    return save(n)\n\ndef cancel(n):\n    return store.delete(n)\n",
  "db/__init__.py": "",
  "db/store.py": "def save(n):\n    return n\n\ndef delete(n):\n    return n\n",
};

describe("prompts: detect_impact and generate_map", () => {
  it("detect_impact names changes, impact, dataflow and tests, with the base when one is given", async () => {
    const c = await nodeServer(fixtureDir());
    try {
      const text = async (args: Record<string, string>) =>
        (await c.client.getPrompt({ name: "detect_impact", arguments: args })).messages
          .map((m) => (m.content.type === "text" ? m.content.text : ""))
          .join("\n");
      const plain = await text({});
      expect(plain).toContain("Call changes with no arguments");
      expect(plain).toMatch(/impact[\s\S]*dataflow[\s\S]*tests[\s\S]*risk/);
      expect(await text({ base: "main" })).toContain('Call changes with base "main"');
    } finally {
      await c.close();
    }
  });

  it("generate_map carries Mermaid diagrams built from the graph: the import edges between the layers, within the budget", async () => {
    const c = await nodeServer(fixtureDir(LAYERED));
    try {
      const got = await c.client.getPrompt({ name: "generate_map", arguments: { budget: "600" } });
      const text = got.messages.map((m) => (m.content.type === "text" ? m.content.text : "")).join("\n");
      const blocks = [...text.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]!);
      expect(blocks).toHaveLength(3);
      // Read from the fixture: api imports services twice, services imports db twice, nothing imports api.
      expect(blocks[0]).toMatch(/\["api"\] -->\|2\| f\d\["services"\]/);
      expect(blocks[0]).toMatch(/\["services"\] -->\|2\| f\d\["db"\]/);
      expect(blocks[0]).not.toMatch(/--> f\d\["api"\]/);
      // The flows diagram starts at the route.
      expect(blocks[2]).toContain("route: POST /orders");
      const diagrams = blocks.join("\n");
      expect(countTokens(diagrams)).toBeLessThanOrEqual(600);
      await expect(c.client.getPrompt({ name: "generate_map", arguments: { budget: "lots" } })).rejects.toThrow();
    } finally {
      await c.close();
    }
  });
});

describe("prompts", () => {
  it("lists explain_symbol, review_diff and plan_change, each naming the tools to call", async () => {
    const root = fixtureDir();
    const c = await nodeServer(root);
    try {
      const { prompts } = await c.client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual([
        "detect_impact",
        "explain_symbol",
        "generate_map",
        "plan_change",
        "review_diff",
      ]);
      // The three that need a subject require it; detect_impact (the working tree) and generate_map (the whole project) take none.
      for (const p of prompts)
        expect(p.arguments?.[0]?.required ?? false, p.name).toBe(!["detect_impact", "generate_map"].includes(p.name));
      const explain = await c.client.getPrompt({ name: "explain_symbol", arguments: { symbol: "Cart.total" } });
      const text = (r: typeof explain) =>
        r.messages.map((m) => (m.content.type === "text" ? m.content.text : "")).join("\n");
      expect(text(explain)).toContain('context with target "Cart.total"');
      expect(text(explain)).toMatch(/callers.*tests/s);
      const review = await c.client.getPrompt({
        name: "review_diff",
        arguments: { diff: "--- a/web/src/cart.ts\n+++ b/web/src/cart.ts\n@@ -12 +12 @@ total\n-  x\n+  y" },
      });
      expect(text(review)).toContain("+++ b/web/src/cart.ts");
      expect(text(review)).toMatch(/callers[\s\S]*tests/);
      const plan = await c.client.getPrompt({ name: "plan_change", arguments: { task: "add a discount to the cart" } });
      expect(text(plan)).toContain('pack with task "add a discount to the cart"');
      await expect(c.client.getPrompt({ name: "plan_change", arguments: {} })).rejects.toThrow();
    } finally {
      await c.close();
    }
  });
});
