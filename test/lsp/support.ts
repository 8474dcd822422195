/**
 * A real LSP client over stdio for the tests and the bench: `node dist/cli/main.js lsp --root DIR`
 * as a child process, driven by vscode-languageserver-protocol's connection (the client side of
 * the same JSON-RPC library editors use), with `$/progress` and `window/workDoneProgress/create`
 * recorded.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  InitializeRequest,
  InitializedNotification,
  ExitNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  type ProtocolConnection,
  type InitializeResult,
} from "vscode-languageserver-protocol/node";
import { cli } from "../support/cli.ts";

/** One running server and its client connection. */
export interface LspSession {
  connection: ProtocolConnection;
  child: ChildProcessWithoutNullStreams;
  init: InitializeResult;
  rootUri: string;
  /** Every `$/progress` value received, in order, with its token. */
  progress: {
    token: string | number;
    value: { kind: string; message?: string; percentage?: number; title?: string };
  }[];
  /** Tokens the server asked the client to create. */
  created: (string | number)[];
  stderr: () => string;
  uri(path: string): string;
  close(): Promise<void>;
}

/** Starts `codeslice lsp` on `root` (under node, or `command`) and initializes it (with work-done progress support unless `progress` is false). */
export async function startLsp(
  root: string,
  extraArgs: string[] = [],
  options: { progress?: boolean; command?: string[] } = {},
): Promise<LspSession> {
  const [command, ...prefix] = options.command ?? [process.execPath];
  const child = spawn(command!, [...prefix, cli, "lsp", "--root", root, ...extraArgs], { stdio: "pipe" });
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const progress: LspSession["progress"] = [];
  const created: (string | number)[] = [];
  connection.onRequest(WorkDoneProgressCreateRequest.type, (p) => void created.push(p.token));
  connection.onNotification("$/progress", (p: LspSession["progress"][number]) => void progress.push(p));
  connection.listen();
  const rootUri = pathToFileURL(root).href;
  let init: InitializeResult;
  try {
    init = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: null,
      capabilities: {
        window: { workDoneProgress: options.progress !== false },
        textDocument: { callHierarchy: {}, codeLens: {} },
      },
    });
  } catch (error) {
    child.kill();
    connection.dispose();
    throw error;
  }
  await connection.sendNotification(InitializedNotification.type, {});
  return {
    connection,
    child,
    init,
    rootUri,
    progress,
    created,
    stderr: () => err,
    uri: (path) => `${rootUri}/${path.split("/").map(encodeURIComponent).join("/")}`,
    async close() {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      await connection.sendRequest(ShutdownRequest.type).catch(() => {});
      await connection.sendNotification(ExitNotification.type).catch(() => {});
      const timer = setTimeout(() => child.kill(), 5000);
      await exited;
      clearTimeout(timer);
      connection.dispose();
    },
  };
}
