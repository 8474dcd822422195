/**
 * shape_check on models that name each other and through a component's props: a model tree with
 * a cycle (`Folder.files: FileEntry[]`, `FileEntry.folder: Folder`) is read once, without waiting
 * on itself, and a parameter typed by a props interface whose field is the model
 * (`({ folder }: FolderViewProps)`, the frontend's usual shape) is a consumer of that field's model.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const FILES = {
  "web/types.ts": `export interface Folder {
  name: string;
  files: FileEntry[];
}

export interface FileEntry {
  title: string;
  folder: Folder;
}

export interface FolderViewProps {
  folder: Folder;
  onOpen: () => void;
}
`,
  "web/view.ts": `import type { FolderViewProps } from './types';

export const FolderView = ({ folder, onOpen }: FolderViewProps) => {
  onOpen();
  return folder.files.map((f) => f.title).join(folder.name);
};

export function folderTitle(props: FolderViewProps) {
  return props.folder.name;
}
`,
};

describe("shape_check through models that name each other and props interfaces", () => {
  it("answers on a model tree with a cycle, and finds the reads through destructured and named props", async () => {
    const { engine } = memoryEngine(FILES);
    // Before: Folder → FileEntry → Folder waited on its own build and the answer never came.
    const a = await engine.shapeCheck("Folder", { rename: ["name=label"] });
    expect(a.models[0]!.fields.map((f) => f.name)).toEqual(["name", "files"]);
    expect(a.breaks.map((b) => `${b.path}:${b.line} ${b.expression}`)).toEqual([
      "web/view.ts:5 folder.name",
      "web/view.ts:9 props.folder.name",
    ]);
    expect(a.reads.map((r) => `${r.line} ${r.field}`)).toEqual(expect.arrayContaining(["5 files"]));
    // The props interface is no model of the answer: reading its field is no read.
    expect(a.reads.filter((r) => r.model.includes("FolderViewProps"))).toEqual([]);
  }, 20_000);
});
