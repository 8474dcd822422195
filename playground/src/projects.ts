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

export function loadSaved(): SavedProject | undefined {
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as SavedProject) : undefined;
  } catch {
    return undefined;
  }
}

export function save(project: SavedProject | undefined): void {
  try {
    if (project) localStorage.setItem(KEY, JSON.stringify(project));
    else localStorage.removeItem(KEY);
  } catch {
    // storage refused: the project simply is not re-opened after a reload
  }
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
