/**
 * What the user dropped or picked, as something the worker can open: a folder handle (Chromium's
 * File System Access API), one zip archive, or files with their relative paths. Only handles and
 * File objects are collected here; every byte is read in the worker.
 */

/** One dropped or picked file with its path inside what was dropped. */
export interface PickedFile {
  path: string;
  file: File;
}

export type Picked =
  | { kind: "folder"; handle: FileSystemDirectoryHandle }
  | { kind: "zip"; file: File }
  | { kind: "files"; items: PickedFile[]; label: string }
  | { kind: "nothing" };

type HandleItem = DataTransferItem & { getAsFileSystemHandle?(): Promise<FileSystemHandle | null> };

const isZip = (f: File) =>
  /\.zip$/i.test(f.name) || f.type === "application/zip" || f.type === "application/x-zip-compressed";

/** Files picked with an <input type=file> (with `webkitRelativePath` for folder inputs). */
export function fromFileList(list: FileList | File[]): Picked {
  const files = [...list];
  if (files.length === 0) return { kind: "nothing" };
  if (files.length === 1 && isZip(files[0]!)) return { kind: "zip", file: files[0]! };
  const items = files.map((file) => ({
    path: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name,
    file,
  }));
  const top = items[0]!.path.includes("/") ? items[0]!.path.slice(0, items[0]!.path.indexOf("/")) : "";
  return {
    kind: "files",
    items,
    label: top && items.every((i) => i.path.startsWith(`${top}/`)) ? top : `${files.length} files`,
  };
}

/** Walks a legacy FileSystemEntry (browsers without getAsFileSystemHandle). */
async function walkEntry(entry: FileSystemEntry, base: string, out: PickedFile[], limit: number): Promise<void> {
  if (out.length > limit) return;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path: base + entry.name, file });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walkEntry(child, `${base}${entry.name}/`, out, limit);
  }
}

/** What a drop event carries. Must be called synchronously in the drop handler. */
export function fromDrop(data: DataTransfer, limit: number): Promise<Picked> {
  const items = [...data.items].filter((i) => i.kind === "file") as HandleItem[];
  // DataTransfer items are only readable during the event: take everything out before awaiting.
  const handles = items.map((i) => i.getAsFileSystemHandle?.() ?? Promise.resolve(null));
  const entries = items.map((i) => i.webkitGetAsEntry?.() ?? null);
  const files = [...data.files];
  return (async () => {
    if (items.length === 1) {
      const handle = await handles[0]!.catch(() => null);
      if (handle?.kind === "directory") return { kind: "folder", handle: handle as FileSystemDirectoryHandle };
    }
    if (entries.some((e) => e?.isDirectory)) {
      const out: PickedFile[] = [];
      for (const e of entries) if (e) await walkEntry(e, "", out, limit);
      const label = entries.length === 1 && entries[0] ? entries[0].name : `${out.length} files`;
      return { kind: "files", items: out, label };
    }
    return fromFileList(files);
  })();
}
