/**
 * `codeslice lsp` as an editor runs it: the built server over stdio, driven by the protocol's own
 * client library. Its answers agree with the CLI's on a fixture and on this repository's src/
 * (copied to a temp folder; CODESLICE_LSP_REPO=DIR adds another project, e.g. django); an unsaved
 * edit changes the answer before it is saved and closing the document brings the saved text back;
 * a cancelled request answers RequestCancelled at once while the first index goes on; the first
 * index reports `$/progress`; bad input gets empty answers or a specific error, never a crash.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CancellationTokenSource, LSPErrorCodes, type Location } from "vscode-languageserver-protocol/node";
import { ensureCliBuilt, repoRoot, runCli } from "../support/cli.ts";
import { fixtureDir, removeTemps, tempDir } from "../mcp/support.ts";
import { checkAgreement } from "./agreement.ts";
import { startLsp, type LspSession } from "./support.ts";

beforeAll(() => ensureCliBuilt(), 300_000);
afterAll(removeTemps);

/** This repository's src/ in a fresh folder: real code every CI run has. */
function srcCopy(): string {
  const root = tempDir("codeslice-lsp-src-");
  fs.cpSync(path.join(repoRoot, "src"), path.join(root, "src"), { recursive: true });
  return root;
}

type Def = Location & { data: { qualified: string; resolution?: string; confidence?: number } };
const definition = (s: LspSession, file: string, line: number, character: number) =>
  s.connection.sendRequest("textDocument/definition", {
    textDocument: { uri: s.uri(file) },
    position: { line, character },
  }) as Promise<Def[]>;

describe("agrees with the CLI", () => {
  it("on the fixture", async () => {
    const root = fixtureDir();
    const s = await startLsp(root);
    try {
      const a = await checkAgreement(s, root);
      expect(a.mismatches).toEqual([]);
      // Every request was compared at the fixture's symbols (it has few).
      for (const n of Object.values(a.checked)) expect(n).toBeGreaterThanOrEqual(3);
    } finally {
      await s.close();
    }
  }, 300_000);

  it("on this repository's src/, at ≥ 50 positions per request", async () => {
    const root = srcCopy();
    const s = await startLsp(root);
    try {
      const a = await checkAgreement(s, root, 50);
      console.error(`agreement on src/: ${JSON.stringify(a.checked)}`);
      expect(a.mismatches).toEqual([]);
      for (const [request, n] of Object.entries(a.checked)) expect([request, n >= 50]).toEqual([request, true]);
    } finally {
      await s.close();
    }
  }, 900_000);

  it.skipIf(!process.env.CODESLICE_LSP_REPO)(
    "on CODESLICE_LSP_REPO",
    async () => {
      const root = path.resolve(process.env.CODESLICE_LSP_REPO!);
      const s = await startLsp(root);
      try {
        const a = await checkAgreement(s, root, 50);
        console.error(`agreement on ${root}: ${JSON.stringify(a.checked)}`);
        expect(a.mismatches).toEqual([]);
        for (const [request, n] of Object.entries(a.checked)) expect([request, n >= 50]).toEqual([request, true]);
      } finally {
        await s.close();
      }
    },
    1_800_000,
  );
});

