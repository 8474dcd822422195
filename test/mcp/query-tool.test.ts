/**
 * The `query` tool and its resources through a real MCP Client (the SDK's in-process transport)
 * over the shop fixture: a query's rows as structured content, an invalid query as a tool error
 * with the line, the caret and where the grammar is, an over-budget result with the LIMIT that
 * fits, `kind` flows and clusters, and the schema, flows and clusters resources.
 */
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { CLUSTERS_URI, FLOWS_URI, SCHEMA_URI } from "../../src/mcp/resources.ts";
import { budgetedTokens, call, connect, fixtureDir, removeTemps, tempDir, type Connected } from "./support.ts";

afterAll(removeTemps);

async function server(): Promise<Connected> {
  const platform = await createNodePlatform({
    root: fixtureDir(),
    cacheDir: path.join(tempDir("codeslice-mcp-cache-"), "c"),
  });
  return connect(createEngine(platform), { fs: platform.fs });
}

const textOf = (r: { contents: { text?: unknown }[] }) => r.contents.map((c) => String(c.text ?? "")).join("\n");

describe("query tool", () => {
  it("answers a query with its rows; refuses a bad one at its column, and an over-budget one with the LIMIT that fits", async () => {
    const c = await server();
    try {
      const a = await call(c.client, "query", {
        q: "MATCH (a)-[:CALLS]->(b:Symbol {name: 'save'}) RETURN DISTINCT a.qualified ORDER BY a.qualified",
      });
      expect(a.isError).toBe(false);
      // The rows are in the text; the structured content says how many and of which columns.
      expect(a.text).toMatch(/- shop\.service\.checkout\n- shop\.service\.register/);
      expect(a.data).toMatchObject({ kind: "cypher", columns: ["a.qualified"], total: 2 });
      expect(a.data).not.toHaveProperty("rows");

      const bad = await call(c.client, "query", { q: "MATCH (a)-[:CALLS*]->(b) RETURN b" });
      expect(bad.isError).toBe(true);
      expect(bad.text).toContain("Line 1, column 18");
      expect(bad.text).toContain("MATCH (a)-[:CALLS*]->(b) RETURN b\n                 ^");
      expect(bad.text).toContain("codeslice://schema");

      const write = await call(c.client, "query", { q: "MATCH (a) DELETE a" });
      expect(write.isError).toBe(true);
      expect(write.text).toMatch(/column 11: DELETE writes to the graph/);

      const big = await call(c.client, "query", {
        q: "MATCH (a:Symbol) RETURN a, a.path, a.kind LIMIT 20",
        budget: 400,
      });
      expect(big.isError).toBe(true);
      const fits = Number(/LIMIT (\d+) in the query/.exec(big.text)?.[1]);
      expect(fits).toBeGreaterThan(0);
      const ok = await call(c.client, "query", {
        q: `MATCH (a:Symbol) RETURN a, a.path, a.kind LIMIT ${fits}`,
        budget: 400,
      });
      expect(ok.isError).toBe(false);
      expect(ok.text.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(fits);
      expect(budgetedTokens(ok)).toBeLessThanOrEqual(400);
    } finally {
      await c.close();
    }
  });

  it("kind flows and clusters; the schema, flows and clusters resources", async () => {
    const c = await server();
    try {
      const flows = await call(c.client, "query", { kind: "flows" });
      expect(flows.isError, flows.text).toBe(false);
      expect(flows.data.kind).toBe("flows");
      // The lean structured content leaves an empty list out (src/mcp/lean.ts): absent reads as [].
      expect((flows.data.flows ?? []).length).toBeLessThanOrEqual(flows.data.total);
      expect(flows.text).toMatch(/^# Flows:/);
      const clusters = await call(c.client, "query", { kind: "clusters", q: "web" });
      expect(clusters.isError).toBe(false);
      // cart.ts calls format.ts, app.ts calls cart.ts: one cluster holds the web client.
      expect(clusters.data.clusters.map((x: { files: string[] }) => x.files)).toContainEqual([
        "web/src/app.ts",
        "web/src/cart.ts",
        "web/src/format.ts",
      ]);
      const schema = textOf(await c.client.readResource({ uri: SCHEMA_URI }));
      for (const word of [
        "File",
        "Symbol",
        "Route",
        "Test",
        "CALLS",
        "IMPORTS",
        "INHERITS",
        "OVERRIDES",
        "TESTS",
        "SERVES",
        "confidence",
        "*1..3",
      ])
        expect(schema).toContain(word);
      expect(textOf(await c.client.readResource({ uri: FLOWS_URI }))).toMatch(/^# Flows:/);
      expect(textOf(await c.client.readResource({ uri: CLUSTERS_URI }))).toMatch(/^# Clusters: .*\n## 1\./);
    } finally {
      await c.close();
    }
  });
});
