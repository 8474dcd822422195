/** Native path helpers for the Deno platform (node:path's few functions it needs, without node:). */
import type { DenoApi } from "./deno-api.ts";

/** The native separator and path rules for the host. */
export interface NativePaths {
  sep: string;
  /** `base` + a workspace-relative POSIX path ("" gives `base`). */
  join(base: string, rel: string): string;
  /** An absolute, normalized path (relative ones resolved against the current folder). */
  absolute(path: string): string;
  /** The folder holding `path`. */
  dirname(path: string): string;
  /** The last segment of `path`. */
  basename(path: string): string;
  /** True when `path` is `root` or lies under it (both absolute and normalized). */
  isInside(path: string, root: string): boolean;
}

/** Path rules for `deno` (POSIX, or Windows with "\\" and drive letters). */
export function nativePaths(deno: DenoApi): NativePaths {
  const windows = deno.build.os === "windows";
  const sep = windows ? "\\" : "/";
  const isAbsolute = (p: string) => (windows ? /^(?:[A-Za-z]:)?[\\/]/.test(p) : p.startsWith("/"));
  const normalize = (p: string): string => {
    const s = windows ? p.replace(/\//g, "\\") : p;
    const prefix = windows ? (/^(?:[A-Za-z]:)?\\\\?/.exec(s)?.[0] ?? "") : "/";
    const out: string[] = [];
    for (const seg of s.slice(prefix.length).split(sep)) {
      if (seg === "" || seg === ".") continue;
      if (seg === "..") out.pop();
      else out.push(seg);
    }
    return prefix + out.join(sep);
  };
  const paths: NativePaths = {
    sep,
    join: (base, rel) =>
      rel === "" ? base : (base.endsWith(sep) ? base : base + sep) + (windows ? rel.replace(/\//g, sep) : rel),
    absolute: (p) => normalize(isAbsolute(p) ? p : deno.cwd() + sep + p),
    dirname: (p) => {
      const i = p.lastIndexOf(sep);
      return i <= 0 ? (i === 0 ? sep : ".") : p.slice(0, i);
    },
    basename: (p) => p.slice(p.lastIndexOf(sep) + 1),
    isInside: (p, root) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep),
  };
  return paths;
}