describe("open documents", () => {
  let root: string;
  let s: LspSession;
  beforeAll(async () => {
    root = fixtureDir();
    s = await startLsp(root);
  }, 120_000);
  afterAll(() => s.close());

  it("answers from unsaved text, and from the disk again once the document is closed", async () => {
    const file = "shop/service.py";
    const uri = s.uri(file);
    const saved = fs.readFileSync(path.join(root, file), "utf8");
    // `user.greet()` on line 7 goes to User.greet.
    expect((await definition(s, file, 6, 10)).map((d) => d.data.qualified)).toEqual(["shop.models.User.greet"]);

    await s.connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "python", version: 1, text: saved },
    });
    const edited =
      saved.replace("    user.greet()\n", "    welcome(user)\n") +
      '\n\ndef welcome(user: User) -> None:\n    """Greet a new user."""\n    user.greet()\n';
    await s.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: edited }],
    });
    const unsaved = await definition(s, file, 6, 6);
    expect(unsaved.map((d) => [d.data.qualified, d.range.start.line])).toEqual([
      ["shop.service.welcome", edited.split("\n").findIndex((l) => l.startsWith("def welcome"))],
    ]);
    expect(fs.readFileSync(path.join(root, file), "utf8")).toBe(saved);
    // The hover reads the unsaved docstring, and the new function's callers include the edited line.
    const hover = (await s.connection.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: { line: 6, character: 6 },
    })) as { contents: { value: string } };
    expect(hover.contents.value).toContain("Greet a new user.");

    // An incremental change (a range) is applied to the open text too: rename the call back.
    await s.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 3 },
      contentChanges: [
        { range: { start: { line: 6, character: 4 }, end: { line: 6, character: 17 } }, text: "user.greet()" },
      ],
    });
    expect((await definition(s, file, 6, 10)).map((d) => d.data.qualified)).toEqual(["shop.models.User.greet"]);

    await s.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
    const refs = (await s.connection.sendRequest("textDocument/references", {
      textDocument: { uri: s.uri("shop/models.py") },
      position: { line: 9, character: 9 },
      context: { includeDeclaration: false },
    })) as Location[];
    expect(refs.map((r) => `${r.uri.slice(s.rootUri.length + 1)}:${r.range.start.line + 1}`)).toEqual([
      "shop/service.py:7",
    ]);
  }, 120_000);

  it("goes from a module named in an import to its file", async () => {
    const defs = await definition(s, "shop/service.py", 0, 10);
    expect(defs.map((d) => [d.uri.slice(s.rootUri.length + 1), d.range.start.line])).toEqual([["shop/models.py", 0]]);
    const ts = await definition(s, "web/src/app.ts", 0, 24);
    expect(ts.map((d) => d.uri.slice(s.rootUri.length + 1))).toEqual(["web/src/cart.ts"]);
  });

  it("gives empty answers off a name, outside the project and for files it does not index", async () => {
    expect(await definition(s, "shop/service.py", 2, 0)).toEqual([]);
    expect(
      await s.connection.sendRequest("textDocument/definition", {
        textDocument: { uri: "file:///etc/passwd" },
        position: { line: 0, character: 0 },
      }),
    ).toEqual([]);
    expect(
      await s.connection.sendRequest("textDocument/definition", {
        textDocument: { uri: `${s.rootUri}/../x.py` },
        position: { line: 0, character: 0 },
      }),
    ).toEqual([]);
    expect(
      await s.connection.sendRequest("textDocument/documentSymbol", { textDocument: { uri: s.uri("README.md") } }),
    ).toEqual([]);
    expect(
      await s.connection.sendRequest("textDocument/hover", {
        textDocument: { uri: s.uri("shop/service.py") },
        position: { line: 999, character: 3 },
      }),
    ).toBeNull();
    expect(await s.connection.sendRequest("workspace/symbol", { query: "" })).toEqual([]);
  });

  it("answers a workspace/symbol query that search cannot take (one letter, a stop word) with the names that start with it, not an error", async () => {
    const names = async (query: string) =>
      ((await s.connection.sendRequest("workspace/symbol", { query })) as { name: string }[]).map((w) => w.name);
    expect(await names("a")).toEqual(["add"]);
    expect(await names("self")).toEqual([]);
  });

  it("answers codeslice/context and codeslice/impact, and says what to pass when a request has neither target nor position", async () => {
    const bundle = (await s.connection.sendRequest("codeslice/context", { target: "checkout", budget: 600 })) as {
      text: string;
      usage: { tokens: number; budget: number };
    };
    expect(bundle.usage.tokens).toBeLessThanOrEqual(600);
    expect(bundle.text).toContain("def checkout(");
    const atPosition = (await s.connection.sendRequest("codeslice/impact", {
      textDocument: { uri: s.uri("web/src/format.ts") },
      position: { line: 1, character: 18 },
    })) as { target: { qualified?: string }; text: string };
    expect(atPosition.text).toContain("formatPrice");
    await expect(s.connection.sendRequest("codeslice/context", {})).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Pass `target`"),
    });
    await expect(s.connection.sendRequest("codeslice/context", { target: "NoSuchThing" })).rejects.toMatchObject({
      code: LSPErrorCodes.RequestFailed,
      data: { code: "unknown_symbol" },
    });
  });
});

