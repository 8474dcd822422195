/**
 * The playground page: opens a project (folder, zip, files or the bundled sample) in the engine
 * worker, shows indexing progress with a cancel button, then the repo map, symbol search, the
 * context bundle under a token budget, the callers/callees picture and a chunk's lines. The page
 * thread only renders; every byte is read, unpacked, parsed and ranked in the worker.
 */
// The page imports the worker client and storage helpers directly: the engine itself is only in
// the worker's bundle.
import { deleteBrowserIndex, type StoreBackend, type StoreNotice } from "../../src/platform/browser/browser-store.ts";
import { deletePersistedTree } from "../../src/platform/browser/uploads.ts";
import { createWorkerEngine } from "../../src/worker/worker-client.ts";
import type { OpenAnswer, ProjectSource, StoreChoice, WorkerProgress } from "../../src/worker/worker-protocol.ts";
import type { ContextAnswer, IndexSummary, RepoMap, SearchHit } from "../../src/index.ts";
import { byId, debounce, fmt, h, replace } from "./dom.ts";
import { fromDrop, fromFileList, type Picked } from "./drop.ts";
import type { CodeView } from "./editor.ts";
import type { Place } from "./editor-services.ts";
import { renderNeighbourhood, shortName } from "./graph.ts";
import { progressView } from "./progress.ts";
import type { Neighbourhood, NeighbourNode } from "../../src/worker/index.ts";
import {
  canRead,
  folderHandle,
  forgetFolder,
  loadSaved,
  loadState,
  MAX_UNFINISHED,
  namespaceOf,
  newId,
  rememberFolder,
  saveState,
  type SavedProject,
  type SavedState,
} from "./projects.ts";
import { SAMPLE_FILES, SAMPLE_LABEL } from "./sample.ts";

// ---------------------------------------------------------------------------------------------
// Elements

const ui = {
  openFolder: byId<HTMLButtonElement>("open-folder"),
  openFiles: byId<HTMLButtonElement>("open-files"),
  fileInput: byId<HTMLInputElement>("file-input"),
  folderInput: byId<HTMLInputElement>("folder-input"),
  loadSample: byId<HTMLButtonElement>("load-sample"),
  reopen: byId<HTMLButtonElement>("reopen"),
  openIndex: byId<HTMLButtonElement>("open-index"),
  indexInput: byId<HTMLInputElement>("index-input"),
  saveIndex: byId<HTMLButtonElement>("save-index"),
  projectLabel: byId("project-label"),
  storeBadge: byId("store-badge"),
  files: byId<HTMLOutputElement>("files-count"),
  symbols: byId<HTMLOutputElement>("symbols-count"),
  parsed: byId<HTMLOutputElement>("parsed-count"),
  reused: byId<HTMLOutputElement>("reused-count"),
  indexTime: byId<HTMLOutputElement>("index-time"),
  progress: byId("progress"),
  progressBar: byId<HTMLProgressElement>("progress-bar"),
  progressText: byId("progress-text"),
  cancel: byId<HTMLButtonElement>("cancel"),
  messages: byId<HTMLUListElement>("messages"),
  workspace: byId("workspace"),
  map: byId("map"),
  search: byId<HTMLInputElement>("search"),
  searchForm: byId<HTMLFormElement>("search-form"),
  results: byId<HTMLOListElement>("search-results"),
  searchError: byId("search-error"),
  contextForm: byId<HTMLFormElement>("context-form"),
  target: byId<HTMLInputElement>("target"),
  budget: byId<HTMLInputElement>("budget"),
  budgetValue: byId<HTMLOutputElement>("budget-value"),
  usageMeter: byId<HTMLMeterElement>("usage-meter"),
  usage: byId("usage"),
  chunks: byId<HTMLOListElement>("chunks"),
  cut: byId("cut"),
  bundle: byId("bundle"),
  bundleDetails: byId<HTMLDetailsElement>("bundle-details"),
  copyBundle: byId<HTMLButtonElement>("copy-bundle"),
  downloadBundle: byId<HTMLButtonElement>("download-bundle"),
  bundleStatus: byId("bundle-status"),
  contextError: byId("context-error"),
  graph: byId("graph"),
  graphBack: byId<HTMLButtonElement>("graph-back"),
  graphError: byId("graph-error"),
  impact: byId("impact"),
  impactError: byId("impact-error"),
  snippetTitle: byId("snippet-title"),
  snippet: byId("snippet"),
  snippetError: byId("snippet-error"),
};

// ---------------------------------------------------------------------------------------------
// Settings from the address: ?store=opfs|indexeddb|memory forces where the index lives.

const params = new URLSearchParams(location.search);
const preferredStore = ((): StoreBackend | undefined => {
  const s = params.get("store");
  return s === "opfs" || s === "indexeddb" || s === "memory" ? s : undefined;
})();

/** ?jobs=N: parse threads for the engine (1 parses in the engine worker; default: cores minus one). */
const jobs = ((): number | undefined => {
  const n = Number(params.get("jobs"));
  return Number.isInteger(n) && n >= 1 && n <= 8 ? n : undefined;
})();

/** A target and budget from the address (`?target=…&budget=…`), sliced once a project is indexed. */
let pendingTarget = params.get("target")?.trim() || undefined;
{
  const b = Number(params.get("budget"));
  if (Number.isInteger(b) && b >= Number(ui.budget.min) && b <= Number(ui.budget.max)) {
    ui.budget.value = String(b);
    ui.budgetValue.value = fmt(b);
  }
}

/** Keeps the target and budget in the address, so a slice can be shared or bookmarked. */
function writeUrl(target: string | undefined): void {
  const url = new URL(location.href);
  if (target) url.searchParams.set("target", target);
  else url.searchParams.delete("target");
  url.searchParams.set("budget", ui.budget.value);
  history.replaceState(null, "", url);
}

/** Most files accepted from one drop, zip or folder upload (a 50,000-file folder fits). */
const MAX_UPLOAD_FILES = 100_000;

// ---------------------------------------------------------------------------------------------
// Messages

type Level = "error" | "warning" | "info";

/** A button a message offers ("Re-index", "Delete"). */
interface Action {
  label: string;
  run: () => void | Promise<void>;
}

/**
 * Adds a message to the list under the status bar. An error replaces the error shown before it
 * (one at a time, announced as an alert); warnings and notes stay until dismissed or the next open.
 */
function say(
  level: Level,
  title: string,
  body?: string,
  hint?: string,
  code?: string,
  actions: Action[] = [],
): HTMLLIElement {
  if (level === "error") for (const old of ui.messages.querySelectorAll("li.error")) old.remove();
  const li = h(
    "li",
    {
      class: `message ${level}`,
      "data-level": level,
      "data-code": code,
      ...(level === "error" ? { role: "alert" } : {}),
    },
    h("strong", {}, title),
    body ? h("span", { class: "body" }, ` ${body}`) : null,
    hint ? h("span", { class: "hint" }, ` ${hint}`) : null,
    actions.length
      ? h(
          "span",
          { class: "actions" },
          actions.map((a) =>
            h("button", { type: "button", "data-action": a.label, onclick: () => void a.run() }, a.label),
          ),
        )
      : null,
    h("button", { type: "button", class: "dismiss", "aria-label": "Dismiss", onclick: () => li.remove() }, "×"),
  );
  ui.messages.append(li);
  return li;
}

