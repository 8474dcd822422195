/**
 * Which folders of a disk root are reached without any symbolic link, shared by the Node and
 * Deno file systems: entries under such a folder need no realpath to be confined to the root,
 * which saves a system call per file on every scan.
 */
export class LinkFreeFolders {
  private readonly dirs = new Set<string>([""]);

  /** True when `rel` (workspace-relative) is known to be link-free. */
  has(rel: string): boolean {
    return this.dirs.has(rel);
  }

  /** Forgets every folder but the root (a new scan starts: folders may have become links since). */
  reset(): void {
    this.dirs.clear();
    this.dirs.add("");
  }

  /** Records a folder seen to be link-free (its realpath is its lexical path). */
  add(rel: string): void {
    this.dirs.add(rel);
  }

  /**
   * Where to list `rel`: its lexical path when known link-free, else `resolve()`'s confined real
   * path. Listing the root starts a scan, so what was known is forgotten first: folders may have
   * become links since.
   */
  async listingTarget(
    rel: string,
    full: string,
    resolve: () => Promise<string>,
  ): Promise<{ target: string; safe: boolean }> {
    if (rel === "") this.reset();
    let target = full;
    if (!this.dirs.has(rel)) {
      target = await resolve();
      if (target === full) this.dirs.add(rel);
    }
    return { target, safe: target === full };
  }

  /** A folder listed inside a link-free folder is link-free too. */
  addChild(rel: string, name: string): void {
    this.dirs.add(rel === "" ? name : `${rel}/${name}`);
  }
}
