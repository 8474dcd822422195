/**
 * The built server as a client runs it: `node dist/cli/main.js mcp --root <tmp>` over stdio, driven
 * by the SDK's Client + StdioClientTransport, and separately by raw JSON-RPC lines (malformed ones
 * included) with every byte of stdout checked to be protocol. `npm test` builds first; a bare
 * vitest run builds here only when the MCP server is missing from dist/.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { busyProject } from "../support/busy-project.ts";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { FRESHNESS_META, TOOL_NAMES } from "../../src/mcp/server.ts";
import { MAP_URI, outlineUri, symbolUri } from "../../src/mcp/resources.ts";
import {
  checkStructured,
  cliPath,
  FIXTURE_FILES,
  fixtureDir,
  removeTemps,
  repoRoot,
  tempDir,
  writeFiles,
} from "./support.ts";

beforeAll(() => {
  if (!fs.existsSync(path.join(repoRoot, "dist", "mcp", "stdio.js"))) {
    const r = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
  }
}, 300_000);

afterAll(removeTemps);

/**
 * Strings of the structured content that repeat the text: any that spans lines of it, or any
 * long one found in it. Short fields (a name, a path, a one-line note) are data the text also
 * shows; a block of the text copied into the data is what a client would pay for twice.
 */
function repeatedText(data: unknown, text: string): string[] {
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      if ((v.includes("\n") || v.length >= 200) && text.includes(v)) found.push(v.slice(0, 80));
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(data);
  return found;
}

interface Session {
  client: Client;
  stderr: () => string;
  close(): Promise<void>;
}

async function open(args: string[], command: string[] = [process.execPath]): Promise<Session> {
  const transport = new StdioClientTransport({
    command: command[0]!,
    args: [...command.slice(1), cliPath, "mcp", ...args],
    stderr: "pipe",
    cwd: repoRoot,
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: "codeslice-stdio-test", version: "1.0.0" });
  // The SDK client fails the session on anything on stdout that is not JSON-RPC.
  const protocolErrors: Error[] = [];
  client.onerror = (e) => protocolErrors.push(e);
  await client.connect(transport);
  return {
    client,
    stderr: () => err,
    async close() {
      await client.close();
      expect(protocolErrors).toEqual([]);
    },
  };
}

async function tool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return {
    isError: r.isError === true,
    text,
    data: checkStructured(name, r) as any,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    freshness: r._meta?.[FRESHNESS_META] as any,
  };
}

/** A route for the fixture: placing an order runs register and checkout. */
const ORDERS_API = `from fastapi import FastAPI

from shop.service import checkout, register

app = FastAPI()


@app.post("/orders")
def place_order(name: str, total: float) -> dict:
    return {"total": checkout(register(name), total).total}
`;

/** A diff still to apply to the fixture: formatPrice takes a currency. */
const FORMAT_DIFF = `--- a/web/src/format.ts
+++ b/web/src/format.ts
@@ -1,4 +1,4 @@
 /** Formats a price in euros. */
-export function formatPrice(cents: number): string {
-  return (cents / 100).toFixed(2) + " EUR";
+export function formatPrice(cents: number, currency = "EUR"): string {
+  return (cents / 100).toFixed(2) + " " + currency;
 }
`;