function clearMessages(): void {
  ui.messages.replaceChildren();
}

/** What an error from the worker says, for a message: title, text, hint and code. */
function describeError(error: unknown, doing: string): { title: string; message: string; hint?: string; code: string } {
  const e = error as { name?: string; code?: string; message?: string; hint?: string; data?: Record<string, unknown> };
  const reason = typeof e?.data?.reason === "string" ? e.data.reason : undefined;
  const titles: Record<string, string> = {
    not_a_zip: "That is not a zip archive.",
    damaged_zip: "The archive is damaged.",
    too_many_files: "Too many files.",
    too_large: "Too large to open here.",
    wasm_missing: "A parser file could not be loaded.",
    wasm_mismatch: "A grammar failed to load.",
    grammar_incompatible: "A grammar failed to load.",
    permission_denied: "The browser refused access.",
    root_not_found: "The project is gone.",
    unknown_symbol: "No such symbol.",
    ambiguous_symbol: "Several symbols match.",
    budget_too_small: "The budget is too small.",
    no_supported_files: "Nothing to index.",
    cache_refused: "The browser storage for this project is not codeslice's.",
    artifact_foreign: "That is not a codeslice index file.",
    artifact_truncated: "The index file is cut short.",
    artifact_corrupt: "The index file is damaged.",
    artifact_version_mismatch: "The index file was made by another codeslice version.",
  };
  const key = (e?.code === "cache_refused" || e?.code?.startsWith("artifact_") ? e.code : reason) ?? e?.code ?? "";
  // The engine's hint for a damaged wasm/ folder speaks to package users; here the site serves it.
  const hint =
    key.startsWith("wasm_") || key === "grammar_incompatible"
      ? "Reload the page to fetch it again; if this persists, the site's wasm/ folder is damaged. Projects in other languages still open."
      : e?.hint;
  return {
    title: titles[key] ?? `${doing} failed.`,
    message: e?.message ?? String(error),
    ...(hint ? { hint } : {}),
    code: key || "error",
  };
}

/** Shows an error from the worker as a specific message; returns true when it was a cancellation. */
function report(error: unknown, doing: string, actions: Action[] = []): boolean {
  if ((error as { code?: string })?.code === "cancelled") {
    say(
      "info",
      "Cancelled.",
      `${doing} was stopped; the page is ready for something else.`,
      undefined,
      "cancelled",
      actions,
    );
    return true;
  }
  const d = describeError(error, doing);
  say("error", d.title, d.message, d.hint, d.code, actions);
  return false;
}

/**
 * Shows an error in the panel whose request failed, in place of its old result: one message at a
 * time, in an element with role="alert" so screen readers announce it.
 */
function panelError(slot: HTMLElement, error: unknown, doing: string): void {
  const d = describeError(error, doing);
  slot.dataset.code = d.code;
  replace(
    slot,
    h("strong", {}, d.title),
    ` ${d.message}`,
    d.hint ? h("span", { class: "hint" }, ` ${d.hint}`) : null,
    suggestionLinks(error),
  );
  slot.hidden = false;
}

/** The engine's suggestions ("Did you mean …?") as links that slice the context of each. */
function suggestionLinks(error: unknown): HTMLElement | null {
  // Suggestions for an unknown name; candidates when a name matches several symbols.
  const data = (error as { data?: { suggestions?: unknown; candidates?: unknown } })?.data;
  const raw = data?.suggestions ?? data?.candidates;
  if (!Array.isArray(raw)) return null;
  const targets = raw
    .map((x) =>
      typeof x === "string"
        ? x
        : typeof (x as { qualified?: unknown })?.qualified === "string"
          ? (x as { qualified: string }).qualified
          : undefined,
    )
    .filter((x): x is string => x !== undefined)
    .slice(0, 8);
  if (!targets.length) return null;
  return h(
    "span",
    { class: "suggestions" },
    data?.candidates ? " Pick one: " : "Try: ",
    targets.map((t, i) => [i ? ", " : "", symbolButton(t, t, `Slice the context of ${t}`)]).flat(),
  );
}

function clearPanelError(slot: HTMLElement): void {
  slot.hidden = true;
  slot.replaceChildren();
  delete slot.dataset.code;
}

// ---------------------------------------------------------------------------------------------
// The engine worker

let storeNoticeShown = false;
const engine = createWorkerEngine(new Worker(new URL("./engine.worker.ts", import.meta.url), { type: "module" }), {
  onNotice: (notice: StoreNotice) => showStoreNotice(notice),
});

// ---------------------------------------------------------------------------------------------
// The code view: files and the editor, answered by the engine worker's language server

// Definition, references, hover and calls go through the browser language server in the engine worker.
// The editor and the protocol client are most of the page's script (see docs/browser.md): they load
// in a chunk of their own while the page opens, so the buttons and the engine start without them.
const codeModules = Promise.all([import("./editor.ts"), import("./lsp-services.ts")]);
const editorServices = codeModules.then(([, lsp]) => lsp.lspEditorServices(engine));
const codeView: Promise<CodeView> = Promise.all([codeModules, editorServices]).then(([[editor], services]) =>
  editor.createCodeView(
    {
      panel: byId("code-panel"),
      tree: byId("code-tree"),
      title: byId("code-path"),
      editor: byId("code-editor"),
      results: byId("code-results"),
      status: byId("code-status"),
      back: byId<HTMLButtonElement>("code-back"),
      forward: byId<HTMLButtonElement>("code-forward"),
      actions: byId("code-actions"),
      quickOpen: byId<HTMLDialogElement>("quick-open"),
      quickInput: byId<HTMLInputElement>("quick-input"),
      quickList: byId("quick-list"),
    },
    services,
    {
      onSymbol: (symbol) => select(symbol, { fromEditor: true }),
      // Copy context and quick open's symbols go through the language server too (codeslice/context, workspace/symbol).
      context: async (symbol) => {
        const a = await services.context(symbol, Number(ui.budget.value));
        return { text: a.text, tokens: a.usage.tokens };
      },
      searchSymbols: (query) => services.symbols(query),
    },
  ),
);

codeView.catch((error) =>
  say(
    "error",
    "The code editor did not load.",
    (error as Error)?.message ?? String(error),
    "Reload the page to fetch it again; the other panels work without it.",
    "editor_unavailable",
  ),
);
const none = () => undefined;

/** The code view's commands, run in call order once its chunk is loaded (nothing when it failed to load). */
const code = {
  open: (place: Place, options?: { reveal?: boolean }) => codeView.then((c) => c.open(place, options), none),
  reset: () => void codeView.then((c) => c.reset(), none),
  setFiles: (paths: string[]) => void codeView.then((c) => c.setFiles(paths), none),
};

/** Lists the project's files in the code view (after every index run). */
async function showFiles(signal?: AbortSignal): Promise<void> {
  code.setFiles(await (await editorServices).files(signal));
}

function showStoreNotice(notice: StoreNotice): void {
  setStoreBadge(notice.backend);
  if (storeNoticeShown) return;
  storeNoticeShown = true;
  say(
    "warning",
    notice.reason === "quota_exceeded" ? "Storage is full." : "Storage is not available.",
    notice.message,
    undefined,
    notice.reason,
  );
}