describe("bad input", () => {
  it("refuses to initialize on a root that does not exist, saying what to do, and exits 2 on bad arguments", async () => {
    const missing = path.join(tempDir("codeslice-lsp-gone-"), "nope");
    await expect(startLsp(missing)).rejects.toMatchObject({
      code: -32602,
      data: { code: "root_not_found" },
      message: expect.stringContaining("--root DIR"),
    });
    const bad = runCli(["lsp", "--jobs", "0"]);
    expect([bad.status, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toContain("--jobs");
    const two = runCli(["lsp", "a", "b"]);
    expect([two.status, two.stdout]).toEqual([2, ""]);
    expect(two.stderr).toContain("one project folder");
  }, 60_000);
});

describe("the first index", () => {
  it("reports work-done progress from begin to end, and a cancelled request answers RequestCancelled while the index goes on", async () => {
    const root = srcCopy();
    const s = await startLsp(root);
    try {
      // Asked at once, while the first index runs, and cancelled once the server holds it (50 ms):
      // answered before the index ends.
      const source = new CancellationTokenSource();
      const pending = s.connection.sendRequest("workspace/symbol", { query: "engine" }, source.token);
      setTimeout(() => source.cancel(), 50);
      await expect(pending).rejects.toMatchObject({ code: LSPErrorCodes.RequestCancelled });
      expect(s.progress.some((p) => p.value.kind === "end")).toBe(false);

      // The index was not stopped: the next request gets the answer, and progress ran to its end.
      const hits = (await s.connection.sendRequest("workspace/symbol", { query: "createEngine" })) as {
        name: string;
      }[];
      expect(hits.map((h) => h.name)).toContain("createEngine");
      const kinds = s.progress.map((p) => p.value.kind);
      expect(s.created.length).toBe(1);
      expect(new Set(s.progress.map((p) => p.token))).toEqual(new Set(s.created));
      expect(kinds[0]).toBe("begin");
      expect(kinds.at(-1)).toBe("end");
      expect(kinds.filter((k) => k === "report").length).toBeGreaterThanOrEqual(2);
      const pct = s.progress.flatMap((p) => (p.value.percentage === undefined ? [] : [p.value.percentage]));
      expect(pct).toEqual([...pct].sort((a, b) => a - b));
      expect(s.progress.some((p) => p.value.message?.startsWith("parsing:"))).toBe(true);
    } finally {
      await s.close();
    }
  }, 300_000);

  it("reports the index's progress on a request's own workDoneToken when the request waits for it", async () => {
    const root = srcCopy();
    // No window.workDoneProgress: the server starts no progress of its own, only the request's.
    const s = await startLsp(root, [], { progress: false });
    try {
      const hits = (await s.connection.sendRequest("workspace/symbol", {
        query: "createEngine",
        workDoneToken: "ws-1",
      })) as { name: string }[];
      expect(hits.map((h) => h.name)).toContain("createEngine");
      expect(s.created).toEqual([]);
      const kinds = s.progress.filter((p) => p.token === "ws-1").map((p) => p.value.kind);
      expect([kinds[0], kinds.at(-1), kinds.length >= 3]).toEqual(["begin", "end", true]);
      expect(s.progress.every((p) => p.token === "ws-1")).toBe(true);
    } finally {
      await s.close();
    }
  }, 300_000);

  it("sends no progress to a client that cannot show it", async () => {
    const root = fixtureDir();
    const s = await startLsp(root, [], { progress: false });
    try {
      expect(await s.connection.sendRequest("workspace/symbol", { query: "cart" })).not.toEqual([]);
      expect([s.created, s.progress]).toEqual([[], []]);
    } finally {
      await s.close();
    }
  }, 120_000);
});

const deno = path.join(repoRoot, "node_modules", ".bin", "deno");

describe.runIf(fs.existsSync(deno))("codeslice lsp under Deno (deno run -A)", () => {
  it("answers a definition and follows an unsaved edit", async () => {
    const root = fixtureDir();
    const s = await startLsp(root, [], { command: [deno, "run", "-A"] });
    try {
      expect((await definition(s, "web/src/app.ts", 5, 14)).map((d) => d.data.qualified)).toEqual([
        "web/src/cart.ts#Cart.total",
      ]);
      const uri = s.uri("web/src/app.ts");
      const text = fs.readFileSync(path.join(root, "web/src/app.ts"), "utf8");
      await s.connection.sendNotification("textDocument/didOpen", {
        textDocument: { uri, languageId: "typescript", version: 1, text: text.replace("cart.total()", "cart.add(1)") },
      });
      expect((await definition(s, "web/src/app.ts", 5, 14)).map((d) => d.data.qualified)).toEqual([
        "web/src/cart.ts#Cart.add",
      ]);
      expect(s.progress.at(-1)?.value.kind).toBe("end");
    } finally {
      await s.close();
    }
  }, 180_000);
});
