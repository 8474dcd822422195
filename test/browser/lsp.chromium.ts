/**
 * The browser language server in real Chromium: the engine worker (serveEngine, as the playground
 * and embedders start it) serving LSP on the port `createWorkerEngine(worker).languageServer()`
 * gives, driven by `vscode-languageserver-protocol/browser`'s client over that port. The stdio
 * suite's comparison (test/lsp/agreement-core.ts) runs against it: definition, references, hover,
 * document and workspace symbols, call hierarchy and code lenses agree with the CLI's answers
 * (computed by the Node side, `commands.lspGold`) on the MCP fixture and on this repository's
 * src/ at ≥ 50 positions each; an unsaved edit changes the answer; a cancelled request answers
 * RequestCancelled while the first index goes on; the index reports work-done progress.
 */
import { afterEach, describe, expect, it } from "vitest";
import { commands } from "vitest/browser";
import {
  BrowserMessageReader,
  BrowserMessageWriter,
  CancellationTokenSource,
  createProtocolConnection,
  LSPErrorCodes,
  WorkDoneProgressCreateRequest,
  type InitializeResult,
  type Location,
  type ProtocolConnection,
} from "vscode-languageserver-protocol/browser";
import { createWorkerEngine, type WorkerEngine } from "../../src/worker/index.ts";
import { compareWithCli, type LineOf } from "../lsp/agreement-core.ts";
import type { LspGold } from "./support/node-commands.ts";

const lspGold = (commands as unknown as { lspGold(which: "fixture" | "src", sample: number): Promise<LspGold> })
  .lspGold;

/** One engine worker, its project and a client connected to its language server. */
interface Session {
  engine: WorkerEngine;
  connection: ProtocolConnection;
  init: InitializeResult;
  rootUri: string;
  progress: { token: string | number; value: { kind: string; message?: string; percentage?: number } }[];
  created: (string | number)[];
  uri(path: string): string;
}

let open: Session[] = [];
afterEach(() => {
  for (const s of open) {
    s.connection.dispose();
    s.engine.terminate();
  }
  open = [];
});

/** Starts the engine worker on `files` (not indexed yet) and initializes a client on its language server. */
async function start(
  files: Record<string, string>,
  options: { progress?: boolean; index?: boolean } = {},
): Promise<Session> {
  const worker = new Worker(new URL("./support/engine.worker.ts", import.meta.url), { type: "module" });
  const engine = createWorkerEngine(worker);
  await engine.open({ kind: "files", files, label: "project" }, { kind: "memory" });
  if (options.index) await engine.index();
  const port = engine.languageServer();
  const connection = createProtocolConnection(new BrowserMessageReader(port), new BrowserMessageWriter(port));
  const progress: Session["progress"] = [];
  const created: Session["created"] = [];
  connection.onRequest(WorkDoneProgressCreateRequest.type, (p) => void created.push(p.token));
  connection.onNotification("$/progress", (p: Session["progress"][number]) => void progress.push(p));
  connection.listen();
  const rootUri = "file:///project";
  const init = (await connection.sendRequest("initialize", {
    processId: null,
    rootUri,
    workspaceFolders: null,
    capabilities: {
      window: { workDoneProgress: options.progress !== false },
      textDocument: { callHierarchy: {}, codeLens: {} },
    },
  })) as InitializeResult;
  await connection.sendNotification("initialized", {});
  const s: Session = {
    engine,
    connection,
    init,
    rootUri,
    progress,
    created,
    uri: (path) => `${rootUri}/${path.split("/").map(encodeURIComponent).join("/")}`,
  };
  open.push(s);
  return s;
}

function linesOf(files: Record<string, string>): LineOf {
  const split = new Map<string, string[]>();
  return (file, n) => {
    let l = split.get(file);
    if (!l) split.set(file, (l = (files[file] ?? "").split("\n")));
    return l[n - 1] ?? "";
  };
}

type Def = Location & { data: { qualified: string } };
const definition = (s: Session, file: string, line: number, character: number) =>
  s.connection.sendRequest("textDocument/definition", {
    textDocument: { uri: s.uri(file) },
    position: { line, character },
  }) as Promise<Def[]>;

describe("the language server in the engine worker agrees with the CLI", () => {
  it("on the fixture", async () => {
    const { files, gold } = await lspGold("fixture", 50);
    const s = await start(files);
    expect(s.init.capabilities).toMatchObject({
      definitionProvider: true,
      referencesProvider: true,
      callHierarchyProvider: true,
      codeLensProvider: { resolveProvider: true },
    });
    const a = await compareWithCli(s, gold, linesOf(files));
    expect(a.mismatches).toEqual([]);
    for (const n of Object.values(a.checked)) expect(n).toBeGreaterThanOrEqual(3);
  });

  it("on this repository's src/, at ≥ 50 positions per request", async () => {
    const t0 = performance.now();
    const { files, gold } = await lspGold("src", 50);
    const t1 = performance.now();
    const s = await start(files);
    const a = await compareWithCli(s, gold, linesOf(files));
    console.log(
      `browser agreement on src/: ${JSON.stringify(a.checked)} (CLI answers ${Math.round(t1 - t0)} ms, browser server ${Math.round(performance.now() - t1)} ms)`,
    );
    expect(a.mismatches).toEqual([]);
    for (const [request, n] of Object.entries(a.checked)) expect([request, n >= 50]).toEqual([request, true]);
  }, 600_000);
});