function setStoreBadge(backend: StoreBackend): void {
  ui.storeBadge.hidden = false;
  ui.storeBadge.textContent =
    backend === "opfs"
      ? "index kept in OPFS"
      : backend === "indexeddb"
        ? "index kept in IndexedDB"
        : "index in memory only";
  ui.storeBadge.dataset.backend = backend;
}

// ---------------------------------------------------------------------------------------------
// Progress and cancellation

let busy: AbortController | undefined;

function startBusy(label: string): AbortController {
  busy?.abort();
  const controller = new AbortController();
  busy = controller;
  ui.progress.hidden = false;
  ui.progressBar.removeAttribute("value");
  ui.progressText.textContent = label;
  document.body.dataset.busy = "true";
  return controller;
}

function onProgress(p: WorkerProgress): void {
  const view = progressView(p);
  ui.progressText.textContent = view.text;
  if (view.max !== undefined && view.value !== undefined) {
    ui.progressBar.max = view.max;
    ui.progressBar.value = view.value;
  } else ui.progressBar.removeAttribute("value");
  // The last run's time must not sit beside a bar for this one.
  ui.indexTime.value = "indexing…";
}

function endBusy(controller: AbortController): void {
  if (busy !== controller) return;
  busy = undefined;
  ui.progress.hidden = true;
  delete document.body.dataset.busy;
}

ui.cancel.addEventListener("click", () => busy?.abort());

// ---------------------------------------------------------------------------------------------
// Opening projects

let current: SavedProject | undefined;

function storeFor(project: SavedProject): StoreChoice {
  return { kind: "browser", namespace: namespaceOf(project), ...(preferredStore ? { prefer: preferredStore } : {}) };
}

/** Deletes what a project left in browser storage, when a new project replaces it. */
async function discard(old: SavedProject | undefined, next: SavedProject): Promise<void> {
  if (!old || old.kind === "sample" || namespaceOf(old) === namespaceOf(next)) return;
  await deleteBrowserIndex(namespaceOf(old)).catch(() => {});
  if (old.kind === "persisted") await deletePersistedTree(old.id);
  if (old.kind === "folder") await forgetFolder(old.id);
}

function resetPanels(): void {
  ui.workspace.dataset.state = "empty";
  ui.saveIndex.disabled = true;
  delete document.body.dataset.indexed;
  ui.storeBadge.hidden = true;
  for (const o of [ui.files, ui.symbols, ui.parsed, ui.reused]) o.value = "0";
  ui.indexTime.value = "–";
  replace(ui.map, h("p", { class: "empty" }, "Indexing…"));
  // What was typed for the last project means nothing in the next one.
  runSearch.cancel();
  searchRun?.abort();
  ui.search.value = "";
  ui.target.value = "";
  ui.results.replaceChildren();
  ui.results.removeAttribute("aria-busy");
  delete ui.results.dataset.query;
  clearContext();
  for (const slot of [ui.searchError, ui.contextError, ui.graphError, ui.impactError, ui.snippetError])
    clearPanelError(slot);
  graphShown = undefined;
  graphHistory.length = 0;
  showBack();
  replace(ui.graph, h("p", { class: "empty" }, "Pick a symbol to see who calls it and what it calls."));
  ui.snippetTitle.textContent = "Lines";
  replace(ui.snippet, h("span", { class: "empty" }, "Open a chunk to read its lines."));
  code.reset();
}

const sameProject = (a: SavedProject | undefined, b: SavedProject) =>
  a !== undefined && namespaceOf(a) === namespaceOf(b);

/**
 * Opens and indexes a project. The saved state says `opening` from the moment the project can be
 * re-opened (its files are kept) until its index is done, so a reload in between re-opens it; an
 * error or a cancel marks it `failed`, and a failed project is offered, never re-opened by itself.
 * `attempts` counts unfinished starts (see MAX_UNFINISHED).
 */
async function openProject(
  source: ProjectSource,
  project: SavedProject,
  label: string,
  attempts = 1,
  keepMessages = false,
): Promise<void> {
  const controller = startBusy(`Opening ${label}…`);
  if (!keepMessages) clearMessages();
  storeNoticeShown = false;
  resetPanels();
  ui.reopen.hidden = true;
  ui.projectLabel.textContent = label;
  const previous = current;
  current = undefined;
  let openedNew = false;
  let restore: SavedProject | undefined;
  try {
    const opened = await engine.open(source, storeFor(project), {
      signal: controller.signal,
      onProgress,
      ...(jobs ? { jobs } : {}),
    });
    openedNew = true;
    lastOpened = opened;
    describeOpened(opened);
    await discard(previous && previous !== project ? previous : loadSaved(), project);
    // An upload kept only in memory cannot come back after a reload.
    const keepable = !(project.kind === "persisted" && opened.unpacked && !opened.unpacked.persisted);
    saveState(keepable ? { project, status: "opening", attempts } : undefined);
    current = project;
    if (pendingIndexFile) {
      // A bad index file is reported, and the project is indexed from its files as usual.
      await importIndexFile(pendingIndexFile, controller.signal).catch((error) => {
        if ((error as { code?: string })?.code === "cancelled") throw error;
        report(error, "Loading the index file");
      });
    }
    ui.progressText.textContent = "Indexing…";
    const started = performance.now();
    const summary = await engine.index({ signal: controller.signal, onProgress });
    describeIndex(summary, opened);
    mapping();
    // Ask the browser not to evict the index under storage pressure (Chromium decides without a prompt).
    if (opened.store.backend !== "memory") void navigator.storage?.persist?.().catch(() => false);
    ui.workspace.dataset.state = "ready";
    document.body.dataset.indexed = "true";
    // An empty project has no index worth a file, and nothing to bring back after a reload.
    const empty = summary.sourceFiles === 0;
    ui.saveIndex.disabled = empty;
    if (empty) replace(ui.map, h("p", { class: "empty" }, "No source files to map."));
    else await showMap(controller.signal);
    indexed(started);
    if (keepable && !empty) saveState({ project, status: "ready", attempts: 0 });
    else if (empty && sameProject(loadSaved(), project)) saveState(undefined);
    if (pendingTarget) {
      ui.target.value = pendingTarget;
      pendingTarget = undefined;
      void runContext();
    }
  } catch (error) {
    current = undefined;
    ui.projectLabel.textContent = `${label} (not open)`;
    ui.storeBadge.hidden = true;
    replace(ui.map, h("p", { class: "empty" }, "Open a project to see its map."));
    const saved = loadState();
    if (sameProject(saved?.project, project)) {
      // Remembered as failed: the next visit offers it instead of running into the same wall.
      const d = describeError(error, `Opening ${label}`);
      const failure =
        (error as { code?: string })?.code === "cancelled"
          ? { title: "Indexing was cancelled.", message: `${label} was not finished.`, code: "cancelled" }
          : { title: d.title, message: d.message, code: d.code };
      saveState({ project, status: "failed", attempts: saved!.attempts, failure });
      report(error, `Opening ${label}`, recoveryActions(project));
    } else report(error, `Opening ${label}`);
    // The new project never opened (a damaged archive, say): the one before comes back as it was,
    // from its stored index, rather than leaving an empty page whose panels answer nothing.
    if (!openedNew && previous && previous !== project && (error as { code?: string })?.code !== "cancelled")
      restore = previous;
  } finally {
    endBusy(controller);
  }
  if (restore) await reopenQuietly(restore);
}

