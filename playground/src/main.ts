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
import { createWorkerEngine } from "../../src/platform/browser/worker-client.ts";
import type { OpenAnswer, ProjectSource, StoreChoice, WorkerProgress } from "../../src/platform/browser/worker-protocol.ts";
import type { ContextAnswer, IndexSummary, RepoMap, SearchHit } from "../../src/index.ts";
import { byId, debounce, fmt, h, replace } from "./dom.ts";
import { fromDrop, fromFileList, type Picked } from "./drop.ts";
import { renderNeighbourhood, shortName } from "./graph.ts";
import { canRead, folderHandle, forgetFolder, loadSaved, namespaceOf, newId, rememberFolder, save, type SavedProject } from "./projects.ts";
import { SAMPLE_FILES, SAMPLE_LABEL } from "./sample.ts";

// ---------------------------------------------------------------------------------------------
// Elements

const ui = {
  openFolder: byId<HTMLButtonElement>("open-folder"),
  fileInput: byId<HTMLInputElement>("file-input"),
  folderInput: byId<HTMLInputElement>("folder-input"),
  loadSample: byId<HTMLButtonElement>("load-sample"),
  reopen: byId<HTMLButtonElement>("reopen"),
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
  contextForm: byId<HTMLFormElement>("context-form"),
  target: byId<HTMLInputElement>("target"),
  budget: byId<HTMLInputElement>("budget"),
  budgetValue: byId<HTMLOutputElement>("budget-value"),
  usageMeter: byId<HTMLMeterElement>("usage-meter"),
  usage: byId("usage"),
  chunks: byId<HTMLOListElement>("chunks"),
  cut: byId("cut"),
  bundle: byId("bundle"),
  graph: byId("graph"),
  snippetTitle: byId("snippet-title"),
  snippet: byId("snippet"),
};

// ---------------------------------------------------------------------------------------------
// Settings from the address: ?store=opfs|indexeddb|memory forces where the index lives.

const params = new URLSearchParams(location.search);
const preferredStore = ((): StoreBackend | undefined => {
  const s = params.get("store");
  return s === "opfs" || s === "indexeddb" || s === "memory" ? s : undefined;
})();

/** Most files accepted from one drop, zip or folder upload (a 50,000-file folder fits). */
const MAX_UPLOAD_FILES = 100_000;

// ---------------------------------------------------------------------------------------------
// Messages

type Level = "error" | "warning" | "info";

function say(level: Level, title: string, body?: string, hint?: string, code?: string): HTMLLIElement {
  const li = h("li", { class: `message ${level}`, "data-level": level, "data-code": code },
    h("strong", {}, title),
    body ? h("span", { class: "body" }, ` ${body}`) : null,
    hint ? h("span", { class: "hint" }, ` ${hint}`) : null,
    h("button", { type: "button", class: "dismiss", "aria-label": "Dismiss", onclick: () => li.remove() }, "×"),
  );
  ui.messages.append(li);
  return li;
}

function clearMessages(): void {
  ui.messages.replaceChildren();
}

/** Shows an error from the worker as a specific message; returns true when it was a cancellation. */
function report(error: unknown, doing: string): boolean {
  const e = error as { name?: string; code?: string; message?: string; hint?: string; data?: Record<string, unknown> };
  if (e?.code === "cancelled") {
    say("info", "Cancelled.", `${doing} was stopped; the page is ready for something else.`, undefined, "cancelled");
    return true;
  }
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
  };
  const key = reason ?? e?.code ?? "";
  // The engine's hint for a damaged wasm/ folder speaks to package users; here the site serves it.
  const hint = key.startsWith("wasm_") || key === "grammar_incompatible"
    ? "Reload the page to fetch it again; if this persists, the site's wasm/ folder is damaged. Projects in other languages still open."
    : e?.hint;
  say("error", titles[key] ?? `${doing} failed.`, e?.message ?? String(error), hint, key || "error");
  return false;
}

// ---------------------------------------------------------------------------------------------
// The engine worker

