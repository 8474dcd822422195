/**
 * The file operations applying a rename plan needs, over node:fs: reads and writes confined to the
 * root (no `..`, no symbolic link out of it), temporaries beside each file with its mode, moved
 * over it with rename(2).
 */
import { promises as fsp } from "node:fs";
import * as nodePath from "node:path";
import type { PlanFiles } from "../../index.ts";
import { EngineError } from "../../shared/errors.ts";
import { normalizeRelative } from "../../shared/paths.ts";
import { mapNodeError } from "./node-file-system.ts";

let counter = 0;

/** PlanFiles for the project folder `root` on disk. */
export function createNodePlanFiles(root: string): PlanFiles {
  const base = nodePath.resolve(root);
  const abs = async (path: string): Promise<string> => {
    const rel = normalizeRelative(path);
    if (rel === undefined || rel === "")
      throw new EngineError("outside_root", `Path escapes the root: ${path}`, { data: { path } });
    const full = nodePath.join(base, ...rel.split("/"));
    let real: string;
    try {
      real = await fsp.realpath(full);
    } catch (error) {
      throw mapNodeError(error, path);
    }
    const realBase = await fsp.realpath(base);
    const inside = nodePath.relative(realBase, real);
    if (inside === "" || inside.startsWith("..") || nodePath.isAbsolute(inside)) {
      throw new EngineError("outside_root", `Path leads outside the root through a symbolic link: ${path}`, {
        data: { path },
      });
    }
    return real;
  };
  return {
    async read(path) {
      const full = await abs(path);
      try {
        return new Uint8Array(await fsp.readFile(full));
      } catch (error) {
        throw mapNodeError(error, path);
      }
    },
    async checkWritable(path) {
      const full = await abs(path);
      const st = await fsp.stat(full).catch((error: unknown) => {
        throw mapNodeError(error, path);
      });
      // The mode, not access(2): as root every file is writable, but a file the user made
      // read-only is one they did not mean to have rewritten.
      if ((st.mode & 0o222) === 0)
        throw new EngineError("read_only", `${path} is read-only`, {
          hint: "Make it writable, or leave it out of the rename.",
          data: { path },
        });
    },
    async writeTemp(path, bytes) {
      const full = await abs(path);
      const temp = `${full}.codeslice-${process.pid}-${++counter}.tmp`;
      try {
        const st = await fsp.stat(full);
        await fsp.writeFile(temp, bytes, { flag: "wx", mode: st.mode & 0o7777 });
        await fsp.chmod(temp, st.mode & 0o7777);
      } catch (error) {
        await fsp.unlink(temp).catch(() => undefined);
        throw mapNodeError(error, path, "write");
      }
      return temp;
    },
    async commit(temp, path) {
      const full = await abs(path);
      try {
        await fsp.rename(temp, full);
      } catch (error) {
        throw mapNodeError(error, path, "write");
      }
    },
    async discard(temp) {
      await fsp.unlink(temp).catch(() => undefined);
    },
  };
}