/** Opens `project` again from its kept files and stored index, keeping the messages on screen. */
async function reopenQuietly(project: SavedProject): Promise<void> {
  const label = project.kind === "sample" ? SAMPLE_LABEL : project.label;
  if (project.kind === "sample")
    return openProject({ kind: "files", files: SAMPLE_FILES, label }, project, label, 1, true);
  if (project.kind === "persisted")
    return openProject({ kind: "persisted", id: project.id, label }, project, label, 1, true);
  const handle = await folderHandle(project.id);
  if (handle && (await canRead(handle, false).catch(() => false)))
    return openProject({ kind: "handle", handle, label: handle.name }, project, label, 1, true);
}

/** What a project that could not be opened offers: index it again from its files, or delete it. */
function recoveryActions(project: SavedProject): Action[] {
  return [
    { label: "Re-index", run: () => reindex(project) },
    { label: "Delete", run: () => forget(project) },
  ];
}

/** Drops the project's index and opens it again from its files. */
async function reindex(project: SavedProject): Promise<void> {
  if (busy) return;
  await deleteBrowserIndex(namespaceOf(project)).catch(() => {});
  if (project.kind === "sample") return openSample();
  if (project.kind === "persisted")
    return openProject({ kind: "persisted", id: project.id, label: project.label }, project, project.label);
  const handle = await folderHandle(project.id);
  if (handle && (await canRead(handle, true).catch(() => false)))
    return openProject({ kind: "handle", handle, label: handle.name }, project, project.label);
  say(
    "warning",
    "No access.",
    `The folder ${project.label} cannot be read again from here.`,
    "Open it again with “Open folder…”.",
    "permission_denied",
    [{ label: "Delete", run: () => forget(project) }],
  );
}

/** Deletes what the project left in this browser (index, kept files, folder handle) and forgets it. */
async function forget(project: SavedProject): Promise<void> {
  if (busy) return;
  await deleteBrowserIndex(namespaceOf(project)).catch(() => {});
  if (project.kind === "persisted") await deletePersistedTree(project.id).catch(() => {});
  if (project.kind === "folder") await forgetFolder(project.id);
  if (sameProject(loadSaved(), project)) saveState(undefined);
  if (current && sameProject(current, project)) current = undefined;
  clearMessages();
  resetPanels();
  replace(ui.map, h("p", { class: "empty" }, "Open a project to see its map."));
  ui.projectLabel.textContent = "No project open";
  say(
    "info",
    "Deleted.",
    `${project.kind === "sample" ? SAMPLE_LABEL : project.label} is gone from this browser's storage.`,
    undefined,
    "deleted",
  );
}

function describeOpened(opened: OpenAnswer): void {
  setStoreBadge(opened.store.backend);
  if (opened.store.notice) showStoreNotice(opened.store.notice);
  const u = opened.unpacked;
  if (u?.notice) say("warning", "Not saved for a reload.", u.notice, undefined, "not_persisted");
  if (u && u.skipped.length) {
    const counts = new Map<string, number>();
    for (const s of u.skipped) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
    const parts = [...counts].map(([r, n]) => `${fmt(n)} ${r.replace(/_/g, " ")}`);
    say(
      "info",
      `Left ${fmt(u.skipped.length)} file${u.skipped.length === 1 ? "" : "s"} out before indexing:`,
      `${parts.join(", ")} (e.g. ${u.skipped
        .slice(0, 3)
        .map((s) => s.path)
        .join(", ")}).`,
      undefined,
      "unpack_skipped",
    );
  }
}

/**
 * The index is written; the code graph and the map are still to come (on a big project that is
 * most of the wait, seconds after the last file is parsed): the bar says so, with no count.
 */
function mapping(): void {
  ui.progressText.textContent = "Linking calls and imports and drawing the map…";
  ui.progressBar.removeAttribute("value");
}

/** The time shown once the project answers: from the start of indexing to the map on screen. */
function indexed(started: number): void {
  ui.indexTime.value = `${fmt(Math.round(performance.now() - started))} ms`;
}

function describeIndex(s: IndexSummary, opened: OpenAnswer): void {
  ui.files.value = fmt(s.files);
  ui.symbols.value = fmt(s.symbols);
  ui.parsed.value = String(s.parsed);
  ui.reused.value = String(s.reused);
  ui.projectLabel.textContent = opened.label;
  // A grammar that failed to load leaves its language out; the rest of the project is indexed.
  const noGrammar = s.skipped.filter((f) => f.reason === "grammar_unavailable");
  if (noGrammar.length) {
    say(
      "error",
      "A grammar failed to load.",
      `${fmt(noGrammar.length)} file${noGrammar.length === 1 ? "" : "s"} left out (e.g. ${noGrammar
        .slice(0, 3)
        .map((f) => f.path)
        .join(", ")}): ${noGrammar[0]!.detail ?? ""}`,
      "Reload the page to fetch it again; if this persists, the site's wasm/ folder is damaged. Files in other languages were indexed.",
      "grammar_unavailable",
    );
  }
  const skipped = Object.entries(s.skippedByReason).filter(([reason]) => reason !== "grammar_unavailable");
  if (skipped.length) {
    const n = skipped.reduce((a, [, c]) => a + (c ?? 0), 0);
    const examples = s.skipped
      .slice(0, 3)
      .map((f) => f.path)
      .join(", ");
    say(
      "info",
      `Skipped ${fmt(n)} file${n === 1 ? "" : "s"}:`,
      `${skipped.map(([r, c]) => `${fmt(c ?? 0)} ${r.replace(/_/g, " ")}`).join(", ")} (e.g. ${examples}).`,
      undefined,
      "skipped",
    );
  }
  if (s.syntaxErrors.length) {
    say(
      "info",
      `${fmt(s.syntaxErrors.length)} file${s.syntaxErrors.length === 1 ? " has" : "s have"} syntax errors`,
      "and were indexed as far as they parse.",
      undefined,
      "syntax_errors",
    );
  }
  if (s.sourceFiles === 0)
    say(
      "warning",
      "No source files.",
      `Nothing here is in a supported language (${opened.languages.join(", ")}).`,
      undefined,
      "no_source",
    );
}

/** Whether `file` starts as a zip does (a local file header, or the end record of an empty zip). */
async function looksLikeZip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return (
    head.length === 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6) || (head[2] === 7 && head[3] === 8))
  );
}

