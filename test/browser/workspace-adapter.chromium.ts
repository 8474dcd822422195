/**
 * The documented example adapter (docs/examples/workspace-file-system.ts) over a VS Code-style
 * workspace API passes the FileSystem contract, and an engine indexes through it.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/index.ts";
import { MemoryFileSystem, MemoryStore } from "../../src/platform/memory/index.ts";
import { FileType, workspaceFileSystem, type WorkspaceFs } from "../../docs/examples/workspace-file-system.ts";
import { fileSystemContract, type FixtureEntry } from "../platform/file-system.contract.ts";
import { wasm } from "../support/platform.ts";

/** A fake `vscode.workspace.fs` over a memory tree: URIs are paths, errors carry VS Code's codes. */
function fakeWorkspace(files: Record<string, FixtureEntry>): WorkspaceFs<string> {
  const mem = new MemoryFileSystem(files);
  const vsError = (error: { code?: string; message?: string }) => {
    const code =
      error.code === "not_found"
        ? "FileNotFound"
        : error.code === "not_directory"
          ? "FileNotADirectory"
          : "Unavailable";
    return Promise.reject(Object.assign(new Error(error.message), { code }));
  };
  return {
    readFile: (uri) => mem.readFile(uri).catch(vsError),
    readDirectory: (uri) =>
      mem
        .readDir(uri)
        .then(
          (entries) =>
            entries.map(
              ({ name, kind }) =>
                [
                  name,
                  kind === "file" ? FileType.File : kind === "directory" ? FileType.Directory : FileType.SymbolicLink,
                ] as [string, number],
            ),
          vsError,
        ),
    stat: (uri) =>
      mem.stat(uri).then(
        (s) => ({
          type: s.kind === "directory" ? FileType.Directory : FileType.File,
          size: s.size,
          mtime: s.mtimeMs,
          ctime: 0,
        }),
        vsError,
      ),
  };
}

const join = (base: string, path: string) => (base === "" ? path : `${base}/${path}`);

fileSystemContract(
  "the example workspace adapter",
  async (files) => workspaceFileSystem(fakeWorkspace(files), "", join, "workspace"),
  { symlinks: false },
);

describe("the example workspace adapter", () => {
  it("an engine indexes and answers through it", async () => {
    const fs = workspaceFileSystem(
      fakeWorkspace({
        "src/app.ts": "import { helper } from './util';\nexport function main(): number {\n  return helper();\n}\n",
        "src/util.ts": "export function helper(): number {\n  return 1;\n}\n",
      }),
      "",
      join,
      "workspace",
    );
    const engine = createEngine({ fs, store: new MemoryStore(), wasm });
    expect((await engine.index()).parsed).toBe(2);
    const callers = await engine.callers("helper");
    expect(callers.results.map((r) => r.qualified)).toEqual(["src/app.ts#main"]);
  });
});
