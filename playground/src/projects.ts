/**
 * Remembering the open project across reloads: a small descriptor in localStorage, plus folder
 * handles in IndexedDB (handles survive structured cloning; permission must be asked again).
 */
import { createStore, del, get, set } from "idb-keyval";

/** What the page re-opens after a reload. */
export type SavedProject =
  | { kind: "sample" }
  | { kind: "persisted"; id: string; label: string }
  | { kind: "folder"; id: string; label: string };

const KEY = "codeslice.playground.project";
const handles = createStore("codeslice-playground", "handles");

/**
 * Where the saved project stands. `opening` is written before every open and cleared by a finished
 * index, so a page that reloads mid-index finds it still `opening`: it is re-opened (the index
 * picks up where it was), but not forever: after {@link MAX_UNFINISHED} starts that never finished
 * (a tab that crashes on this project) it is offered instead of opened. `failed` (an error, or a
 * cancel) is never re-opened by itself: the page offers to re-index or delete it.
 */
export interface SavedState {
  project: SavedProject;
  status: "opening" | "ready" | "failed";
  /** Opens started since the last finished one. */
  attempts: number;
  failure?: { title: string; message: string; code: string };
}

/** Starts of one project that may end without finishing before the page stops re-opening it. */
export const MAX_UNFINISHED = 2;

const isStr = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length < 200;

/** A saved project when `v` has the shape of one; anything else (damaged, from elsewhere) is none. */
export function asProject(v: unknown): SavedProject | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const p = v as Record<string, unknown>;
  if (p.kind === "sample") return { kind: "sample" };
  if ((p.kind === "persisted" || p.kind === "folder") && isStr(p.id) && /^[a-z0-9]+$/.test(p.id) && isStr(p.label))
    return { kind: p.kind, id: p.id, label: p.label };
  return undefined;
}

/** The saved state, or undefined when there is none or it does not read back whole. */
export function loadState(): SavedState | undefined {
  let raw: unknown;
  try {
    const text = localStorage.getItem(KEY);
    if (!text) return undefined;
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = raw as Record<string, unknown>;
  // A page before this one saved the bare project: it had opened, so it counts as ready.
  const bare = asProject(raw);
  if (bare && r.project === undefined) return { project: bare, status: "ready", attempts: 0 };
  const project = asProject(r?.project);
  if (!project || (r.status !== "opening" && r.status !== "ready" && r.status !== "failed")) return undefined;
  const attempts =
    Number.isInteger(r.attempts) && (r.attempts as number) >= 0 ? (r.attempts as number) : MAX_UNFINISHED;
  const f = r.failure as Record<string, unknown> | undefined;
  const failure =
    f && typeof f.title === "string" && typeof f.message === "string" && typeof f.code === "string"
      ? { title: f.title, message: f.message, code: f.code }
      : undefined;
  return { project, status: r.status, attempts, ...(failure ? { failure } : {}) };
}

export function saveState(state: SavedState | undefined): void {
  try {
    if (state) localStorage.setItem(KEY, JSON.stringify(state));
    else localStorage.removeItem(KEY);
  } catch {
    // storage refused: the project simply is not re-opened after a reload
  }
}

export function loadSaved(): SavedProject | undefined {
  return loadState()?.project;
}

/** The index namespace (a store key segment) of a project. */
export function namespaceOf(project: SavedProject): string {
  return project.kind === "sample" ? "sample" : `${project.kind}-${project.id}`;
}

export function newId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** Remembers a picked folder; returns its id (the same id when this folder was picked before). */
export async function rememberFolder(handle: FileSystemDirectoryHandle): Promise<string> {
  const saved = loadSaved();
  if (saved?.kind === "folder") {
    const old = await get<FileSystemDirectoryHandle>(saved.id, handles).catch(() => undefined);
    if (old && (await old.isSameEntry(handle).catch(() => false))) return saved.id;
  }
  const id = newId();
  await set(id, handle, handles).catch(() => {});
  return id;
}

export async function folderHandle(id: string): Promise<FileSystemDirectoryHandle | undefined> {
  return get<FileSystemDirectoryHandle>(id, handles).catch(() => undefined);
}

export async function forgetFolder(id: string): Promise<void> {
  await del(id, handles).catch(() => {});
}

type PermissionHandle = FileSystemDirectoryHandle & {
  queryPermission?(d: { mode: "read" }): Promise<PermissionState>;
  requestPermission?(d: { mode: "read" }): Promise<PermissionState>;
};

/** Whether the page may read `handle` now; with `ask`, asks the user (needs a click). */
export async function canRead(handle: FileSystemDirectoryHandle, ask: boolean): Promise<boolean> {
  const h = handle as PermissionHandle;
  if (!h.queryPermission) return true;
  if ((await h.queryPermission({ mode: "read" })) === "granted") return true;
  return ask && h.requestPermission ? (await h.requestPermission({ mode: "read" })) === "granted" : false;
}