let storeNoticeShown = false;
const engine = createWorkerEngine(new Worker(new URL("./engine.worker.ts", import.meta.url), { type: "module" }), {
  onNotice: (notice: StoreNotice) => showStoreNotice(notice),
});

function showStoreNotice(notice: StoreNotice): void {
  setStoreBadge(notice.backend);
  if (storeNoticeShown) return;
  storeNoticeShown = true;
  say("warning", notice.reason === "quota_exceeded" ? "Storage is full." : "Storage is not available.", notice.message, undefined, notice.reason);
}

function setStoreBadge(backend: StoreBackend): void {
  ui.storeBadge.hidden = false;
  ui.storeBadge.textContent = backend === "opfs" ? "index kept in OPFS" : backend === "indexeddb" ? "index kept in IndexedDB" : "index in memory only";
  ui.storeBadge.dataset.backend = backend;
}

// ---------------------------------------------------------------------------------------------
// Progress and cancellation

let busy: AbortController | undefined;

function progressText(p: WorkerProgress): string {
  switch (p.phase) {
    case "unpack":
      return `Unpacking ${fmt(p.done)}${p.total !== undefined ? ` of ${fmt(p.total)}` : ""} files…`;
    case "save":
      return `Saving ${fmt(p.done)} of ${fmt(p.total ?? 0)} files for the next visit…`;
    case "scan":
      return `Listing files… ${fmt(p.done)} found`;
    case "parse":
      return `Indexing ${fmt(p.done)}${p.total !== undefined ? ` of ${fmt(p.total)}` : ""} source files…`;
    case "graph":
      return "Linking calls and imports…";
  }
}

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
  ui.progressText.textContent = progressText(p);
  if (p.total) {
    ui.progressBar.max = p.total;
    ui.progressBar.value = p.done;
  } else ui.progressBar.removeAttribute("value");
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
  delete document.body.dataset.indexed;
  ui.storeBadge.hidden = true;
  for (const o of [ui.files, ui.symbols, ui.parsed, ui.reused]) o.value = "0";
  ui.indexTime.value = "–";
  replace(ui.map, h("p", { class: "empty" }, "Indexing…"));
  ui.results.replaceChildren();
  ui.chunks.replaceChildren();
  ui.cut.replaceChildren();
  ui.bundle.textContent = "";
  ui.usage.textContent = "–";
  ui.usageMeter.value = 0;
  replace(ui.graph, h("p", { class: "empty" }, "Pick a symbol to see who calls it and what it calls."));
  replace(ui.snippet, h("span", { class: "empty" }, "Open a chunk to read its lines."));
}

async function openProject(source: ProjectSource, project: SavedProject, label: string): Promise<void> {
  const controller = startBusy(`Opening ${label}…`);
  clearMessages();
  storeNoticeShown = false;
  resetPanels();
  ui.reopen.hidden = true;
  ui.projectLabel.textContent = label;
  const previous = current;
  current = undefined;
  try {
    const opened = await engine.open(source, storeFor(project), { signal: controller.signal, onProgress });
    describeOpened(opened);
    await discard(previous && previous !== project ? previous : loadSaved(), project);
    // An upload kept only in memory cannot come back after a reload.
    save(project.kind === "persisted" && opened.unpacked && !opened.unpacked.persisted ? undefined : project);
    current = project;
    ui.progressText.textContent = "Indexing…";
    const summary = await engine.index({ signal: controller.signal, onProgress });
    describeIndex(summary, opened);
    // Ask the browser not to evict the index under storage pressure (Chromium decides without a prompt).
    if (opened.store.backend !== "memory") void navigator.storage?.persist?.().catch(() => false);
    ui.workspace.dataset.state = "ready";
    document.body.dataset.indexed = "true";
    await showMap(controller.signal);
  } catch (error) {
    current = undefined;
    ui.projectLabel.textContent = `${label} (not open)`;
    ui.storeBadge.hidden = true;
    replace(ui.map, h("p", { class: "empty" }, "Open a project to see its map."));
    report(error, `Opening ${label}`);
  } finally {
    endBusy(controller);
  }
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
    say("info", `Left ${fmt(u.skipped.length)} file${u.skipped.length === 1 ? "" : "s"} out before indexing:`, `${parts.join(", ")} (e.g. ${u.skipped.slice(0, 3).map((s) => s.path).join(", ")}).`, undefined, "unpack_skipped");
  }
}