/** The same zip (name, size, time) gets the same id, so opening it again finds its index. */
async function zipId(file: File): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`${file.name}\0${file.size}\0${file.lastModified}`),
  );
  return `zip${[...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function openPicked(picked: Picked): Promise<void> {
  if (picked.kind === "nothing") return;
  if (picked.kind === "folder") return openFolder(picked.handle);
  if (picked.kind === "zip" && !(await looksLikeZip(picked.file))) {
    // Checked before the open: a file that is no zip must not close the project that is open.
    say(
      "error",
      "That is not a zip archive.",
      `${picked.file.name} is not a zip archive: it does not start as one does.`,
      current
        ? "The open project is unchanged. Pick a .zip archive, a folder or source files."
        : "Pick a .zip archive, a folder or source files.",
      "not_a_zip",
    );
    return;
  }
  const id = picked.kind === "zip" ? await zipId(picked.file) : newId();
  const project: SavedProject = {
    kind: "persisted",
    id,
    label: picked.kind === "zip" ? picked.file.name : picked.label,
  };
  const limits = { maxFiles: MAX_UPLOAD_FILES };
  const source: ProjectSource =
    picked.kind === "zip"
      ? { kind: "zip", file: picked.file, label: picked.file.name, persistAs: id, limits }
      : { kind: "uploads", items: picked.items, label: picked.label, persistAs: id, limits };
  await openProject(source, project, project.label);
}

async function openFolder(handle: FileSystemDirectoryHandle): Promise<void> {
  const id = await rememberFolder(handle);
  await openProject(
    { kind: "handle", handle, label: handle.name },
    { kind: "folder", id, label: handle.name },
    handle.name,
  );
}

function openSample(): Promise<void> {
  return openProject({ kind: "files", files: SAMPLE_FILES, label: SAMPLE_LABEL }, { kind: "sample" }, SAMPLE_LABEL);
}

// ---------------------------------------------------------------------------------------------
// Map, search, context, graph, lines

async function showMap(signal?: AbortSignal): Promise<void> {
  const map = await engine.map({ budget: 1500, ...(signal ? { signal } : {}) });
  renderMap(map);
  await showFiles(signal);
}

function symbolButton(label: string, target: string, title?: string): HTMLButtonElement {
  return h(
    "button",
    { type: "button", class: "link", title: title ?? target, onclick: () => select(target, { reveal: true }) },
    label,
  );
}

function renderMap(map: RepoMap): void {
  replace(
    ui.map,
    h(
      "p",
      { class: "languages" },
      map.languages.map((l) =>
        h("span", { class: "chip" }, `${l.language} · ${fmt(l.files)} files · ${fmt(l.symbols)} symbols`),
      ),
    ),
    map.services.length
      ? h(
          "div",
          {},
          h("h3", {}, "Services"),
          h(
            "ul",
            {},
            map.services.map((s) =>
              h(
                "li",
                {},
                h("code", {}, s.path || "./"),
                ` ${s.manifest}${s.name ? ` “${s.name}”` : ""} · ${fmt(s.files)} files`,
              ),
            ),
          ),
        )
      : null,
    map.entryPoints.length
      ? h(
          "div",
          {},
          h("h3", {}, "Entry points"),
          h(
            "ul",
            {},
            map.entryPoints
              .slice(0, 20)
              .map((e) =>
                h(
                  "li",
                  {},
                  h("span", { class: "kind" }, e.kind),
                  " ",
                  e.symbol ? symbolButton(e.label, e.symbol) : h("span", {}, e.label),
                  h("span", { class: "where" }, ` ${e.path}:${e.line}`),
                ),
              ),
          ),
        )
      : null,
    h(
      "div",
      {},
      h("h3", {}, "Central symbols"),
      h(
        "ol",
        { class: "central" },
        map.symbols
          .slice(0, 25)
          .map((s) =>
            h(
              "li",
              {},
              h("span", { class: "kind" }, s.kind),
              " ",
              symbolButton(shortName(s.qualified), s.qualified),
              h("span", { class: "where" }, ` ${s.path}:${s.line} · ${s.references} refs`),
            ),
          ),
      ),
    ),
    map.layout.length
      ? h(
          "details",
          {},
          h("summary", {}, "Layout"),
          h(
            "ul",
            { class: "layout" },
            map.layout
              .slice(0, 40)
              .map((l) =>
                h("li", {}, h("code", {}, `${l.path}/`), ` ${fmt(l.sourceFiles)} source of ${fmt(l.files)} files`),
              ),
          ),
        )
      : null,
    h(
      "p",
      { class: "note" },
      `${fmt(map.tokens)} tokens as an agent reads it${map.omitted ? `, ${fmt(map.omitted)} lines left out` : ""}.`,
    ),
  );
}

let searchRun: AbortController | undefined;
const runSearch = debounce(async (query: string) => {
  searchRun?.abort();
  if (!current || query.trim() === "") {
    ui.results.removeAttribute("aria-busy");
    ui.results.replaceChildren();
    delete ui.results.dataset.query;
    clearPanelError(ui.searchError);
    return;
  }
  const controller = (searchRun = new AbortController());
  // The first search on a big project builds the word index (seconds): say so at once.
  ui.results.setAttribute("aria-busy", "true");
  ui.results.querySelector("li.searching")?.remove();
  ui.results.prepend(h("li", { class: "empty searching" }, `Searching for “${query.trim()}”…`));
  try {
    const hits = await engine.search(query, { limit: 20, signal: controller.signal });
    ui.results.removeAttribute("aria-busy");
    clearPanelError(ui.searchError);
    renderHits(hits, query);
  } catch (error) {
    if ((error as { code?: string }).code === "cancelled") return;
    ui.results.removeAttribute("aria-busy");
    ui.results.replaceChildren();
    delete ui.results.dataset.query;
    panelError(ui.searchError, error, "Search");
  }
}, 120);

function renderHits(hits: SearchHit[], query: string): void {
  // The query these hits answer: a click on a result list still showing an older query's hits
  // (the next search is debounced) would pick from the wrong list.
  ui.results.dataset.query = query;
  if (hits.length === 0) {
    replace(ui.results, h("li", { class: "empty" }, `No symbol matches “${query}”.`));
    return;
  }
  replace(
    ui.results,
    hits.map((hit) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: "hit",
            "data-qualified": hit.qualified,
            onclick: () => select(hit.qualified, { reveal: true }),
          },
          h("span", { class: "kind" }, hit.kind),
          " ",
          h("strong", {}, shortName(hit.qualified)),
          h("span", { class: "where" }, ` ${hit.path}:${hit.line}`),
          hit.signature ? h("code", { class: "sig" }, hit.signature) : null,
        ),
      ),
    ),
  );
}

ui.search.addEventListener("input", () => runSearch(ui.search.value));
ui.searchForm.addEventListener("submit", (e) => {
  e.preventDefault();
  runSearch(ui.search.value);
});

let contextRun: AbortController | undefined;
let lastAnswer: ContextAnswer | undefined;

/** Picks a target: fills the field, slices the context and draws the graph around it. */
function select(target: string, how: GraphMove = {}): void {
  ui.target.value = target;
  void runContext(how);
}

/** Empties the context panel (the old result must not stay next to a new error). */
function clearContext(): void {
  lastAnswer = undefined;
  ui.chunks.replaceChildren();
  ui.cut.replaceChildren();
  ui.bundle.replaceChildren();
  ui.usage.textContent = "–";
  delete ui.usage.dataset.tokens;
  delete ui.usage.dataset.budget;
  ui.usageMeter.value = 0;
  ui.copyBundle.disabled = true;
  ui.downloadBundle.disabled = true;
  ui.bundleStatus.textContent = "";
  // The picture's bundle marks belong to the answer just cleared.
  if (graphShown) drawGraph();
}

async function runContext(how: GraphMove = {}): Promise<void> {
  const target = ui.target.value.trim();
  if (!current || target === "") return;
  // This run reads the slider as it is now: a re-slice the slider still has queued is moot.
  rerunContext.cancel();
  contextRun?.abort();
  const controller = (contextRun = new AbortController());
  const budget = Number(ui.budget.value);
  document.body.dataset.context = "loading";
  document.body.dataset.graph = "loading";
  writeUrl(target);
  let answer: ContextAnswer;
  try {
    answer = await engine.context(target, { budget, signal: controller.signal });
  } catch (error) {
    if ((error as { code?: string }).code === "cancelled") return;
    clearContext();
    panelError(ui.contextError, error, "Slicing the context");
    // The graph and impact belonged to the last target: they must not stand beside this error.
    clearGraph("Pick one symbol to see who calls it and what it calls.");
    document.body.dataset.context = "error";
    return;
  }
  clearPanelError(ui.contextError);
  renderContext(answer);
  document.body.dataset.context = "ready";
  const seed = answer.seeds[0];
  if (seed && !how.fromEditor)
    void code.open({ path: seed.path, line: seed.line, symbol: seed.qualified }, { reveal: how.reveal === true });
  if (seed && answer.resolvedAs !== "file") await showGraph(seed.qualified, controller.signal, how);
  else
    clearGraph(
      answer.resolvedAs === "file"
        ? `${target} is a file: pick one of its symbols (in the code view or the chunks) to see its callers, callees and impact.`
        : "This answer has no single symbol to draw.",
    );
}

/** Opens a chunk's lines ("path:start-end") or slices the context of a handle. */
function whereButton(path: string, start: number, end: number): HTMLButtonElement {
  return h(
    "button",
    { type: "button", class: "link where", title: "Show these lines", onclick: () => void openLines(path, start, end) },
    `${path}:${start}-${end}`,
  );
}

function renderContext(a: ContextAnswer): void {
  lastAnswer = a;
  ui.usage.textContent = `${fmt(a.usage.tokens)} / ${fmt(a.usage.budget)} tokens`;
  ui.usage.dataset.tokens = String(a.usage.tokens);
  ui.usage.dataset.budget = String(a.usage.budget);
  ui.usageMeter.max = a.usage.budget;
  ui.usageMeter.value = a.usage.tokens;
  replace(
    ui.chunks,
    a.chunks.map((c) =>
      h(
        "li",
        { class: `chunk ${c.role}`, "data-role": c.role, "data-symbol": c.symbol, "data-form": c.form },
        h(
          "button",
          {
            type: "button",
            class: "link",
            title: "Show these lines",
            onclick: () => void openLines(c.path, c.start, c.end),
          },
          h("span", { class: "role" }, c.role),
          " ",
          h("strong", {}, shortName(c.symbol)),
          h("span", { class: "where" }, ` ${c.path}:${c.start}-${c.end}`),
        ),
        h("span", { class: "tokens" }, ` ${fmt(c.tokens)} tokens${c.form === "outline" ? " · outline" : ""}`),
      ),
    ),
  );
  // The cut list stays open across re-slices (the budget slider re-renders it on every step).
  const cutOpen = ui.cut.querySelector("details")?.open === true;
  replace(
    ui.cut,
    a.cut.length
      ? h(
          "details",
          { open: cutOpen },
          h("summary", {}, `${fmt(a.cut.length)} chunk${a.cut.length === 1 ? "" : "s"} cut to fit the budget`),
          h(
            "ul",
            {},
            a.cut.map((c) =>
              h(
                "li",
                { "data-handle": c.handle },
                h("span", { class: "role" }, c.role),
                " ",
                symbolButton(c.handle, c.handle, `Slice the context of ${c.handle}`),
                " ",
                whereButton(c.path, c.start, c.end),
                ` ${fmt(c.tokens)} tokens`,
              ),
            ),
          ),
        )
      : null,
    a.notes.length
      ? h(
          "ul",
          { class: "notes" },
          a.notes.map((n) => h("li", {}, n)),
        )
      : null,
  );
  renderBundle(a);
  // The picture's bundle marks follow the new answer at once (its centre may change after).
  if (graphShown) drawGraph();
  ui.copyBundle.disabled = false;
  ui.downloadBundle.disabled = false;
  ui.bundleStatus.textContent = "";
}

// Lines of the rendered bundle that name a chunk: "## path:a-b [role] label" and cut-list lines
// "- path:a-b [role] label (N tokens)".
const CHUNK_LINE = /^(## |- )(\S+?):(\d+)-(\d+) \[(\w+)\] (.+?)( \(outline\)| \(\d+ tokens\))?$/;

/** The bundle as an agent gets it, with every chunk's place and handle a working link. */
function renderBundle(a: ContextAnswer): void {
  const handles = new Map(a.cut.map((c) => [`${c.path}:${c.start}-${c.end}`, c.handle]));
  const symbols = new Map(a.chunks.map((c) => [`${c.path}:${c.start}-${c.end}`, c.symbol]));
  const nodes: (Node | string)[] = [];
  for (const line of a.text.split("\n")) {
    const m = CHUNK_LINE.exec(line);
    if (!m) {
      nodes.push(`${line}\n`);
      continue;
    }
    const [, lead, path, start, end, role, label, tail] = m as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string | undefined,
    ];
    const where = `${path}:${start}-${end}`;
    const handle = handles.get(where) ?? symbols.get(where) ?? label;
    nodes.push(
      lead,
      whereButton(path, Number(start), Number(end)),
      ` [${role}] `,
      symbolButton(label, handle, `Slice the context of ${handle}`),
      `${tail ?? ""}\n`,
    );
  }
  replace(ui.bundle, nodes);
}

/** The symbol's impact as an agent gets it: the risk summary, then callers by depth (one small page). */
async function showImpact(symbol: string, signal: AbortSignal): Promise<void> {
  try {
    const a = await engine.impact(symbol, { budget: 1500, signal });
    clearPanelError(ui.impactError);
    ui.impact.textContent = a.text;
  } catch (error) {
    if ((error as { code?: string }).code === "cancelled") return;
    ui.impact.replaceChildren();
    panelError(ui.impactError, error, "Measuring the impact");
  }
}

/** How the picture gets to a centre: `back` when Back chose it (not recorded in the history again). */
interface GraphMove {
  back?: boolean;
  /** The editor chose the symbol: it already shows where, so the slice does not move it. */
  fromEditor?: boolean;
  /** Scroll the editor into view once it shows the symbol (a pick from a list); a graph pick stays put. */
  reveal?: boolean;
}

/** Neighbours drawn per side at first; "show all" asks for as many as the engine lists at once (LIMITS.page.max). */
const GRAPH_FIRST = 10;
const GRAPH_ALL = 1000;

/*
 * body[data-graph] says where the picture stands: "loading" from the moment a slice or "show all"
 * starts until it is drawn for that answer ("ready"), "error", or "kept" (the run drew nothing:
 * a file target or a failed slice leaves the last picture, without bundle marks).
 */

/** The picture on screen: the answer drawn and whether it holds every neighbour. */
let graphShown: { n: Neighbourhood; all: boolean } | undefined;
/** The centres shown before this one, newest last: what Back returns to. */
const graphHistory: string[] = [];
let graphRun: AbortController | undefined;

/** Empties the graph and impact (their symbol is no longer the selection), saying why. */
function clearGraph(note: string): void {
  graphRun?.abort();
  if (graphShown) {
    const before = graphShown.n.center.qualified;
    if (graphHistory.at(-1) !== before) graphHistory.push(before);
  }
  graphShown = undefined;
  showBack();
  clearPanelError(ui.graphError);
  clearPanelError(ui.impactError);
  replace(ui.graph, h("p", { class: "empty" }, note));
  replace(ui.impact, h("span", { class: "empty" }, "Pick a symbol to see what a change to it could break."));
  document.body.dataset.graph = "cleared";
}

/** Draws the neighbourhood of `symbol` (the context's seed), keeping "show all" when the centre stays. */
async function showGraph(symbol: string, signal: AbortSignal, how: GraphMove = {}): Promise<void> {
  void showImpact(symbol, signal);
  const before = graphShown?.n.center.qualified;
  const all = before === symbol && graphShown?.all === true;
  graphRun?.abort();
  const run = (graphRun = new AbortController());
  try {
    const n = await engine.neighbourhood(symbol, {
      limit: all ? GRAPH_ALL : GRAPH_FIRST,
      signal: AbortSignal.any([signal, run.signal]),
    });
    clearPanelError(ui.graphError);
    if (before && before !== n.center.qualified && !how.back && graphHistory.at(-1) !== before)
      graphHistory.push(before);
    graphShown = { n, all };
    drawGraph();
    showBack();
    document.body.dataset.graph = "ready";
  } catch (error) {
    if ((error as { code?: string }).code === "cancelled") return;
    graphShown = undefined;
    ui.graph.replaceChildren();
    panelError(ui.graphError, error, "Drawing the callers and callees");
    document.body.dataset.graph = "error";
  }
}

/** Whether a node's code is in the bundle on screen: its own chunk, or inside a whole chunk. */
function bundled(node: NeighbourNode): "full" | "outline" | undefined {
  if (!lastAnswer) return undefined;
  const own = lastAnswer.chunks.find((c) => c.symbol === node.qualified && c.path === node.path);
  if (own) return own.form;
  return lastAnswer.chunks.some(
    (c) => c.form === "full" && c.path === node.path && c.start <= node.line && node.line <= c.end,
  )
    ? "full"
    : undefined;
}

/**
 * Draws `graphShown` at the panel's width. Keyboard focus in the picture stays on the node it was
 * on; when that node is gone or became the centre, on the picture itself (Tab goes on from there
 * rather than from the top of the page).
 */
function drawGraph(): void {
  if (!graphShown) return;
  const { n, all } = graphShown;
  const inGraph = ui.graph.contains(document.activeElement);
  const focused = (document.activeElement as Element | null)?.closest?.("#graph [data-id]")?.getAttribute("data-id");
  drawnWidth = ui.graph.clientWidth;
  replace(
    ui.graph,
    renderNeighbourhood(n, {
      width: drawnWidth || 640,
      inBundle: bundled,
      onPick: (node) => select(node.qualified),
      onExpand: () => void expandGraph(),
      expanded: all,
    }),
  );
  if (!inGraph) return;
  const same = focused ? ui.graph.querySelector<SVGGElement>(`[data-id="${CSS.escape(focused)}"][tabindex]`) : null;
  (same ?? focusableGraph())?.focus();
}

/** The picture as a focus target of its own (not in the Tab order: its nodes are). */
function focusableGraph(): SVGSVGElement | null {
  const root = ui.graph.querySelector<SVGSVGElement>("[data-testid=graph-svg]");
  root?.setAttribute("tabindex", "-1");
  return root;
}

/** "Show all": the same centre with every caller and callee; focus goes to the first one newly drawn. */
async function expandGraph(): Promise<void> {
  // While a slice is drawing its own picture, the button belongs to the picture it replaces.
  if (!graphShown || graphShown.all || document.body.dataset.graph === "loading") return;
  const shown = new Set(graphShown.n.nodes.map((x) => x.id));
  const symbol = graphShown.n.center.qualified;
  graphRun?.abort();
  const run = (graphRun = new AbortController());
  document.body.dataset.graph = "loading";
  try {
    const n = await engine.neighbourhood(symbol, { limit: GRAPH_ALL, signal: run.signal });
    if (graphShown?.n.center.qualified !== symbol) return;
    graphShown = { n, all: true };
    drawGraph();
    document.body.dataset.graph = "ready";
    const first = n.nodes.find((x) => !shown.has(x.id));
    if (first) (ui.graph.querySelector(`[data-id="${CSS.escape(first.id)}"]`) as SVGGElement | null)?.focus();
  } catch (error) {
    if ((error as { code?: string }).code === "cancelled") return;
    panelError(ui.graphError, error, "Drawing every caller and callee");
    document.body.dataset.graph = "error";
  }
}

/** The Back button names the centre it returns to; hidden when there is none. */
function showBack(): void {
  const previous = graphHistory.at(-1);
  // Hiding the focused button would drop keyboard focus to the top of the page.
  if (previous === undefined && document.activeElement === ui.graphBack) focusableGraph()?.focus();
  ui.graphBack.hidden = previous === undefined;
  ui.graphBack.textContent = previous ? `← Back to ${shortName(previous)}` : "← Back";
  if (previous) ui.graphBack.dataset.target = previous;
  else delete ui.graphBack.dataset.target;
}

ui.graphBack.addEventListener("click", () => {
  const previous = graphHistory.pop();
  showBack();
  if (previous) select(previous, { back: true });
});

// The picture is drawn at the panel's pixel width: draw it again when that changes.
let drawnWidth = 0;
new ResizeObserver(() => {
  if (graphShown && ui.graph.clientWidth && Math.abs(ui.graph.clientWidth - drawnWidth) >= 1) drawGraph();
}).observe(ui.graph);

async function openLines(path: string, start: number, end: number): Promise<void> {
  void code.open({ path, line: start });
  try {
    const s = await engine.snippet(path, start, end, { maxLines: 400 });
    clearPanelError(ui.snippetError);
    ui.snippetTitle.textContent = `${s.path}:${s.start}-${s.end}${s.capped ? ` (first ${s.end - s.start + 1} lines)` : ""}`;
    const lines = s.text.split("\n");
    const width = String(s.end).length;
    replace(
      ui.snippet,
      lines.map((line, i) =>
        h(
          "span",
          { class: "line" },
          h("span", { class: "ln" }, String(s.start + i).padStart(width, " ")),
          ` ${line}\n`,
        ),
      ),
    );
  } catch (error) {
    ui.snippetTitle.textContent = `${path}:${start}-${end}`;
    ui.snippet.replaceChildren();
    panelError(ui.snippetError, error, `Reading ${path}`);
  }
}

ui.contextForm.addEventListener("submit", (e) => {
  e.preventDefault();
  void runContext();
});

const rerunContext = debounce(() => void runContext(), 150);
ui.budget.addEventListener("input", () => {
  ui.budgetValue.value = fmt(Number(ui.budget.value));
  writeUrl(ui.target.value.trim() || undefined);
  rerunContext();
});

/** The file name a bundle downloads as: the target, made safe. */
function bundleFileName(target: string): string {
  const safe = target
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 80);
  return `codeslice-context-${safe || "bundle"}.md`;
}

ui.copyBundle.addEventListener("click", async () => {
  if (!lastAnswer) return;
  try {
    await navigator.clipboard.writeText(lastAnswer.text);
    ui.bundleStatus.textContent = `Copied ${fmt(lastAnswer.usage.tokens)} tokens.`;
  } catch {
    // No clipboard permission (or an insecure context): select the text so the user can copy it.
    ui.bundleDetails.open = true;
    getSelection()?.selectAllChildren(ui.bundle);
    ui.bundleStatus.textContent = "The browser refused the clipboard: the bundle is selected, copy it with Ctrl+C.";
  }
});

ui.downloadBundle.addEventListener("click", () => {
  if (!lastAnswer) return;
  const url = URL.createObjectURL(new Blob([lastAnswer.text], { type: "text/markdown" }));
  const a = h("a", { href: url, download: bundleFileName(lastAnswer.target) });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  ui.bundleStatus.textContent = `Saved as ${bundleFileName(lastAnswer.target)}.`;
});

// ---------------------------------------------------------------------------------------------
// Index files: load an index built elsewhere (a CI job's `codeslice index --export`), save this one

let lastOpened: OpenAnswer | undefined;
/** An index file picked with no project open: loaded into the next project before it is indexed. */
let pendingIndexFile: File | undefined;

/** Loads `file` into the open project's store (the engine checks all of it first). */
async function importIndexFile(file: File, signal: AbortSignal): Promise<void> {
  pendingIndexFile = undefined;
  ui.progressText.textContent = `Loading the index file ${file.name}…`;
  const s = await engine.importIndex(file, { signal });
  say(
    "info",
    `Loaded ${file.name}:`,
    `${fmt(s.records)} records for ${fmt(s.files)} files; files that match them are not parsed.`,
    undefined,
    "index_loaded",
  );
}

ui.openIndex.addEventListener("click", () => ui.indexInput.click());
ui.indexInput.addEventListener("change", async () => {
  const file = ui.indexInput.files?.[0];
  ui.indexInput.value = "";
  if (!file) return;
  if (!current || !lastOpened || busy) {
    pendingIndexFile = file;
    say(
      "info",
      `${file.name} is ready.`,
      "It is loaded into the next project you open (an index holds no source text: open the project's folder or zip too).",
      undefined,
      "index_pending",
    );
    return;
  }
  const controller = startBusy(`Loading ${file.name}…`);
  try {
    await importIndexFile(file, controller.signal);
    ui.progressText.textContent = "Indexing…";
    const started = performance.now();
    const summary = await engine.index({ signal: controller.signal, onProgress });
    describeIndex(summary, lastOpened);
    mapping();
    await showMap(controller.signal);
    indexed(started);
  } catch (error) {
    report(error, `Loading ${file.name}`);
  } finally {
    endBusy(controller);
  }
});

ui.saveIndex.addEventListener("click", async () => {
  if (!current || busy) return;
  const controller = startBusy("Saving the index…");
  try {
    const { bytes } = await engine.exportIndex({ signal: controller.signal });
    const name = `${(lastOpened?.label ?? "project").replace(/[^\w.-]+/g, "_")}.csidx`;
    const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: "application/octet-stream" }));
    const a = h("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (error) {
    report(error, "Saving the index");
  } finally {
    endBusy(controller);
  }
});

// ---------------------------------------------------------------------------------------------
// Sources: buttons, inputs, drag and drop

type DirectoryPicker = (options?: { mode?: "read" }) => Promise<FileSystemDirectoryHandle>;

ui.openFolder.addEventListener("click", async () => {
  const picker = (window as unknown as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
  if (!picker) {
    ui.folderInput.click();
    return;
  }
  try {
    await openFolder(await picker({ mode: "read" }));
  } catch (error) {
    if ((error as Error).name !== "AbortError") report(error, "Opening the folder");
  }
});
ui.openFiles.addEventListener("click", () => ui.fileInput.click());
ui.fileInput.addEventListener("change", () => {
  const picked = fromFileList(ui.fileInput.files ?? []);
  ui.fileInput.value = "";
  void openPicked(picked);
});
ui.folderInput.addEventListener("change", () => {
  const picked = fromFileList(ui.folderInput.files ?? []);
  ui.folderInput.value = "";
  void openPicked(picked);
});
ui.loadSample.addEventListener("click", () => void openSample());

window.addEventListener("dragover", (e) => {
  e.preventDefault();
  document.body.classList.add("dropping");
});
window.addEventListener("dragleave", (e) => {
  if (e.relatedTarget === null) document.body.classList.remove("dropping");
});
window.addEventListener("drop", (e) => {
  e.preventDefault();
  document.body.classList.remove("dropping");
  if (!e.dataTransfer) return;
  fromDrop(e.dataTransfer, MAX_UPLOAD_FILES).then(openPicked, (error) => report(error, "Reading the dropped files"));
});

// Coming back to the tab: pick up edits made in a picked folder (only changed files are parsed).
document.addEventListener("visibilitychange", async () => {
  if (document.visibilityState !== "visible" || !current || busy || current.kind !== "folder") return;
  try {
    const r = await engine.refresh();
    if (!r.refreshed) return;
    ui.parsed.value = String(r.parsed);
    await showMap();
  } catch (error) {
    report(error, "Refreshing the index");
  }
});

// ---------------------------------------------------------------------------------------------
// Start: re-open what was open before the reload

async function restore(): Promise<void> {
  const state = loadState();
  if (!state) return;
  const { project } = state;
  const label = project.kind === "sample" ? SAMPLE_LABEL : project.label;
  if (state.status === "failed" || (state.status === "opening" && state.attempts >= MAX_UNFINISHED)) {
    // Not again by itself: it failed, or it was started several times and never finished.
    const failure = state.failure ?? {
      title: "Indexing did not finish.",
      message: `${label} was being indexed when the page closed, ${state.attempts} times in a row.`,
      code: "unfinished",
    };
    ui.projectLabel.textContent = `${label} (not open)`;
    say(
      "warning",
      failure.title,
      failure.message,
      `${label} is not opened by itself. Index it again, or delete what this browser keeps of it.`,
      "not_reopened",
      recoveryActions(project),
    );
    return;
  }
  const attempts = state.status === "opening" ? state.attempts + 1 : 1;
  // Counted before the open starts: a tab that dies while opening still counts this start.
  saveState({ ...state, status: "opening", attempts } satisfies SavedState);
  if (project.kind === "sample")
    return openProject({ kind: "files", files: SAMPLE_FILES, label: SAMPLE_LABEL }, project, SAMPLE_LABEL, attempts);
  if (project.kind === "persisted")
    return openProject({ kind: "persisted", id: project.id, label: project.label }, project, project.label, attempts);
  const handle = await folderHandle(project.id);
  if (!handle) {
    saveState(undefined);
    return;
  }
  if (await canRead(handle, false).catch(() => false))
    return openProject({ kind: "handle", handle, label: handle.name }, project, project.label, attempts);
  // Reading a folder again needs the user's consent, which needs a click.
  saveState({ ...state, status: "ready", attempts: 0 });
  ui.reopen.hidden = false;
  ui.reopen.textContent = `Re-open ${project.label}`;
  ui.reopen.onclick = async () => {
    if (await canRead(handle, true).catch(() => false))
      await openProject({ kind: "handle", handle, label: handle.name }, project, project.label);
    else
      say(
        "warning",
        "No access.",
        `The browser did not grant access to ${project.label}.`,
        "Open the folder again with “Open folder…”.",
        "permission_denied",
      );
  };
}

if ("serviceWorker" in navigator && import.meta.env.PROD && params.get("sw") !== "off") {
  navigator.serviceWorker.register("./sw.js").catch(() => {
    // offline support is a bonus: the page works without it
  });
}

if (typeof Worker === "undefined" || !globalThis.crypto?.subtle) {
  say(
    "error",
    "This browser cannot run the engine.",
    "It needs Web Workers and Web Crypto (a secure context: https or localhost).",
    undefined,
    "unsupported",
  );
} else {
  restore().catch((error) => report(error, "Re-opening the last project"));
}