describe("codeslice mcp over stdio (SDK client)", () => {
  it("initializes fast, lists the tools, answers context and repo_map, and follows edits", async () => {
    const root = fixtureDir();
    const started = performance.now();
    const s = await open(["--root", root, "--log-level", "debug"]);
    const initMs = performance.now() - started;
    try {
      // Generous here (test workers share the CPU); test/bench/mcp-bench.mjs measures it properly.
      expect(initMs).toBeLessThan(5000);
      expect(s.client.getServerVersion()?.name).toBe("codeslice");
      expect(s.client.getInstructions()).toContain("repo_map");
      const { tools } = await s.client.listTools();
      expect(tools).toHaveLength(TOOL_NAMES.length);

      const ctx = await tool(s.client, "context", { target: "shop.service.register", budget: 3000 });
      expect(ctx.isError).toBe(false);
      expect(ctx.data.chunks[0]).toMatchObject({ path: "shop/service.py", role: "seed" });
      expect(ctx.data.usage.tokens).toBeLessThanOrEqual(3000);
      expect(ctx.freshness.mode).toBe("initial");

      const map = await tool(s.client, "repo_map");
      expect(map.isError).toBe(false);
      expect(map.data.root).toBe(root);
      expect(map.data.languages.length).toBe(2);
      expect(map.freshness.mode).toBe("watch");

      fs.writeFileSync(
        path.join(root, "shop/service.py"),
        FIXTURE_FILES["shop/service.py"]!.replace("user.save()", "user.save()\n    notify(user)"),
      );
      const after = await tool(s.client, "context", { target: "shop.service.register", budget: 3000 });
      expect(after.text).toContain("notify(user)");
      expect(after.freshness).toMatchObject({ refreshed: true, parsed: 1 });

      // Logs went to stderr.
      expect(s.stderr()).toMatch(/codeslice mcp: info: indexed/);
    } finally {
      await s.close();
    }
  });

  it("answers every tool over stdio with text and structured content", async () => {
    // check reads the project's rules: the web client may not import the Python side. One route, for
    // changes' route target (the price diff below changes nothing that route runs).
    const root = fixtureDir({
      ...FIXTURE_FILES,
      "codeslice.check.json": JSON.stringify({ forbid: [{ from: "web/**", to: "shop/**" }], cycles: true }),
      "shop/api.py": ORDERS_API,
    });
    const s = await open(["--root", root]);
    try {
      const calls: [string, Record<string, unknown>, (data: any, text: string) => void][] = [
        ["repo_map", { budget: 800 }, (d) => expect(d.tokens).toBeLessThanOrEqual(800)],
        [
          "context",
          { target: "Cart.total", budget: 1500 },
          (d) => expect(d.chunks[0]).toMatchObject({ role: "seed", path: "web/src/cart.ts" }),
        ],
        ["pack", { task: "place an order for a user", budget: 1500 }, (d) => expect(d.seeds.length).toBeGreaterThan(0)],
        ["search", { query: "format price" }, (d) => expect(JSON.stringify(d)).toContain("formatPrice")],
        [
          "grep",
          { pattern: "formatPrice\\(", paths: ["web/"] },
          (d) =>
            expect(d.results).toContainEqual(
              expect.objectContaining({ path: "web/src/cart.ts", symbol: "web/src/cart.ts#Cart.total" }),
            ),
        ],
        [
          "locate",
          { task: "Prices show without cents\n\nThe cart total calls `formatPrice` and prints 12 instead of 12.00." },
          (d, text) => {
            expect(d.files.map((f: { path: string }) => f.path)).toContain("web/src/format.ts");
            expect(text).toContain("formatPrice");
          },
        ],
        [
          "signature",
          { symbol: "shop.service.register" },
          (d, text) => {
            expect(d.symbol.qualified).toBe("shop.service.register");
            expect(text).toContain("def register(name: str) -> User:");
          },
        ],
        ["callers", { symbol: "formatPrice" }, (d) => expect(JSON.stringify(d)).toContain("Cart.total")],
        ["callees", { symbol: "checkoutLabel" }, (d) => expect(JSON.stringify(d)).toContain("Cart.add")],
        ["importers", { file: "web/src/format.ts" }, (d) => expect(JSON.stringify(d)).toContain("web/src/cart.ts")],
        ["tests", { target: "format_greeting" }, (d) => expect(d).toMatchObject({ resolvedAs: "symbol", total: 0 })],
        [
          "trace",
          { from: "checkoutLabel", to: "formatPrice" },
          (d) =>
            expect(d.paths[0].hops.map((h: { to: string }) => h.to)).toEqual([
              "web/src/cart.ts#Cart.total",
              "web/src/format.ts#formatPrice",
            ]),
        ],
        [
          "impact",
          { target: "formatPrice" },
          (d) => {
            expect(d.entries.map((e: { qualified: string }) => e.qualified)).toContain("web/src/cart.ts#Cart.total");
            expect(d.risk.productionCallers).toBeGreaterThan(0);
          },
        ],
        [
          "changes",
          { diff: FORMAT_DIFF, target: "POST /orders" },
          (d, text) => {
            // formatPrice's signature changed, but POST /orders (Python) never runs it.
            expect(d.symbols).toEqual([]);
            expect(text).toContain("Note: none of the changes is in what POST /orders runs: shop.api.place_order");
            expect(text).toContain("1 other changed definition left out");
          },
        ],
        [
          "query",
          { q: "MATCH (a)-[c:CALLS]->(b {name: 'formatPrice'}) RETURN a.qualified, c.confidence" },
          (d, text) => {
            expect(d.columns).toEqual(["a.qualified", "c.confidence"]);
            expect(d.total).toBeGreaterThan(0);
            expect(text).toContain("web/src/cart.ts#Cart.total");
          },
        ],
        [
          "shape_check",
          { target: "User", rename: ["name=full_name"] },
          (d, text) => {
            // A plain class's fields are what its methods assign to self; nobody here reads a User's fields.
            expect(d).toMatchObject({
              resolvedAs: "model",
              models: [{ qualified: "shop.models.User", fields: ["name"] }],
              total: { breaks: 0 },
            });
            expect(text).toContain("## Breaks (name renamed to full_name): 0 reads");
          },
        ],
        [
          "check",
          {},
          (d, text) => {
            expect(d).toMatchObject({
              rules: ["forbidden-import", "import-cycle"],
              total: 0,
              config: { file: "codeslice.check.json" },
            });
            expect(text).toMatch(/^ok: \d+ files/);
          },
        ],
        [
          "read_snippet",
          { path: "web/src/format.ts", start_line: 1, end_line: 2 },
          (d, text) => {
            expect(d).toMatchObject({ path: "web/src/format.ts", start: 1, end: 2 });
            expect(text).toContain("Formats a price");
          },
        ],
        // The preview only (no apply): it writes nothing, and the fixture stays as the other calls read it.
        [
          "rename",
          { symbol: "formatPrice", new_name: "formatCents" },
          (d, text) => {
            expect(d).toMatchObject({ applied: false, counts: { edits: 3, files: 2 } }); // the definition, the import and the call in Cart.total
            expect(text).toContain(`plan_token: ${d.planToken}`);
          },
        ],
        // register: user = User(name) on line 6 from the parameter name (line 4), returned on line 9.
        [
          "dataflow",
          { target: "shop.service.register", variable: "user" },
          (d, text) => {
            expect(d).toMatchObject({ question: "variable", function: { qualified: "shop.service.register" } });
            expect(text).toContain("shop/service.py:6  user = User(name)");
            expect(text).toContain("shop/service.py:4  parameter name: str");
            expect(text).toMatch(/shop\/service\.py:9 +returned: user/);
          },
        ],
      ];
      const { tools } = await s.client.listTools();
      expect(calls.map(([name]) => name).sort()).toEqual(tools.map((t) => t.name).sort());
      for (const [name, args, check] of calls) {
        const r = await tool(s.client, name, args);
        expect(r.isError, `${name}: ${r.text.slice(0, 200)}`).toBe(false);
        expect(r.text.length, name).toBeGreaterThan(0);
        expect(r.data, name).toBeDefined();
        check(r.data, r.text);
        // The structured content is data: the text is not repeated in it.
        expect(r.data, name).not.toHaveProperty("text");
        expect(repeatedText(r.data, r.text), name).toEqual([]);
      }
      // The route map and the tool map are repo_map's other kinds (route_map folded into it).
      const routes = await tool(s.client, "repo_map", { kind: "routes" });
      expect(routes.data.total).toBe(1);
      expect(routes.text).toContain("POST /orders");
      const toolMap = await tool(s.client, "repo_map", { kind: "tools" });
      expect(toolMap.data.total ?? 0).toBe(0);
      expect(toolMap.text).toContain("# Tools and commands: 0 MCP tools");
      const misplaced = await tool(s.client, "repo_map", { prefix: "/api" });
      expect(misplaced.isError).toBe(true);
      expect(misplaced.text).toContain('pass them with kind "routes"');
    } finally {
      await s.close();
    }
  });

  it("a real client session: tools/list within 4,000 tokens, resources read and subscribed, prompts got", async () => {
    const root = fixtureDir();
    const s = await open(["--root", root]);
    try {
      const list = await s.client.listTools();
      expect(list.tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
      // Recounted here with the tokenizer, over the whole result as the client received it.
      const listTokens = countTokens(JSON.stringify(list));
      console.log(`tools/list: ${list.tools.length} tools, ${listTokens} tokens (o200k)`);
      expect(listTokens).toBeLessThanOrEqual(4000);

      const read = async (uri: string) =>
        (await s.client.readResource({ uri })).contents.map((c) => String(c.text ?? "")).join("");
      expect(await read(MAP_URI)).toContain("web/");
      const { resources } = await s.client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining([MAP_URI, outlineUri("web/src/cart.ts")]));
      expect(await read(outlineUri("web/src/cart.ts"))).toMatch(/- \d+-\d+ .*Cart/);
      expect(await read(symbolUri("web/src/format.ts#formatPrice"))).toContain("toFixed(2)");

      const updated: string[] = [];
      s.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
      const uri = symbolUri("formatPrice");
      await s.client.subscribeResource({ uri });
      fs.writeFileSync(
        path.join(root, "web/src/format.ts"),
        FIXTURE_FILES["web/src/format.ts"]!.replace('" EUR"', '" €"'),
      );
      const deadline = Date.now() + 20_000;
      while (!updated.includes(uri) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(updated).toContain(uri);
      expect(await read(uri)).toContain('" €"');

      const { prompts } = await s.client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual([
        "detect_impact",
        "explain_symbol",
        "generate_map",
        "plan_change",
        "review_diff",
      ]);
      const map = await s.client.getPrompt({ name: "generate_map", arguments: {} });
      expect(JSON.stringify(map.messages)).toContain("```mermaid");
      const got = await s.client.getPrompt({ name: "explain_symbol", arguments: { symbol: "Cart.total" } });
      expect(JSON.stringify(got.messages)).toContain("Cart.total");
    } finally {
      await s.close();
    }
  }, 60_000);

  it("pages a function with 1,100 call sites: under 4,000 tokens by default, the next page by the cursor it names", async () => {
    const root = fixtureDir({ ...busyProject(), "pytest.ini": "[pytest]\n" });
    const s = await open(["--root", root]);
    try {
      const first = await tool(s.client, "callers", { symbol: "shared" });
      expect(first.isError, first.text).toBe(false);
      expect(Math.max(countTokens(first.text), countTokens(JSON.stringify(first.data)))).toBeLessThanOrEqual(4000);
      expect(first.data.total.results).toBe(1100);
      expect(first.data.page.matching).toBe(600);
      const second = await tool(s.client, "callers", { symbol: "shared", cursor: first.data.page.next });
      expect(second.data.page.offset).toBe(first.data.results.length);
      const sites = (d: { results: { site: { path: string; line: number } }[] }) =>
        d.results.map((r) => `${r.site.path}:${r.site.line}`);
      expect(sites(second.data).some((x) => sites(first.data).includes(x))).toBe(false);
      const tests = await tool(s.client, "tests", { target: "shared", limit: 3 });
      expect(tests.text).toMatch(/^\s*pytest (tests\/test_m\d+\.py::test_shared_\d+_\d+ ?){3}$/m);
    } finally {
      await s.close();
    }
  });

  it("answers 200 concurrent requests", async () => {
    const root = fixtureDir();
    const s = await open(["--root", root]);
    try {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          i % 4 === 0
            ? tool(s.client, "context", { target: "checkout", budget: 500 + i })
            : i % 4 === 1
              ? tool(s.client, "callers", { symbol: "format_greeting" })
              : i % 4 === 2
                ? tool(s.client, "read_snippet", { path: "web/src/cart.ts", start_line: 1, end_line: 2 + (i % 7) })
                : tool(s.client, "signature", { symbol: "nope_not_here" }),
        ),
      );
      expect(answers).toHaveLength(200);
      answers.forEach((a, i) => expect(a.isError, `request ${i}: ${a.text.slice(0, 200)}`).toBe(i % 4 === 3));
    } finally {
      await s.close();
    }
  });

  it("refuses --cache-dir <root> on every call and writes nothing into the project", async () => {
    const root = fixtureDir();
    const listing = () => fs.readdirSync(root, { recursive: true }).map(String).sort();
    const before = listing();
    const s = await open(["--root", root, "--cache-dir", root]);
    try {
      for (const name of ["repo_map", "search"] as const) {
        const r = await tool(s.client, name, name === "search" ? { query: "cart" } : {});
        expect(r.isError).toBe(true);
        expect(r.text).toMatch(/Refusing to use .* as the index cache/);
        expect(r.text).not.toMatch(/internal error/);
      }
    } finally {
      await s.close();
    }
    expect(listing()).toEqual(before);
  });

  it("serves a missing root with an error naming it, and a root deleted mid-session", async () => {
    const missing = path.join(tempDir(), "does-not-exist");
    const s = await open(["--root", missing]);
    try {
      const a = await tool(s.client, "repo_map");
      expect(a.isError).toBe(true);
      expect(a.text).toContain(missing);
    } finally {
      await s.close();
    }
    const root = fixtureDir();
    const t = await open(["--root", root]);
    try {
      expect((await tool(t.client, "signature", { symbol: "Cart" })).isError).toBe(false);
      // The server's folder watcher may refresh (and write its cache) while the folder goes away:
      // a recursive delete could race those writes (ENOTEMPTY in CI), so the root is moved away in
      // one step (to the server it is gone at once; a store never creates a folder's parents) and
      // the moved copy deleted.
      const moved = `${root}.deleted`;
      fs.renameSync(root, moved);
      fs.rmSync(moved, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
      const gone = await tool(t.client, "signature", { symbol: "Cart" });
      expect(gone.isError).toBe(true);
      expect(gone.text).toContain(root);
      await new Promise((r) => setTimeout(r, 300)); // let any late watcher refresh run
      expect(fs.existsSync(root), "the server must not bring a deleted root back as a cache folder").toBe(false);
      expect((await t.client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    } finally {
      await t.close();
    }
  });
});

const deno = path.join(repoRoot, "node_modules", ".bin", "deno");

describe.runIf(fs.existsSync(deno))("codeslice mcp under Deno (deno run -A)", () => {
  it("initializes and answers with the same tools", async () => {
    const root = fixtureDir();
    const s = await open(["--root", root], [deno, "run", "-A"]);
    try {
      expect((await s.client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
      const ctx = await tool(s.client, "context", { target: "Cart.total", budget: 2000 });
      expect(ctx.isError).toBe(false);
      expect(ctx.data.chunks[0]).toMatchObject({ path: "web/src/cart.ts", role: "seed" });
      const escape = await tool(s.client, "read_snippet", { path: "../../etc/passwd", start_line: 1, end_line: 2 });
      expect(escape.isError).toBe(true);
    } finally {
      await s.close();
    }
  }, 60_000);
});

/** A raw JSON-RPC session: lines in, every stdout line kept for inspection. */
class RawSession {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  stderr = "";
  private partial = "";
  private waiters: (() => void)[] = [];

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [cliPath, "mcp", ...args], { cwd: repoRoot });
    this.child.stdout.on("data", (d: Buffer) => {
      const text = this.partial + d.toString("utf8");
      const parts = text.split("\n");
      this.partial = parts.pop()!;
      this.lines.push(...parts);
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
  }

  write(line: string | object): void {
    this.child.stdin.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`);
  }

  /** Messages parsed so far (throws on a line that is not JSON: stdout must be protocol only). */
  messages(): Record<string, unknown>[] {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  /** Waits until `pred` holds over the messages received. */
  async until(pred: (msgs: Record<string, unknown>[]) => boolean, what: string, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!pred(this.messages())) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; stdout: ${this.lines.join("\n").slice(0, 2000)}\nstderr: ${this.stderr.slice(0, 2000)}`,
        );
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }

  byId(id: number): Record<string, unknown> | undefined {
    return this.messages().find((m) => m.id === id);
  }

  async end(): Promise<number | null> {
    this.child.stdin.end();
    return new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const callTool = (id: number, name: string, args: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("codeslice mcp over stdio (raw JSON-RPC)", () => {
  it("answers malformed input with JSON-RPC errors, keeps serving, and writes only protocol to stdout", async () => {
    const root = fixtureDir();
    fs.symlinkSync("/etc/passwd", path.join(root, "leak.py"));
    const raw = new RawSession(["--root", root, "--log-level", "debug"]);
    raw.write("{this is not json");
    raw.write(INIT);
    await raw.until(() => raw.byId(1) !== undefined, "initialize");
    raw.write({ jsonrpc: "2.0", method: "notifications/initialized" });
    raw.write({ foo: 1 });
    raw.write({ jsonrpc: "2.0", id: 7, method: 123 });
    raw.write("[1, 2");
    raw.write("");
    raw.write({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    raw.write(callTool(3, "context", { target: "register" }));
    raw.write(callTool(4, "context", { target: "q".repeat(1 << 20) }));
    raw.write(callTool(5, "no_such_tool", {}));
    raw.write(callTool(6, "read_snippet", { path: "../../etc/passwd", start_line: 1, end_line: 3 }));
    raw.write(callTool(8, "read_snippet", { path: "leak.py", start_line: 1, end_line: 3 }));
    raw.write(callTool(9, "importers", { file: "..%2F..%2Fetc%2Fpasswd" }));
    raw.write(callTool(10, "callers", { symbol: "format_greeting", depth: "deep" }));
    raw.write({ jsonrpc: "2.0", id: 11, method: "no/such/method" });
    await raw.until(() => [2, 3, 4, 5, 6, 7, 8, 9, 10, 11].every((id) => raw.byId(id) !== undefined), "all answers");

    const msgs = raw.messages(); // every stdout line is JSON
    for (const m of msgs) expect(m.jsonrpc).toBe("2.0");
    const init = raw.byId(1) as { result: { serverInfo: { name: string }; instructions: string } };
    expect(init.result.serverInfo.name).toBe("codeslice");
    expect(init.result.instructions).toContain("repo_map");
    // Errors for requests whose id could not be read carry "id": null (JSON-RPC 2.0 §5).
    expect(msgs.filter((m) => m.error !== undefined).every((m) => "id" in m)).toBe(true);
    const anonymous = msgs
      .filter((m) => m.id === null && m.error !== undefined)
      .map((m) => (m.error as { code: number }).code);
    expect(anonymous.filter((c) => c === -32700)).toHaveLength(2); // "{this is not json" and "[1, 2"
    expect(anonymous).toContain(-32600); // {"foo":1}
    expect((raw.byId(7)!.error as { code: number }).code).toBe(-32600);
    expect((raw.byId(11)!.error as { code: number }).code).toBe(-32601);
    expect((raw.byId(2)!.result as { tools: unknown[] }).tools).toHaveLength(TOOL_NAMES.length);
    const result = (id: number) => raw.byId(id)!.result as CallToolResult;
    expect(result(3).isError).toBeFalsy();
    expect(JSON.stringify(result(3).structuredContent)).toContain("shop/service.py");
    for (const id of [4, 5, 6, 8, 9, 10]) {
      expect(result(id).isError, `id ${id}`).toBe(true);
      expect(JSON.stringify(result(id))).not.toContain("root:");
    }
    expect(raw.stderr).toMatch(/codeslice mcp: (debug|warn)/);

    // End of stdin ends the session cleanly.
    expect(await raw.end()).toBe(0);
    expect(raw.lines.join("")).not.toBe("");
  });

  it("rejects bad options before serving, and prints help", () => {
    const bad = spawnSync(process.execPath, [cliPath, "mcp", "--max-response-tokens", "5"], {
      encoding: "utf8",
      input: "",
    });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(/--max-response-tokens/);
    const level = spawnSync(process.execPath, [cliPath, "mcp", "--log-level", "loud"], { encoding: "utf8", input: "" });
    expect(level.status).toBe(2);
    expect(level.stderr).toMatch(/--log-level/);
    const help = spawnSync(process.execPath, [cliPath, "mcp", "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--max-response-tokens/);
    const main = spawnSync(process.execPath, [cliPath, "--help"], { encoding: "utf8" });
    expect(main.stdout).toMatch(/\bmcp\b/);
  });

  it("--print-config names this clone's dist/cli/main.js by absolute path, as every test here runs it", () => {
    const print = (...args: string[]) =>
      spawnSync(process.execPath, [cliPath, "mcp", "--print-config", ...args], { encoding: "utf8", cwd: tempDir() });
    expect(print("claude-code").stdout.trim()).toBe(`claude mcp add codeslice -- node ${cliPath} mcp`);
    const cursor = JSON.parse(print("cursor").stdout) as {
      mcpServers: { codeslice: { command: string; args: string[] } };
    };
    expect(cursor.mcpServers.codeslice).toEqual({
      command: "node",
      args: [cliPath, "mcp", "--root", "${workspaceFolder}"],
    });
    const vscode = JSON.parse(print("vscode", "--root", "proj", "--log-level", "info").stdout) as {
      servers: { codeslice: { args: string[] } };
    };
    expect(vscode.servers.codeslice.args).toEqual([
      cliPath,
      "mcp",
      "--root",
      expect.stringMatching(/\/proj$/),
      "--log-level",
      "info",
    ]);
    expect(print("codex").stdout).toBe(
      `[mcp_servers.codeslice]\ncommand = "node"\nargs = [${JSON.stringify(cliPath)}, "mcp"]\n`,
    );
    expect(print("deno").stdout.trim()).toBe(`claude mcp add codeslice -- deno run -A ${cliPath} mcp`);
    const bad = print("emacs");
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(/claude-code, cursor, vscode, codex, deno/);
    expect(print("cursor", "--max-response-tokens", "5").status).toBe(2);
  });

  it("a positional root works as --root does", async () => {
    const root = tempDir();
    writeFiles(root, { "main.py": "def main():\n    return 1\n" });
    const raw = new RawSession([root]);
    raw.write(INIT);
    raw.write({ jsonrpc: "2.0", method: "notifications/initialized" });
    raw.write(callTool(2, "signature", { symbol: "main" }));
    await raw.until(() => raw.byId(2) !== undefined, "signature");
    expect((raw.byId(2)!.result as CallToolResult).isError).toBeFalsy();
    expect(await raw.end()).toBe(0);
  });
});
