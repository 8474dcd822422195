/**
 * The language server inside the engine worker: each `lsp` message brings a MessagePort, and the
 * worker serves the Language Server Protocol on it (src/lsp's handlers and wiring, over
 * `vscode-languageserver/browser`) about whatever project the engine worker has open when each
 * request arrives. One engine and one index serve both the page's engine calls and its editor.
 */
import { EngineError, type Engine } from "../index.ts";
import { serveLspOnPort, type LspPort } from "../lsp/browser.ts";
import { LspHandlers } from "../lsp/handlers.ts";
import type { OverlayFileSystem } from "../lsp/overlay-fs.ts";

/** The document URI root used when the client's `initialize` names none: `file:///workspace/<path>`. */
export const DEFAULT_ROOT_URI = "file:///workspace";

/** What the language server needs of the worker's open project. */
export interface LspProject {
  engine: Engine;
  /** The project's files with the editor's unsaved text laid over them (the engine reads through it). */
  overlay: OverlayFileSystem;
}

/**
 * Serves the language server on `port` for the project `current()` returns at each request (a
 * request with no project open fails with `no_index` and what to do).
 */
export function serveProjectLsp(port: LspPort, current: () => LspProject | undefined, version = "worker"): void {
  const made = new WeakMap<LspProject, LspHandlers>();
  serveLspOnPort(port, {
    version,
    createHandlers(rootUri) {
      const root = rootUri ?? DEFAULT_ROOT_URI;
      return async () => {
        const project = current();
        if (!project) {
          throw new EngineError("no_index", "No project is open in the engine worker.", {
            hint: "Open one first: createWorkerEngine(worker).open(source, store).",
          });
        }
        let h = made.get(project);
        if (!h)
          made.set(project, (h = new LspHandlers({ engine: project.engine, overlay: project.overlay, rootUri: root })));
        return h;
      };
    },
  });
}
