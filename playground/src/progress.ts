/**
 * What the progress bar says in each phase, as plain data (tested in test/playground/progress.test.ts).
 * The bar is only determinate while a count is known and unfinished: a parse that reached its
 * total still has the graph and the snapshot to write, which on big projects takes longer than the
 * parse, so it is shown as ongoing work, not as a full bar.
 */
import type { WorkerProgress } from "../../src/worker/worker-protocol.ts";

/** The bar: its text and, when the work is countable, how far along it is. */
export interface ProgressView {
  text: string;
  value?: number;
  max?: number;
}

const fmt = (n: number) => n.toLocaleString("en");

/** The progress bar for one report from the worker. */
export function progressView(p: WorkerProgress): ProgressView {
  const bar = p.total !== undefined && p.total > 0 && p.done < p.total ? { value: p.done, max: p.total } : {};
  switch (p.phase) {
    case "unpack":
      return { text: `Unpacking ${fmt(p.done)}${p.total !== undefined ? ` of ${fmt(p.total)}` : ""} files…`, ...bar };
    case "save":
      return { text: `Saving ${fmt(p.done)} of ${fmt(p.total ?? 0)} files for the next visit…`, ...bar };
    case "scan":
      // The first report comes before any file is seen: "0 found" read as an empty project.
      return { text: p.done > 0 ? `Listing files… ${fmt(p.done)} found` : "Listing files…" };
    case "parse":
      if (p.total !== undefined && p.done >= p.total)
        return { text: `Read ${fmt(p.total)} source files; linking calls and imports and saving the index…` };
      return {
        text: `Indexing ${fmt(p.done)}${p.total !== undefined ? ` of ${fmt(p.total)}` : ""} source files…`,
        ...bar,
      };
    case "graph":
      return { text: "Linking calls and imports…" };
  }
}