describe("open documents", () => {
  it("answers from unsaved text, and from the project's file again once the document is closed", async () => {
    const { files } = await lspGold("fixture", 0);
    const s = await start(files);
    const file = "shop/service.py";
    const uri = s.uri(file);
    const saved = files[file]!;
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
    const hover = (await s.connection.sendRequest("textDocument/hover", {
      textDocument: { uri },
      position: { line: 6, character: 6 },
    })) as { contents: { value: string } };
    expect(hover.contents.value).toContain("Greet a new user.");
    // The page's own engine calls read the same unsaved text: one index for both.
    expect((await s.engine.callers("shop.service.welcome")).results.map((r) => r.qualified)).toEqual([
      "shop.service.register",
    ]);

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
  });

  it("follows the project the worker opens next, and says what to do when none is open", async () => {
    const { files } = await lspGold("fixture", 0);
    const s = await start(files, { index: true });
    expect((await definition(s, "web/src/app.ts", 5, 14)).map((d) => d.data.qualified)).toEqual([
      "web/src/cart.ts#Cart.total",
    ]);
    await s.engine.close();
    await expect(definition(s, "web/src/app.ts", 5, 14)).rejects.toMatchObject({
      code: LSPErrorCodes.RequestFailed,
      message: expect.stringContaining("open("),
    });
    const other = {
      "web/src/app.ts": files["web/src/app.ts"]!.replace("cart.total()", "cart.add(1)"),
      "web/src/cart.ts": files["web/src/cart.ts"]!,
      "web/src/format.ts": files["web/src/format.ts"]!,
    };
    await s.engine.open({ kind: "files", files: other, label: "other" }, { kind: "memory" });
    expect((await definition(s, "web/src/app.ts", 5, 14)).map((d) => d.data.qualified)).toEqual([
      "web/src/cart.ts#Cart.add",
    ]);
  });
});

describe("an in-memory project", () => {
  it("is not re-scanned before each answer: the engine watches the overlay alone, and an edit still changes the answer", async () => {
    const { files } = await lspGold("fixture", 0);
    const s = await start(files, { index: true });
    await s.engine.refresh(); // the one re-scan a watching engine makes after its first index
    expect(await s.engine.refresh()).toMatchObject({ mode: "watch", parsed: 0 });
    const uri = s.uri("web/src/app.ts");
    await s.connection.sendNotification("textDocument/didOpen", {
      textDocument: {
        uri,
        languageId: "typescript",
        version: 1,
        text: files["web/src/app.ts"]!.replace("cart.total()", "cart.add(1)"),
      },
    });
    expect((await definition(s, "web/src/app.ts", 5, 14)).map((d) => d.data.qualified)).toEqual([
      "web/src/cart.ts#Cart.add",
    ]);
    expect(await s.engine.refresh()).toMatchObject({ mode: "watch", parsed: 0 });
  });
});

describe("the first index", () => {
  it("reports work-done progress from begin to end, and a cancelled request answers RequestCancelled while the index goes on", async () => {
    const { files } = await lspGold("src", 0);
    const s = await start(files);
    const source = new CancellationTokenSource();
    const pending = s.connection.sendRequest("workspace/symbol", { query: "engine" }, source.token);
    setTimeout(() => source.cancel(), 50);
    const cancelledAt = performance.now();
    await expect(pending).rejects.toMatchObject({ code: LSPErrorCodes.RequestCancelled });
    console.log(`cancel answered after ${Math.round(performance.now() - cancelledAt - 50)} ms`);
    expect(s.progress.some((p) => p.value.kind === "end")).toBe(false);

    const hits = (await s.connection.sendRequest("workspace/symbol", { query: "createEngine" })) as { name: string }[];
    expect(hits.map((h) => h.name)).toContain("createEngine");
    const kinds = s.progress.map((p) => p.value.kind);
    expect(s.created.length).toBe(1);
    expect(new Set(s.progress.map((p) => p.token))).toEqual(new Set(s.created));
    expect([kinds[0], kinds.at(-1)]).toEqual(["begin", "end"]);
    expect(kinds.filter((k) => k === "report").length).toBeGreaterThanOrEqual(2);
    const pct = s.progress.flatMap((p) => (p.value.percentage === undefined ? [] : [p.value.percentage]));
    expect(pct).toEqual([...pct].sort((a, b) => a - b));
    expect(s.progress.some((p) => p.value.message?.startsWith("parsing:"))).toBe(true);
  }, 300_000);

  it("sends no progress to a client that cannot show it", async () => {
    const { files } = await lspGold("fixture", 0);
    const s = await start(files, { progress: false });
    expect(await s.connection.sendRequest("workspace/symbol", { query: "cart" })).not.toEqual([]);
    expect([s.created, s.progress]).toEqual([[], []]);
  });
});