function describeIndex(s: IndexSummary, opened: OpenAnswer): void {
  ui.files.value = fmt(s.files);
  ui.symbols.value = fmt(s.symbols);
  ui.parsed.value = String(s.parsed);
  ui.reused.value = String(s.reused);
  ui.indexTime.value = `${fmt(s.durationMs)} ms`;
  ui.projectLabel.textContent = opened.label;
  // A grammar that failed to load leaves its language out; the rest of the project is indexed.
  const noGrammar = s.skipped.filter((f) => f.reason === "grammar_unavailable");
  if (noGrammar.length) {
    say(
      "error",
      "A grammar failed to load.",
      `${fmt(noGrammar.length)} file${noGrammar.length === 1 ? "" : "s"} left out (e.g. ${noGrammar.slice(0, 3).map((f) => f.path).join(", ")}): ${noGrammar[0]!.detail ?? ""}`,
      "Reload the page to fetch it again; if this persists, the site's wasm/ folder is damaged. Files in other languages were indexed.",
      "grammar_unavailable",
    );
  }
  const skipped = Object.entries(s.skippedByReason).filter(([reason]) => reason !== "grammar_unavailable");
  if (skipped.length) {
    const n = skipped.reduce((a, [, c]) => a + (c ?? 0), 0);
    const examples = s.skipped.slice(0, 3).map((f) => f.path).join(", ");
    say("info", `Skipped ${fmt(n)} file${n === 1 ? "" : "s"}:`, `${skipped.map(([r, c]) => `${fmt(c ?? 0)} ${r.replace(/_/g, " ")}`).join(", ")} (e.g. ${examples}).`, undefined, "skipped");
  }
  if (s.syntaxErrors.length) {
    say("info", `${fmt(s.syntaxErrors.length)} file${s.syntaxErrors.length === 1 ? " has" : "s have"} syntax errors`, "and were indexed as far as they parse.", undefined, "syntax_errors");
  }
  if (s.sourceFiles === 0) say("warning", "No source files.", `Nothing here is in a supported language (${opened.languages.join(", ")}).`, undefined, "no_source");
}

async function openPicked(picked: Picked): Promise<void> {
  if (picked.kind === "nothing") return;
  if (picked.kind === "folder") return openFolder(picked.handle);
  const id = newId();
  const project: SavedProject = { kind: "persisted", id, label: picked.kind === "zip" ? picked.file.name : picked.label };
  const limits = { maxFiles: MAX_UPLOAD_FILES };
  const source: ProjectSource = picked.kind === "zip"
    ? { kind: "zip", file: picked.file, label: picked.file.name, persistAs: id, limits }
    : { kind: "uploads", items: picked.items, label: picked.label, persistAs: id, limits };
  await openProject(source, project, project.label);
}

async function openFolder(handle: FileSystemDirectoryHandle): Promise<void> {
  const id = await rememberFolder(handle);
  await openProject({ kind: "handle", handle, label: handle.name }, { kind: "folder", id, label: handle.name }, handle.name);
}

function openSample(): Promise<void> {
  return openProject({ kind: "files", files: SAMPLE_FILES, label: SAMPLE_LABEL }, { kind: "sample" }, SAMPLE_LABEL);
}

// ---------------------------------------------------------------------------------------------
// Map, search, context, graph, lines

async function showMap(signal?: AbortSignal): Promise<void> {
  const map = await engine.map({ budget: 1500, ...(signal ? { signal } : {}) });
  renderMap(map);
}

function symbolButton(label: string, target: string, title?: string): HTMLButtonElement {
  return h("button", { type: "button", class: "link", title: title ?? target, onclick: () => select(target) }, label);
}

