/**
 * Every tool through a real MCP Client over the SDK's in-process linked transport, on the memory
 * platform (a re-scan per call) and on real temp folders with the Node platform (a folder watcher).
 * Assertions are on structured content (checked against each tool's schema by `call`), on
 * error flags and on the facts an error text must carry (names, paths, numbers), not on wording.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine, supportedLanguageNames } from "../../src/core/engine/engine.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { INSTRUCTIONS, TOOL_NAMES } from "../../src/mcp/server.ts";
import { LIMITS } from "../../src/core/limits.ts";
import { memoryEngine, memoryPlatform } from "../support/platform.ts";
import {
  answerTokens,
  budgetedTokens,
  call,
  connect,
  FIXTURE,
  FIXTURE_FILES,
  fixtureDir,
  removeTemps,
  tempDir,
  writeFiles,
  type Connected,
} from "./support.ts";

afterAll(removeTemps);

async function nodeServer(root: string, options: Parameters<typeof connect>[1] = {}): Promise<Connected> {
  const platform = await createNodePlatform({ root, cacheDir: path.join(tempDir("codeslice-mcp-cache-"), "c") });
  return connect(createEngine(platform, { watch: true }), { fs: platform.fs, ...options });
}

describe("tools over the in-process transport", () => {
  let c: Connected;
  const open = async () => {
    const platform = memoryPlatform(FIXTURE);
    c = await connect(createEngine(platform), { fs: platform.fs });
    return c;
  };
  afterAll(async () => c?.close());

  it("lists every tool but rename as read-only with a title, description and input schema (no output schema), and sends instructions", async () => {
    await open();
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(TOOL_NAMES).toEqual(
      expect.arrayContaining([
        "repo_map",
        "context",
        "search",
        "signature",
        "callers",
        "callees",
        "importers",
        "read_snippet",
        "pack",
      ]),
    );
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      // rename is the one tool that writes: it says so (not read-only, not destructive, idempotent:
      // a plan token applies once, so calling it again changes nothing more).
      if (t.name === "rename")
        expect(t.annotations).toEqual({
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        });
      else expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.description!.length, t.name).toBeGreaterThan(100);
      expect(t.inputSchema.type).toBe("object");
      expect(t.inputSchema, t.name).not.toHaveProperty("$schema");
      expect(t.outputSchema, t.name).toBeUndefined();
    }
    // The schemas report the engine's limits.
    const props = (name: string) =>
      (tools.find((t) => t.name === name)!.inputSchema.properties ?? {}) as Record<
        string,
        { maxLength?: number; maximum?: number; minimum?: number; description?: string }
      >;
    expect(props("context").target!.maxLength).toBe(LIMITS.targetChars);
    expect(props("pack").task!.maxLength).toBe(LIMITS.targetChars);
    expect(props("search").query!.maxLength).toBe(LIMITS.targetChars);
    // What tells a model nothing is left out of the list (the server still checks it).
    expect(props("callers").symbol).not.toHaveProperty("maxLength");
    expect(props("callers").symbol).not.toHaveProperty("minLength");
    expect(tools.find((t) => t.name === "callers")!.inputSchema).not.toHaveProperty("additionalProperties");
    expect(props("search").limit).toMatchObject({
      minimum: LIMITS.searchResults.min,
      maximum: LIMITS.searchResults.max,
    });
    expect(props("search").limit!.description).toContain(`default ${LIMITS.searchResults.default}`);
    expect(props("callers").depth!.description).toContain(`at most ${LIMITS.depth.max}`);
    expect(props("context").budget!.minimum).toBe(LIMITS.budget.min);
    expect(props("context").budget!.description).toContain(`default ${LIMITS.budget.context}`);
    expect(props("repo_map").budget!.description).toContain(`default ${LIMITS.budget.map}`);
    const instructions = c.client.getInstructions()!;
    expect(instructions).toBe(INSTRUCTIONS);
    expect(instructions).toContain("repo_map");
    expect(instructions).toMatch(/context/);
    expect(instructions).toContain("## path:start-end");
  });

  it("repo_map: the first call builds the index and says so", async () => {
    const a = await call(c.client, "repo_map");
    expect(a.isError).toBe(false);
    expect(a.text).toContain("shop/");
    expect(a.data).not.toHaveProperty("text");
    expect(a.data.languages.map((l: { language: string }) => l.language).sort()).toEqual(["Python", "TypeScript"]);
    expect(a.data.tokens).toBeLessThanOrEqual(a.data.budget);
    expect(a.freshness.refreshed).toBe(true);
    expect(a.freshness.parsed).toBeGreaterThan(0);
    expect(a.text).toMatch(/index built: 6 source files/);
    const again = await call(c.client, "repo_map", { budget: 400 });
    expect(again.freshness.refreshed).toBe(false);
    expect(again.text).not.toMatch(/index (built|refreshed)/);
    expect(again.data.tokens).toBeLessThanOrEqual(400);
    expect(budgetedTokens(again)).toBeLessThanOrEqual(400);
  });

  it("context: whole chunks with path:start-end headers, seeds and usage", async () => {
    const a = await call(c.client, "context", { target: "register" });
    expect(a.isError).toBe(false);
    expect(a.data.resolvedAs).toBe("symbol");
    expect(a.data.seeds[0]).toMatchObject({ qualified: "shop.service.register", path: "shop/service.py", line: 4 });
    expect(a.data.chunks[0]).toMatchObject({ path: "shop/service.py", start: 4, end: 9, role: "seed", form: "full" });
    expect(a.data.chunks.map((ch: { symbol: string }) => ch.symbol)).toEqual(
      expect.arrayContaining(["shop.models.User"]),
    );
    expect(a.data.usage).toMatchObject({ budget: 8000, encoding: "o200k_base" });
    expect(a.data.usage.tokens).toBeLessThanOrEqual(8000);
    expect(a.text).toContain("## shop/service.py:4-9 [seed] shop.service.register");
    // The structured content carries the data, not the text a second time; its chunks and listed
    // cut entries are the ones the text shows, and the budget covers both.
    expect(a.data).not.toHaveProperty("text");
    for (const ch of a.data.chunks)
      expect(a.text).toContain(`## ${ch.path}:${ch.start}-${ch.end} [${ch.role}] ${ch.symbol}`);
    for (const cut of a.data.cut) expect(a.text).toContain(`- ${cut.path}:${cut.start}-${cut.end} [${cut.role}]`);
    expect(budgetedTokens(a)).toBeLessThanOrEqual(8000);
    const file = await call(c.client, "context", { target: "web/src/cart.ts", budget: 2000, encoding: "cl100k_base" });
    expect(file.data.resolvedAs).toBe("file");
    expect(file.data.usage.encoding).toBe("cl100k_base");
    const words = await call(c.client, "context", { target: "format a price" });
    expect(words.data.resolvedAs).toBe("search");
    expect(words.data.seeds[0].qualified).toContain("formatPrice");
  });

  it("grep: hits with the enclosing symbol, an invalid pattern and a path outside the root as tool errors, and at most 140 tokens in tools/list", async () => {
    const g = await call(c.client, "grep", { pattern: "def (greet|save)", paths: ["shop/*.py"] });
    expect(g.isError).toBe(false);
    expect(
      g.data.results.map((r: { path: string; line: number; symbol?: string }) => `${r.path}:${r.line} ${r.symbol}`),
    ).toEqual([
      "shop/models.py:10 shop.models.User.greet",
      "shop/models.py:14 shop.models.User.save",
      "shop/models.py:26 shop.models.Order.save",
    ]);
    expect(g.text).toContain("shop/models.py:10:5 [method shop.models.User.greet]");
    const limited = await call(c.client, "grep", { pattern: "def ", max_matches: 1 });
    expect(limited.data).toMatchObject({ stopped: "matches" });
    expect(limited.data.results.length).toBe(1);
    const bad = await call(c.client, "grep", { pattern: "def (greet" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("missing closing )");
    expect(bad.text).toContain("column 5");
    const outside = await call(c.client, "grep", { pattern: "x", paths: ["../*"] });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('"../*"');
    const { tools } = await c.client.listTools();
    expect(countTokens(JSON.stringify(tools.find((t) => t.name === "grep")))).toBeLessThanOrEqual(140);
  });

  it("search, signature, callers, callees, importers, read_snippet, pack", async () => {
    const s = await call(c.client, "search", { query: "greeting", limit: 5 });
    expect(s.data.results[0]).toMatchObject({ qualified: "shop.models.format_greeting", path: "shop/models.py" });
    expect(s.data.omitted).toBe(0);

    const sig = await call(c.client, "signature", { symbol: "User" });
    expect(sig.data.symbol).toMatchObject({
      qualified: "shop.models.User",
      kind: "class",
      path: "shop/models.py",
      line: 4,
    });
    expect(sig.data.members.map((m: { qualified: string }) => m.qualified)).toEqual(
      expect.arrayContaining(["shop.models.User.greet", "shop.models.User.save"]),
    );
    expect(sig.text).toContain("def greet(self) -> str:");
    expect(sig.text).not.toContain("format_greeting(self.name)"); // no bodies
    expect(sig.data.truncated).toBe(false);

    const callers = await call(c.client, "callers", { symbol: "format_greeting" });
    expect(callers.data.results).toEqual([
      expect.objectContaining({
        qualified: "shop.models.User.greet",
        site: { path: "shop/models.py", line: 12 },
        depth: 1,
      }),
    ]);
    expect(callers.data.results[0].confidence).toBeGreaterThan(0.5);
    expect(callers.data.omitted).toBe(0);

    const callees = await call(c.client, "callees", { symbol: "shop.service.register", depth: 2 });
    const names = callees.data.results.map((r: { qualified: string }) => r.qualified);
    expect(names).toEqual(
      expect.arrayContaining(["shop.models.User", "shop.models.User.greet", "shop.models.format_greeting"]),
    );
    expect(callees.data.depth).toBe(2);

    const imp = await call(c.client, "importers", { file: "web/src/format.ts", depth: 2 });
    expect(imp.data.results).toEqual([
      { path: "web/src/cart.ts", depth: 1 },
      { path: "web/src/app.ts", depth: 2 },
    ]);

    const snip = await call(c.client, "read_snippet", { path: "shop/service.py", start_line: 4, end_line: 5 });
    expect(snip.data).toMatchObject({ path: "shop/service.py", start: 4, end: 5, capped: false });
    expect(snip.text).toContain("def register(name: str) -> User:");
    expect(snip.text).toContain("## shop/service.py:4-5");

    const pack = await call(c.client, "pack", { task: "place an order checkout", budget: 3000 });
    expect(pack.isError).toBe(false);
    expect(pack.data.seeds.map((x: { qualified: string }) => x.qualified)).toEqual(
      expect.arrayContaining(["shop.service.checkout"]),
    );
    expect(pack.data.usage.tokens).toBeLessThanOrEqual(3000);
    expect(budgetedTokens(pack)).toBeLessThanOrEqual(3000);
  });

  it("errors: did-you-mean, candidates with path:line, budget needed, not found", async () => {
    const unknown = await call(c.client, "signature", { symbol: "registr" });
    expect(unknown.isError).toBe(true);
    expect(unknown.data).toBeUndefined();
    expect(unknown.text).toContain("shop.service.register");
    expect(unknown.text).toContain("shop/service.py:4");

    const ambiguous = await call(c.client, "callers", { symbol: "save" });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toContain("shop.models.User.save");
    expect(ambiguous.text).toContain("shop/models.py:14");
    expect(ambiguous.text).toContain("shop.models.Order.save");
    expect(ambiguous.text).toMatch(/matches 3 symbols/);

    // Bounds the tools/list leaves out are still checked, each refusal naming the argument.
    const extra = await call(c.client, "callers", { symbol: "register", bogus: 1 });
    expect(extra.isError).toBe(true);
    expect(extra.text).toContain("bogus");
    const long = await call(c.client, "callers", { symbol: "x".repeat(1001) });
    expect(long.isError).toBe(true);
    expect(long.text).toMatch(/symbol/);

    const small = await call(c.client, "context", { target: "register", budget: 5 });
    expect(small.isError).toBe(true);
    const needed = Number(/budget ≥ (\d+)/.exec(small.text)?.[1]);
    expect(needed).toBeGreaterThan(5);
    const enough = await call(c.client, "context", { target: "register", budget: needed });
    expect(enough.isError).toBe(false);

    const mapSmall = await call(c.client, "repo_map", { budget: 3 });
    expect(mapSmall.isError).toBe(true);
    expect(mapSmall.text).toMatch(/budget ≥ \d+/);

    const missing = await call(c.client, "importers", { file: "web/src/nope.ts" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("web/src/nope.ts");

    const past = await call(c.client, "read_snippet", { path: "shop/service.py", start_line: 500, end_line: 600 });
    expect(past.isError).toBe(true);
    expect(past.text).toMatch(/\d+ lines/);

    const nothing = await call(c.client, "search", { query: "the of and" });
    expect(nothing.isError).toBe(true);
    // A long query that matches nothing is told so in a few words, not asked for a budget search has no argument for
    // (tryit6, on fzf: "A budget of 19880 tokens cannot hold the answer; it needs 65096").
    const longQuery = Array.from({ length: 10_000 }, (_, i) => `zq${i}xv`).join(" ");
    const none = await call(c.client, "search", { query: longQuery });
    expect(none.text).toContain("No symbols match");
    expect(none.text).not.toMatch(/budget/);
    expect(countTokens(none.text)).toBeLessThan(200);
  });

  it("bad arguments: wrong types, unknown keys, negative and huge numbers, 1 MB strings, unknown tools", async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["context", { target: 42 }, /target/],
      ["context", {}, /target/],
      ["context", { target: "register", budget: -5 }, /budget/],
      ["context", { target: "register", budget: 2.5 }, /budget/],
      ["context", { target: "register", budget: "many" }, /budget/],
      ["context", { target: "register", budget: 1e300 }, /budget/],
      ["context", { target: "register", encoding: "gpt2" }, /encoding/],
      ["context", { target: "register", tokens: 10 }, /tokens/],
      ["callers", { symbol: "format_greeting", depth: -1 }, /depth/],
      ["callers", { symbol: "format_greeting", depth: 0 }, /depth/],
      ["callees", { symbol: ["a"] }, /symbol/],
      ["search", { query: "x", limit: 10_000 }, /limit/],
      ["read_snippet", { path: "shop/service.py", start_line: 0, end_line: 3 }, /start_line/],
      ["read_snippet", { path: "shop/service.py", start_line: 9, end_line: 3 }, /9-3|start/],
      ["repo_map", { refresh: "yes" }, /refresh/],
      ["context", { target: "x".repeat(1 << 20) }, /target/],
      ["signature", { symbol: "y".repeat(1 << 20) }, /symbol/],
      ["search", { query: "z ".repeat(1 << 19) }, /query/],
      ["read_snippet", { path: "a/".repeat(1 << 19), start_line: 1, end_line: 2 }, /path/],
      ["importers", { file: "b".repeat(1 << 20) }, /path/],
      ["pack", { task: "w ".repeat(1 << 19) }, /task/],
    ];
    for (const [tool, args, mention] of cases) {
      const a = await call(c.client, tool, args);
      expect(a.isError, `${tool} ${JSON.stringify(args).slice(0, 80)}`).toBe(true);
      expect(a.text, tool).toMatch(mention);
      expect(a.text.length, tool).toBeLessThan(2000);
    }
    const unknownTool = await call(c.client, "delete_everything", {});
    expect(unknownTool.isError).toBe(true);
    expect(unknownTool.text).toContain("delete_everything");

    // Huge budgets and depths are lowered, and the answer says so.
    const huge = await call(c.client, "context", { target: "register", budget: 9_000_000_000_000 });
    expect(huge.isError).toBe(false);
    expect(huge.data.budgetRequested).toBe(9_000_000_000_000);
    expect(huge.data.usage.budget).toBeLessThanOrEqual(20_000);
    expect(huge.text).toMatch(/budget lowered from 9000000000000/);
    const deep = await call(c.client, "callers", { symbol: "format_greeting", depth: 1_000_000 });
    expect(deep.isError).toBe(false);
    expect(deep.data.depth).toBe(10);
    expect(deep.text).toMatch(/depth lowered from 1000000 to 10/);
    const mapHuge = await call(c.client, "repo_map", { budget: 1e12 });
    expect(mapHuge.data.budgetRequested).toBe(1e12);

    // The server still answers after all that.
    expect((await call(c.client, "signature", { symbol: "Cart" })).isError).toBe(false);
  });

  it("paths that leave the project are refused in every path argument", async () => {
    const escapes = [
      "../../etc/passwd",
      "/etc/passwd",
      "..%2F..%2Fetc%2Fpasswd",
      "shop/../../etc/passwd",
      "C:\\Windows\\win.ini",
      "%2Fetc%2Fpasswd",
    ];
    for (const p of escapes) {
      for (const [tool, args] of [
        ["read_snippet", { path: p, start_line: 1, end_line: 5 }],
        ["importers", { file: p }],
        ["context", { target: p }],
      ] as const) {
        const a = await call(c.client, tool, args);
        expect(a.isError, `${tool} ${p}`).toBe(true);
        expect(a.text).not.toContain("root:");
      }
    }
  });

  it("answers 200 concurrent requests, each with a result or a clear error", async () => {
    const platform = memoryPlatform(FIXTURE);
    const fresh = await connect(createEngine(platform), { fs: platform.fs });
    try {
      const calls = Array.from({ length: 200 }, (_, i) => {
        const pick = [
          ["context", { target: "register", budget: 1000 + i }],
          ["callers", { symbol: "format_greeting" }],
          ["search", { query: "cart" }],
          ["signature", { symbol: "Cart" }],
          ["read_snippet", { path: "web/src/cart.ts", start_line: 1, end_line: 3 + (i % 10) }],
          ["repo_map", {}],
          ["importers", { file: "shop/models.py" }],
          ["signature", { symbol: "save" }], // ambiguous: an error
        ][i % 8] as [string, Record<string, unknown>];
        return call(fresh.client, pick[0], pick[1]);
      });
      const answers = await Promise.all(calls);
      expect(answers).toHaveLength(200);
      answers.forEach((a, i) => {
        expect(a.isError, `request ${i}`).toBe(i % 8 === 7);
        expect(a.text.length).toBeGreaterThan(0);
      });
      // Exactly one of them built the index.
      expect(answers.filter((a) => a.freshness?.mode === "initial")).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });
});

describe("paths as agents pass them", () => {
  it("absolute paths inside the root and path:line handles work in context, read_snippet and importers; paths elsewhere stay refused", async () => {
    const root = fixtureDir();
    const c = await nodeServer(root);
    try {
      const abs = path.join(root, "shop", "service.py");
      const snip = await call(c.client, "read_snippet", { path: abs, start_line: 1, end_line: 2 });
      expect(snip.isError).toBe(false);
      expect(snip.data.path).toBe("shop/service.py");
      const ctx = await call(c.client, "context", { target: `${abs}:4`, budget: 1500 });
      expect(ctx.isError).toBe(false);
      expect(ctx.data.chunks[0].path).toBe("shop/service.py");
      const imp = await call(c.client, "importers", { file: path.join(root, "shop", "models.py") });
      expect(imp.isError).toBe(false);
      expect(imp.data.path).toBe("shop/models.py");
      // Every cut handle of an answer is a target.
      const wide = await call(c.client, "context", { target: "User", budget: 300 });
      for (const cut of wide.data.cut)
        expect((await call(c.client, "context", { target: cut.handle, budget: 2000 })).isError, cut.handle).toBe(false);
      for (const bad of ["/etc/passwd", path.join(path.dirname(root), "elsewhere.py"), "../../etc/passwd"]) {
        const r = await call(c.client, "read_snippet", { path: bad, start_line: 1, end_line: 2 });
        expect(r.isError, bad).toBe(true);
      }
    } finally {
      await c.close();
    }
  });
});

describe("index life cycle", () => {
  it("sends progress notifications while the first call builds the index", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`pkg/m${i}.py`] = `def f${i}(x):\n    return x + ${i}\n`;
    const { engine, platform } = memoryEngine(files);
    const c = await connect(engine, { fs: platform.fs });
    try {
      const progress: Progress[] = [];
      const a = await call(c.client, "repo_map", {}, (p) => progress.push(p));
      expect(a.isError).toBe(false);
      expect(progress.length).toBeGreaterThan(0);
      for (let i = 1; i < progress.length; i++)
        expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
      expect(progress.every((p) => p.total === 100 && p.progress <= 100 && typeof p.message === "string")).toBe(true);
      // Later calls have nothing to build: no progress.
      const later: unknown[] = [];
      await call(c.client, "repo_map", {}, (p) => later.push(p));
      expect(later).toEqual([]);
    } finally {
      await c.close();
    }
  });

  it("notices edited, added and deleted files before answering (memory platform: re-scan per call)", async () => {
    const { engine, platform } = memoryEngine(FIXTURE);
    const c = await connect(engine, { fs: platform.fs });
    try {
      expect((await call(c.client, "signature", { symbol: "register" })).text).toContain(
        "def register(name: str) -> User:",
      );
      platform.fs.write(
        "shop/service.py",
        FIXTURE_FILES["shop/service.py"]!.replace("def register(name: str)", "def register(name: str, email: str)"),
      );
      platform.fs.write("shop/extra.py", "def brand_new():\n    return 1\n");
      platform.fs.remove("web/src/app.ts");
      const a = await call(c.client, "signature", { symbol: "register" });
      expect(a.text).toContain("def register(name: str, email: str) -> User:");
      expect(a.freshness).toMatchObject({ refreshed: true, parsed: 2, removed: 1 });
      expect(a.text).toMatch(/index refreshed: 2 files re-parsed, 1 file removed/);
      expect((await call(c.client, "signature", { symbol: "brand_new" })).isError).toBe(false);
      expect((await call(c.client, "signature", { symbol: "checkoutLabel" })).isError).toBe(true);
    } finally {
      await c.close();
    }
  });

  it("notices an edit on disk through the folder watcher, with no restart", async () => {
    const root = fixtureDir();
    const c = await nodeServer(root);
    try {
      const before = await call(c.client, "context", { target: "checkout" });
      expect(before.freshness.mode).toBe("initial");
      const next = await call(c.client, "context", { target: "checkout" });
      expect(next.freshness).toMatchObject({ refreshed: false, mode: "watch" });
      fs.writeFileSync(
        path.join(root, "shop/service.py"),
        FIXTURE_FILES["shop/service.py"]!.replace("order.save()", "order.save()\n    audit(order)"),
      );
      const after = await call(c.client, "context", { target: "checkout" });
      expect(after.text).toContain("audit(order)");
      expect(after.freshness).toMatchObject({ refreshed: true, parsed: 1 });
      expect(after.text).toContain("index refreshed: 1 file re-parsed");
    } finally {
      await c.close();
    }
  });

  it("a file edited and a file added while the first index runs are in the next answer", async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) {
      files[`pkg/m${i}.py`] =
        `def f${i}(x):\n    """Doc ${i}."""\n    return x + ${i}\n\n${Array.from({ length: 20 }, (_, j) => `def g${i}_${j}(y):\n    return f${i}(y) * ${j}\n`).join("\n")}`;
    }
    writeFiles(root, files);
    const c = await nodeServer(root);
    try {
      let edited = false;
      // Edit once parsing is well under way (the edited file is among the first read).
      const first = await call(c.client, "signature", { symbol: "f0" }, (p) => {
        if (edited || !(p.message ?? "").startsWith("parsing") || p.progress < 40) return;
        edited = true;
        fs.writeFileSync(path.join(root, "pkg/m0.py"), files["pkg/m0.py"]!.replace("def f0(x):", "def f0(x, edited):"));
        fs.writeFileSync(path.join(root, "pkg/added.py"), "def added_mid_index():\n    return 1\n");
      });
      expect(first.isError).toBe(false);
      expect(edited).toBe(true);
      const next = await call(c.client, "signature", { symbol: "f0" });
      expect(next.text).toContain("def f0(x, edited):");
      expect(next.freshness.refreshed).toBe(true);
      expect((await call(c.client, "signature", { symbol: "added_mid_index" })).isError).toBe(false);
    } finally {
      await c.close();
    }
  });

  it("refuses a symbolic link inside the root that points outside", async () => {
    const root = fixtureDir();
    fs.symlinkSync("/etc", path.join(root, "etc-link"));
    fs.symlinkSync("/etc/passwd", path.join(root, "passwd.py"));
    const c = await nodeServer(root);
    try {
      for (const p of ["etc-link/passwd", "passwd.py", "etc-link/../etc-link/passwd"]) {
        for (const [tool, args] of [
          ["read_snippet", { path: p, start_line: 1, end_line: 5 }],
          ["importers", { file: p }],
          ["context", { target: p }],
        ] as const) {
          const a = await call(c.client, tool, args);
          expect(a.isError, `${tool} ${p}`).toBe(true);
          expect(a.text).not.toContain("root:");
        }
      }
      expect(
        (await call(c.client, "read_snippet", { path: "shop/models.py", start_line: 1, end_line: 2 })).isError,
      ).toBe(false);
    } finally {
      await c.close();
    }
  });

  it("a root deleted while serving gives a clear error, and the server keeps answering", async () => {
    const root = fixtureDir();
    const c = await nodeServer(root);
    try {
      expect((await call(c.client, "repo_map")).isError).toBe(false);
      // The watcher may refresh (and write the cache) while the folder goes away: retry as rm -rf must.
      fs.rmSync(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
      for (let i = 0; i < 2; i++) {
        const a = await call(c.client, "context", { target: "register" });
        expect(a.isError).toBe(true);
        expect(a.text).toContain(root);
        expect(a.text).toMatch(/no longer exists/);
      }
      expect(fs.existsSync(root), "the server must not bring the deleted root back").toBe(false);
      const { tools } = await c.client.listTools();
      expect(tools.length).toBeGreaterThan(5);
      // Restored: answers again, and follows edits again.
      writeFiles(root, FIXTURE_FILES);
      const back = await call(c.client, "signature", { symbol: "register" });
      expect(back.isError).toBe(false);
      expect(back.freshness.mode).toBe("scan");
      writeFiles(root, {
        "shop/service.py": FIXTURE_FILES["shop/service.py"]!.replace(
          "def register(name: str)",
          "def register(full_name: str)",
        ),
      });
      const edited = await call(c.client, "signature", { symbol: "register" });
      expect(edited.text).toContain("def register(full_name: str)");
    } finally {
      await c.close();
    }
  });

  it("an empty root and a root with no supported files are errors naming the path and the languages", async () => {
    const empty = await connect(memoryEngine({}).engine);
    try {
      const a = await call(empty.client, "repo_map");
      expect(a.isError).toBe(true);
      expect(a.text).toMatch(/empty/);
      expect(a.text).toContain("Python");
    } finally {
      await empty.close();
    }
    const root = tempDir();
    writeFiles(root, { "README.md": "# docs only\n", "notes.txt": "hello\n" });
    const docs = await nodeServer(root);
    try {
      for (const tool of ["repo_map", "context"]) {
        const a = await call(docs.client, tool, tool === "context" ? { target: "x" } : {});
        expect(a.isError).toBe(true);
        expect(a.text).toContain(root);
        for (const lang of supportedLanguageNames()) expect(a.text).toContain(lang);
      }
      // Adding a source file makes it answer.
      writeFiles(root, { "main.py": "def main():\n    return 1\n" });
      expect((await call(docs.client, "signature", { symbol: "main" })).isError).toBe(false);
    } finally {
      await docs.close();
    }
  });
});

describe("the response cap", () => {
  /** A project with one function called from 400 places and a 3,000-line file. */
  function bigProject(): Record<string, string> {
    const files: Record<string, string> = {};
    files["core/util.py"] = `def shared(x):\n    """Used everywhere."""\n    return x\n`;
    for (let m = 0; m < 20; m++) {
      const lines = ["from core.util import shared", ""];
      for (let f = 0; f < 20; f++)
        lines.push(
          `def caller_${m}_${f}(value):`,
          `    """Caller ${f} in module ${m} with a long docstring to make it cost tokens."""`,
          `    return shared(value) + ${f}`,
          "",
        );
      files[`pkg${m}/mod.py`] = lines.join("\n");
    }
    files["data/big.py"] = Array.from(
      { length: 3000 },
      (_, i) => `VALUE_${i} = "${"lorem ipsum dolor sit amet ".repeat(4)}${i}"`,
    ).join("\n");
    // One line far over the cap, and enough short lines that the file is not taken for minified code.
    files["data/long.ts"] =
      `export const blob = "${"x1y2z3 ".repeat(20_000)}";\n${"export const a = 1;\n".repeat(1000)}`;
    return files;
  }

  it("keeps every answer under --max-response-tokens, dropping whole entries with a count", async () => {
    const cap = 1500;
    const { engine, platform } = memoryEngine(bigProject(), { maxFileBytes: 4_000_000 });
    const c = await connect(engine, { fs: platform.fs, maxResponseTokens: cap });
    try {
      const callers = await call(c.client, "callers", { symbol: "shared" });
      expect(callers.isError).toBe(false);
      expect(answerTokens(callers)).toBeLessThanOrEqual(cap);
      expect(callers.data.total.results).toBe(400);
      expect(callers.data.omitted).toBe(400 - callers.data.results.length);
      expect(callers.data.results.length).toBeGreaterThan(5);
      expect(callers.text).toContain(`cursor=${callers.data.page.next}`);
      expect(callers.text).toMatch(/budget lowered from 4000 to 1500 tokens/);

      const imp = await call(c.client, "importers", { file: "core/util.py" });
      expect(answerTokens(imp)).toBeLessThanOrEqual(cap);

      const blast = await call(c.client, "impact", { target: "shared" });
      expect(blast.isError, blast.text).toBe(false);
      expect(answerTokens(blast)).toBeLessThanOrEqual(cap);
      expect(blast.data.total.up).toBe(400);
      expect(blast.text).toContain(`cursor=${blast.data.page.next}`);
      const deep = await call(c.client, "impact", { target: "shared", depth: 1000, direction: "both" });
      expect(deep.isError, deep.text).toBe(false);
      expect(deep.data.depth).toBe(10);
      expect(deep.text).toMatch(/depth lowered from 1000 to 10/);
      expect((await call(c.client, "impact", { target: "shared", depth: 0 })).isError).toBe(true);

      // No git folder in this project: changes says so, and points at the diff parameter.
      const noGit = await call(c.client, "changes", {});
      expect(noGit.isError).toBe(true);
      expect(noGit.text).toMatch(/Call changes with diff set to the unified diff/);
      const badDiff = await call(c.client, "changes", { diff: "not a diff at all\n" });
      expect(badDiff.isError).toBe(true);

      const search = await call(c.client, "search", { query: "caller module", limit: 200 });
      expect(answerTokens(search)).toBeLessThanOrEqual(cap);
      expect(search.data.omitted).toBeGreaterThan(0);
      expect(search.text).toMatch(/\d+ more not shown/);

      const ctx = await call(c.client, "context", { target: "shared", budget: 100_000 });
      expect(ctx.isError).toBe(false);
      expect(answerTokens(ctx)).toBeLessThanOrEqual(cap);
      expect(ctx.data.budgetRequested).toBe(100_000);
      expect(ctx.data.usage.budget).toBeLessThan(cap);
      expect(ctx.data.cutTotal).toBeGreaterThan(0);

      const pack = await call(c.client, "pack", { task: "caller module docstring", budget: 50_000 });
      expect(answerTokens(pack)).toBeLessThanOrEqual(cap);

      const map = await call(c.client, "repo_map", { budget: 50_000 });
      expect(answerTokens(map)).toBeLessThanOrEqual(cap);
      expect(map.data.budgetRequested).toBe(50_000);

      const snip = await call(c.client, "read_snippet", { path: "data/big.py", start_line: 1, end_line: 3000 });
      expect(answerTokens(snip)).toBeLessThanOrEqual(cap);
      expect(snip.data.capped).toBe(true);
      expect(snip.data.end).toBeLessThan(400);
      expect(snip.text).toContain(`start_line ${snip.data.end + 1}`);

      const mini = await call(c.client, "read_snippet", { path: "data/long.ts", start_line: 1, end_line: 5 });
      expect(mini.isError, mini.text).toBe(false);
      expect(answerTokens(mini)).toBeLessThanOrEqual(cap);
      expect(mini.data.capped).toBe(true);
    } finally {
      await c.close();
    }
  });

  it("fits context, pack and repo_map in one pass: text and structured content within the budget and the cap", async () => {
    const warnings: string[] = [];
    const log = {
      debug() {},
      info() {},
      warn: (m: string) => warnings.push(m),
      error: (m: string) => warnings.push(m),
    };
    const { engine, platform } = memoryEngine(bigProject(), { maxFileBytes: 4_000_000 });
    let calls = 0;
    const counting = {
      ...engine,
      context: (...a: Parameters<typeof engine.context>) => (calls++, engine.context(...a)),
      pack: (...a: Parameters<typeof engine.pack>) => (calls++, engine.pack(...a)),
    };
    const cap = 2500;
    const c = await connect(counting, { fs: platform.fs, maxResponseTokens: cap, log });
    let answered = 0;
    try {
      for (const budget of [300, 700, 1200, 2000, 2400, 5000, 100_000]) {
        for (const [tool, args] of [
          ["context", { target: "shared", budget }],
          ["context", { target: "pkg3/mod.py", budget, encoding: "cl100k_base" }],
          ["context", { target: "caller_4_7", budget }],
          ["pack", { task: "caller module docstring", budget }],
          ["repo_map", { budget }],
        ] as const) {
          const before = calls;
          const a = await call(c.client, tool, args);
          if (a.isError) {
            expect(a.text, `${tool} @ ${budget}`).toMatch(/budget ≥ \d+/);
            continue;
          }
          expect(answerTokens(a), `${tool} @ ${budget}`).toBeLessThanOrEqual(cap);
          expect(budgetedTokens(a), `${tool} @ ${budget}`).toBeLessThanOrEqual(Math.min(budget, cap));
          if (tool !== "repo_map") expect(calls - before, `${tool} @ ${budget}: one engine call`).toBe(1);
          answered++;
        }
      }
      expect(answered).toBeGreaterThanOrEqual(30);
      expect(warnings).toEqual([]);
    } finally {
      await c.close();
    }
  });

  it("caps read_snippet at 400 lines under the default cap", async () => {
    const { engine, platform } = memoryEngine({
      "a.py": Array.from({ length: 1000 }, (_, i) => `x${i} = ${i}`).join("\n"),
    });
    const c = await connect(engine, { fs: platform.fs });
    try {
      const a = await call(c.client, "read_snippet", { path: "a.py", start_line: 10, end_line: 900 });
      expect(a.data).toMatchObject({ start: 10, end: 409, capped: true, totalLines: 1000 });
      expect(a.text).toContain("start_line 410");
    } finally {
      await c.close();
    }
  });
});
