/**
 * OverlayFileSystem: the project's file system with the editor's unsaved text laid over it. An open
 * document's text is what `readFile` returns for its path, with a stat of its own (its size, a
 * modification time that moves with every edit), and every edit is announced to the engine's
 * watchers as a change of that file. The engine then re-checks that one file on its next refresh,
 * exactly as after a save, and every answer (definitions, hovers, bundles) reads the unsaved text:
 * the core needs no hook of its own.
 */
import type { DirEntry, FileStat, FileSystem } from "../index.ts";

interface Layer {
  bytes: Uint8Array;
  mtimeMs: number;
}

interface Listener {
  dirs: ReadonlySet<string>;
  onChange: (path: string) => void;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** Options of {@link OverlayFileSystem}. */
export interface OverlayOptions {
  /**
   * The base never changes (a tree held in memory: a zip, dropped files, a sample): the overlay
   * then offers a watcher of its own, which reports only the overlay's edits, so an engine that
   * watches re-indexes just the edited file instead of re-scanning the tree before every answer.
   */
  unchanging?: boolean;
}

/** A FileSystem that answers open documents' paths from their unsaved text. */
export class OverlayFileSystem implements FileSystem {
  readonly rootLabel: string;
  readonly lstatMany?: NonNullable<FileSystem["lstatMany"]>;
  readonly watch?: NonNullable<FileSystem["watch"]>;
  private readonly layers = new Map<string, Layer>();
  private readonly listeners = new Set<Listener>();
  private lastMtime = 0;

  constructor(
    private readonly base: FileSystem,
    options: OverlayOptions = {},
  ) {
    this.rootLabel = base.rootLabel;
    if (base.lstatMany) this.lstatMany = (paths) => this.overlayStats(paths);
    // Without a watcher (of the base, or of an unchanging base's overlay alone) the engine
    // re-scans on every refresh, and a scan takes the overlay's stat (readDir, lstatMany) like any file's.
    if (base.watch || options.unchanging) this.watch = (dirs, onChange) => this.watchBoth(dirs, onChange);
  }

  /** Lays `text` over `path` (workspace-relative) and tells the watchers the file changed. */
  set(path: string, text: string): void {
    // A time no disk file of this session has, and later than the last one: a stat-based check
    // always sees the new text as changed, and git's index never vouches for it.
    this.lastMtime = Math.max(Date.now(), this.lastMtime + 1);
    this.layers.set(path, { bytes: new TextEncoder().encode(text), mtimeMs: this.lastMtime });
    this.announce(path);
  }

  /** Drops the overlay of `path` (the document was closed): the file on disk answers again. */
  delete(path: string): void {
    if (this.layers.delete(path)) this.announce(path);
  }

  /** Whether `path` has unsaved text laid over it. */
  has(path: string): boolean {
    return this.layers.has(path);
  }

  async readFile(path: string): Promise<Uint8Array> {
    const layer = this.layers.get(path);
    return layer ? layer.bytes.slice() : this.base.readFile(path);
  }

  async stat(path: string): Promise<FileStat> {
    const layer = this.layers.get(path);
    return layer ? { kind: "file", size: layer.bytes.length, mtimeMs: layer.mtimeMs } : this.base.stat(path);
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const entries = await this.base.readDir(path);
    if (this.layers.size === 0) return entries;
    return entries.map((e) => {
      const layer = e.kind === "file" ? this.layers.get(path ? `${path}/${e.name}` : e.name) : undefined;
      return layer ? { ...e, size: layer.bytes.length, mtimeMs: layer.mtimeMs } : e;
    });
  }

  private async overlayStats(paths: readonly string[]): Promise<(FileStat | undefined)[]> {
    const stats = await this.base.lstatMany!(paths);
    if (this.layers.size === 0) return stats;
    return stats.map((st, i) => {
      const layer = st?.kind === "file" ? this.layers.get(paths[i]!) : undefined;
      return layer ? { ...st!, size: layer.bytes.length, mtimeMs: layer.mtimeMs, ctimeMs: layer.mtimeMs } : st;
    });
  }

  private watchBoth(dirs: string[], onChange: (path: string) => void): { close(): void } {
    const handle = this.base.watch ? this.base.watch(dirs, onChange) : { close() {} };
    const listener: Listener = { dirs: new Set(dirs), onChange };
    this.listeners.add(listener);
    return {
      close: () => {
        this.listeners.delete(listener);
        handle.close();
      },
    };
  }

  private announce(path: string): void {
    const dir = parentOf(path);
    for (const l of this.listeners) if (l.dirs.has(dir)) l.onChange(path);
  }
}