function renderMap(map: RepoMap): void {
  replace(ui.map,
    h("p", { class: "languages" }, map.languages.map((l) => h("span", { class: "chip" }, `${l.language} · ${fmt(l.files)} files · ${fmt(l.symbols)} symbols`))),
    map.services.length ? h("div", {}, h("h3", {}, "Services"), h("ul", {}, map.services.map((s) => h("li", {}, h("code", {}, s.path || "./"), ` ${s.manifest}${s.name ? ` “${s.name}”` : ""} · ${fmt(s.files)} files`)))) : null,
    map.entryPoints.length ? h("div", {}, h("h3", {}, "Entry points"), h("ul", {}, map.entryPoints.slice(0, 20).map((e) =>
      h("li", {}, h("span", { class: "kind" }, e.kind), " ", e.symbol ? symbolButton(e.label, e.symbol) : h("span", {}, e.label), h("span", { class: "where" }, ` ${e.path}:${e.line}`))))) : null,
    h("div", {}, h("h3", {}, "Central symbols"), h("ol", { class: "central" }, map.symbols.slice(0, 25).map((s) =>
      h("li", {}, h("span", { class: "kind" }, s.kind), " ", symbolButton(shortName(s.qualified), s.qualified), h("span", { class: "where" }, ` ${s.path}:${s.line} · ${s.references} refs`))))),
    map.layout.length ? h("details", {}, h("summary", {}, "Layout"), h("ul", { class: "layout" }, map.layout.slice(0, 40).map((l) => h("li", {}, h("code", {}, `${l.path}/`), ` ${fmt(l.sourceFiles)} source of ${fmt(l.files)} files`)))) : null,
    h("p", { class: "note" }, `${fmt(map.tokens)} tokens as an agent reads it${map.omitted ? `, ${fmt(map.omitted)} lines left out` : ""}.`),
  );
}

let searchRun: AbortController | undefined;
const runSearch = debounce(async (query: string) => {
  searchRun?.abort();
  if (!current || query.trim() === "") {
    ui.results.replaceChildren();
    return;
  }
  const controller = (searchRun = new AbortController());
  try {
    const hits = await engine.search(query, { limit: 20, signal: controller.signal });
    renderHits(hits, query);
  } catch (error) {
    if ((error as { code?: string }).code !== "cancelled") report(error, "Search");
  }
}, 120);

function renderHits(hits: SearchHit[], query: string): void {
  if (hits.length === 0) {
    replace(ui.results, h("li", { class: "empty" }, `No symbol matches “${query}”.`));
    return;
  }
  replace(ui.results, hits.map((hit) => h("li", {},
    h("button", { type: "button", class: "hit", "data-qualified": hit.qualified, onclick: () => select(hit.qualified) },
      h("span", { class: "kind" }, hit.kind), " ", h("strong", {}, shortName(hit.qualified)),
      h("span", { class: "where" }, ` ${hit.path}:${hit.line}`),
      hit.signature ? h("code", { class: "sig" }, hit.signature) : null),
  )));
}

ui.search.addEventListener("input", () => runSearch(ui.search.value));
ui.searchForm.addEventListener("submit", (e) => {
  e.preventDefault();
  runSearch(ui.search.value);
});

let contextRun: AbortController | undefined;

/** Picks a target: fills the field, slices the context and draws the graph around it. */
function select(target: string): void {
  ui.target.value = target;
  void runContext();
}

async function runContext(): Promise<void> {
  const target = ui.target.value.trim();
  if (!current || target === "") return;
  contextRun?.abort();
  const controller = (contextRun = new AbortController());
  const budget = Number(ui.budget.value);
  document.body.dataset.context = "loading";
  try {
    const answer = await engine.context(target, { budget, signal: controller.signal });
    renderContext(answer);
    document.body.dataset.context = "ready";
    const seed = answer.seeds[0];
    if (seed && answer.resolvedAs !== "file") await showGraph(seed.qualified, controller.signal);
  } catch (error) {
    if ((error as { code?: string }).code === "cancelled") return;
    document.body.dataset.context = "error";
    report(error, "Slicing the context");
  }
}

