/**
 * A minimal web IDE on codeslice's public API: the engine runs in a Web Worker
 * (`serveEngine`, src/engine.worker.ts), the page opens a project in it
 * (`createWorkerEngine(worker).open`), and CodeMirror 6's LSP client talks to the language server
 * the same worker serves (`engine.languageServer()`, a MessagePort). F12 goes to a definition
 * (in another file too), Shift-F12 lists references, hovering a name shows its signature and
 * docstring; what you type is what the server answers from, before anything is saved.
 */
import { createWorkerEngine } from "codeslice/worker";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { javascript } from "@codemirror/lang-javascript";
import { python } from "@codemirror/lang-python";
import { syntaxHighlighting, defaultHighlightStyle } from "@codemirror/language";
import {
  findReferencesKeymap, hoverTooltips, jumpToDefinitionKeymap, LSPClient, LSPPlugin, Workspace, type Transport, type WorkspaceFile,
} from "@codemirror/lsp-client";
import { EditorState, Text, type Extension } from "@codemirror/state";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";
import { SAMPLE } from "./sample.ts";

/** Documents are `<ROOT>/<path>`; the server maps them to the project's paths. */
const ROOT = "file:///shop";
const status = document.querySelector<HTMLElement>("#status")!;
const position = document.querySelector<HTMLElement>("#position")!;
const fileList = document.querySelector<HTMLElement>("#files")!;
const title = document.querySelector<HTMLElement>("#file")!;

/** The language server's port as CodeMirror's LSP transport: messages cross as objects, the client speaks strings. */
function portTransport(port: MessagePort): Transport {
  const handlers = new Set<(message: string) => void>();
  port.onmessage = (event) => {
    const text = JSON.stringify(event.data);
    for (const h of handlers) h(text);
  };
  return {
    send: (message) => port.postMessage(JSON.parse(message)),
    subscribe: (h) => void handlers.add(h),
    unsubscribe: (h) => void handlers.delete(h),
  };
}

const pathOf = (uri: string) => decodeURIComponent(uri.slice(ROOT.length + 1));
let current = "";
const languageOf = (path: string) => (path.endsWith(".py") ? "python" : "typescript");
const syntaxOf = (path: string): Extension => (path.endsWith(".py") ? python() : javascript({ typescript: true }));

/** A project file as the LSP client tracks it: the text last sent to the server, shown in the editor or not. */
interface ProjectFile extends WorkspaceFile {
  path: string;
}

/**
 * Every file of the project, open on the server from the start (so references and definitions
 * anywhere can be listed and shown), and one editor that shows one of them at a time. What is
 * typed into a file is sent to the server (didChange) and kept when another file is shown.
 */
class ProjectWorkspace extends Workspace {
  files: ProjectFile[];

  constructor(client: LSPClient) {
    super(client);
    this.files = Object.entries(SAMPLE).map(([path, text]) => ({
      path, uri: `${ROOT}/${path}`, languageId: languageOf(path), version: 0, doc: Text.of(text.split("\n")),
      getView: () => (path === current ? view : null),
    }));
  }

  syncFiles() {
    const out = [];
    for (const file of this.files) {
      const shown = file.getView();
      const plugin = shown && LSPPlugin.get(shown);
      if (!plugin || plugin.unsyncedChanges.empty) continue;
      out.push({ changes: plugin.unsyncedChanges, file, prevDoc: file.doc });
      file.doc = shown.state.doc;
      file.version++;
      plugin.clear();
    }
    return out;
  }

  // Every file is open for the whole session: an editor showing it or not changes nothing.
  openFile() {}
  closeFile() {}

  /** A definition or reference in another file: show it in the editor, which the client then moves to. */
  async displayFile(uri: string) {
    show(pathOf(uri));
    return view;
  }
}

/** What the editor uses of the server: what codeslice answers (no completion, diagnostics or formatting). */
// (Each one an array: the client takes a non-array entry for a capabilities object, not an extension.)
const LSP_FEATURES = [[hoverTooltips()], [keymap.of([...jumpToDefinitionKeymap, ...findReferencesKeymap])]];

const worker = new Worker(new URL("./engine.worker.ts", import.meta.url), { type: "module" });
const engine = createWorkerEngine(worker);
const client = new LSPClient({ rootUri: ROOT, timeout: 30_000, workspace: (c) => new ProjectWorkspace(c), extensions: LSP_FEATURES });
const view = new EditorView({ parent: document.querySelector("#editor")! });

/** Puts `path` in the editor, with the language server's plugin for its document. */
function show(path: string): void {
  client.sync(); // what was typed into the file shown so far reaches the server (and the file's doc)
  const file = client.workspace.getFile(`${ROOT}/${path}`)!;
  current = path;
  view.setState(EditorState.create({
    doc: file.doc,
    extensions: [
      lineNumbers(), history(), keymap.of([...defaultKeymap, ...historyKeymap]), syntaxHighlighting(defaultHighlightStyle), syntaxOf(path),
      client.plugin(`${ROOT}/${path}`, languageOf(path)),
      EditorView.updateListener.of((u) => {
        if (u.selectionSet || u.docChanged) showPosition();
      }),
    ],
  }));
  title.textContent = path;
  for (const b of fileList.querySelectorAll("button")) b.setAttribute("aria-current", String(b.dataset.path === path));
  showPosition();
}

function showPosition(): void {
  const head = view.state.selection.main.head;
  const line = view.state.doc.lineAt(head);
  position.textContent = `${current}:${line.number}:${head - line.from + 1}`;
}

for (const path of Object.keys(SAMPLE)) {
  const button = document.createElement("button");
  button.textContent = path;
  button.dataset.path = path;
  button.addEventListener("click", () => {
    show(path);
    view.focus();
  });
  fileList.append(button);
}

status.textContent = "Indexing…";
await engine.open({ kind: "files", files: SAMPLE, label: "shop" }, { kind: "memory" });
const summary = await engine.index({ onProgress: (p) => (status.textContent = `Indexing: ${p.phase} ${p.done}${p.total ? `/${p.total}` : ""}`) });
client.connect(portTransport(engine.languageServer()));
await client.initializing;
show("shop/views.py");
status.textContent = `Indexed ${summary.sourceFiles} files. F12: definition · Shift-F12: references · hover a name`;
document.body.dataset.ready = "true";