function renderContext(a: ContextAnswer): void {
  ui.usage.textContent = `${fmt(a.usage.tokens)} / ${fmt(a.usage.budget)} tokens`;
  ui.usage.dataset.tokens = String(a.usage.tokens);
  ui.usage.dataset.budget = String(a.usage.budget);
  ui.usageMeter.max = a.usage.budget;
  ui.usageMeter.value = a.usage.tokens;
  replace(ui.chunks, a.chunks.map((c) => h("li", { class: `chunk ${c.role}`, "data-role": c.role },
    h("button", { type: "button", class: "link", title: "Show these lines", onclick: () => void openLines(c.path, c.start, c.end) },
      h("span", { class: "role" }, c.role), " ", h("strong", {}, shortName(c.symbol)), h("span", { class: "where" }, ` ${c.path}:${c.start}-${c.end}`)),
    h("span", { class: "tokens" }, ` ${fmt(c.tokens)} tokens${c.form === "outline" ? " · outline" : ""}`),
  )));
  replace(ui.cut, a.cut.length
    ? h("details", {}, h("summary", {}, `${fmt(a.cut.length)} chunk${a.cut.length === 1 ? "" : "s"} cut to fit the budget`),
      h("ul", {}, a.cut.map((c) => h("li", {}, h("span", { class: "role" }, c.role), " ", symbolButton(c.handle, c.handle), ` ${fmt(c.tokens)} tokens`))))
    : null,
  a.notes.length ? h("ul", { class: "notes" }, a.notes.map((n) => h("li", {}, n))) : null);
  ui.bundle.textContent = a.text;
}

async function showGraph(symbol: string, signal: AbortSignal): Promise<void> {
  const n = await engine.neighbourhood(symbol, { limit: 10, signal });
  replace(ui.graph, renderNeighbourhood(n, (node) => select(node.qualified)));
}

async function openLines(path: string, start: number, end: number): Promise<void> {
  try {
    const s = await engine.snippet(path, start, end, { maxLines: 400 });
    ui.snippetTitle.textContent = `${s.path}:${s.start}-${s.end}${s.capped ? ` (first ${s.end - s.start + 1} lines)` : ""}`;
    const lines = s.text.split("\n");
    const width = String(s.end).length;
    replace(ui.snippet, lines.map((line, i) => h("span", { class: "line" }, h("span", { class: "ln" }, String(s.start + i).padStart(width, " ")), ` ${line}\n`)));
  } catch (error) {
    report(error, `Reading ${path}`);
  }
}

ui.contextForm.addEventListener("submit", (e) => {
  e.preventDefault();
  void runContext();
});

const rerunContext = debounce(() => void runContext(), 150);
ui.budget.addEventListener("input", () => {
  ui.budgetValue.value = fmt(Number(ui.budget.value));
  rerunContext();
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
  const saved = loadSaved();
  if (!saved) return;
  if (saved.kind === "sample") return openSample();
  if (saved.kind === "persisted") return openProject({ kind: "persisted", id: saved.id, label: saved.label }, saved, saved.label);
  const handle = await folderHandle(saved.id);
  if (!handle) return;
  if (await canRead(handle, false).catch(() => false)) return openFolder(handle);
  // Reading a folder again needs the user's consent, which needs a click.
  ui.reopen.hidden = false;
  ui.reopen.textContent = `Re-open ${saved.label}`;
  ui.reopen.onclick = async () => {
    if (await canRead(handle, true).catch(() => false)) await openFolder(handle);
    else say("warning", "No access.", `The browser did not grant access to ${saved.label}.`, "Open the folder again with “Open folder…”.", "permission_denied");
  };
}

if ("serviceWorker" in navigator && import.meta.env.PROD && params.get("sw") !== "off") {
  navigator.serviceWorker.register("./sw.js").catch(() => {
    // offline support is a bonus: the page works without it
  });
}

if (typeof Worker === "undefined" || !globalThis.crypto?.subtle) {
  say("error", "This browser cannot run the engine.", "It needs Web Workers and Web Crypto (a secure context: https or localhost).", undefined, "unsupported");
} else {
  void restore();
}
