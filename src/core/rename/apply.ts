/**
 * Applying a rename plan, all files or none: every file is checked against the hash the preview
 * saw, the new contents are written to temporary files beside the originals, and only then moved
 * over them; a failure while moving puts back every file already replaced. The file operations are
 * injected (`PlanFiles`): the front ends that apply a plan give their host's, the engine has none.
 */
import { EngineError, isEngineError } from "../../shared/errors.ts";
import { gitBlobId } from "../../shared/hash.ts";
import type { RenameEdit, RenamePlan } from "./plan.ts";

/** The file operations applying a plan needs, on workspace-relative paths. */
export interface PlanFiles {
  read(path: string): Promise<Uint8Array>;
  /** Throws `read_only` when the file may not be changed (its mode says so). */
  checkWritable(path: string): Promise<void>;
  /** Writes `bytes` to a new temporary file beside `path` and returns its name. */
  writeTemp(path: string, bytes: Uint8Array): Promise<string>;
  /** Moves a temporary file over `path` (atomic on one file system). */
  commit(temp: string, path: string): Promise<void>;
  /** Removes a temporary file; never throws. */
  discard(temp: string): Promise<void>;
}

/** What apply wrote. */
export interface ApplyReport {
  planToken: string;
  /** Each file written, with how many edits (and mentions) it took. */
  written: { path: string; edits: number; mentions: number }[];
  edits: number;
  mentions: number;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** The text with `edits` made, each checked to find its old text where the plan says. */
export function applyEditsToText(text: string, edits: readonly RenameEdit[]): string | undefined {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = bom ? text.slice(1) : text;
  const lineStarts = [0];
  for (let i = body.indexOf("\n"); i >= 0; i = body.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const at = edits
    .map((e) => ({ e, offset: (lineStarts[e.line - 1] ?? NaN) + e.col }))
    .sort((a, b) => b.offset - a.offset);
  let out = body;
  let last = Infinity;
  for (const { e, offset } of at) {
    if (
      !Number.isFinite(offset) ||
      offset + e.oldText.length > last ||
      out.slice(offset, offset + e.oldText.length) !== e.oldText
    )
      return undefined;
    out = out.slice(0, offset) + e.newText + out.slice(offset + e.oldText.length);
    last = offset;
  }
  return bom + out;
}

/**
 * Writes a plan's edits (and its mentions when `mentions` is set), all files or none. Throws
 * `plan_stale` when a file's content is not what the preview saw (nothing written), `apply_failed`
 * when a write fails (every file replaced so far restored).
 */
export async function applyPlan(
  plan: RenamePlan,
  files: PlanFiles,
  options: { mentions?: boolean } = {},
): Promise<ApplyReport> {
  const originals = await checkUnchanged(plan, files);
  const contents = newContents(plan, originals, options.mentions === true);
  const temps: { path: string; temp: string }[] = [];
  try {
    for (const path of contents.keys()) await files.checkWritable(path);
    for (const [path, bytes] of contents) temps.push({ path, temp: await files.writeTemp(path, bytes) });
  } catch (error) {
    for (const t of temps) await files.discard(t.temp);
    throw failed(plan, error, pathOf(error) ?? temps.at(-1)?.path ?? "", [], []);
  }
  // The files may have changed while the temporaries were written: checked once more, last thing.
  try {
    await checkUnchanged(plan, files);
  } catch (error) {
    for (const t of temps) await files.discard(t.temp);
    throw error;
  }
  await commitAll(plan, files, temps, originals);
  const written = [...contents.keys()].map((path) => ({
    path,
    edits: plan.edits.filter((e) => e.path === path).length,
    mentions: options.mentions ? plan.mentions.filter((e) => e.path === path).length : 0,
  }));
  return {
    planToken: plan.planToken,
    written,
    edits: plan.edits.length,
    mentions: options.mentions ? plan.mentions.length : 0,
  };
}

async function checkUnchanged(plan: RenamePlan, files: PlanFiles): Promise<Map<string, Uint8Array>> {
  const originals = new Map<string, Uint8Array>();
  const changed: string[] = [];
  for (const f of plan.files) {
    let bytes: Uint8Array | undefined;
    try {
      bytes = await files.read(f.path);
    } catch (error) {
      if (!isEngineError(error, "not_found", "not_directory")) throw error;
    }
    if (!bytes || (await gitBlobId(bytes)) !== f.hash) changed.push(f.path);
    else originals.set(f.path, bytes);
  }
  if (changed.length) {
    throw new EngineError(
      "plan_stale",
      `${changed.length} file${changed.length === 1 ? "" : "s"} changed since the preview ` +
        `(${changed.slice(0, 5).join(", ")}${changed.length > 5 ? ", …" : ""}); nothing was written.`,
      {
        hint: "Preview the rename again on the current files and apply the new plan.",
        data: { token: plan.planToken, changed },
      },
    );
  }
  return originals;
}

function newContents(
  plan: RenamePlan,
  originals: Map<string, Uint8Array>,
  withMentions: boolean,
): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const [path, bytes] of originals) {
    const edits = [...plan.edits, ...(withMentions ? plan.mentions : [])].filter((e) => e.path === path);
    if (edits.length === 0) continue;
    const text = applyEditsToText(decoder.decode(bytes), edits);
    if (text === undefined) {
      throw new EngineError("plan_stale", `${path} does not hold the text the plan replaces; nothing was written.`, {
        hint: "Preview the rename again on the current files and apply the new plan.",
        data: { token: plan.planToken, changed: [path] },
      });
    }
    out.set(path, encoder.encode(text));
  }
  return out;
}

async function commitAll(
  plan: RenamePlan,
  files: PlanFiles,
  temps: { path: string; temp: string }[],
  originals: Map<string, Uint8Array>,
): Promise<void> {
  const done: string[] = [];
  for (let i = 0; i < temps.length; i++) {
    try {
      await files.commit(temps[i]!.temp, temps[i]!.path);
      done.push(temps[i]!.path);
    } catch (error) {
      for (const t of temps.slice(i)) await files.discard(t.temp);
      const restored: string[] = [];
      const notRestored: string[] = [];
      for (const path of done) {
        try {
          await files.commit(await files.writeTemp(path, originals.get(path)!), path);
          restored.push(path);
        } catch {
          notRestored.push(path);
        }
      }
      throw failed(plan, error, temps[i]!.path, restored, notRestored);
    }
  }
}

function pathOf(error: unknown): string | undefined {
  return isEngineError(error) ? ((error.data as { path?: string }).path ?? undefined) : undefined;
}

function failed(
  plan: RenamePlan,
  cause: unknown,
  path: string,
  restored: string[],
  notRestored: string[],
): EngineError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new EngineError(
    "apply_failed",
    `Writing ${path} failed (${why}); ` +
      (notRestored.length
        ? `${notRestored.length} file(s) could not be restored: ${notRestored.join(", ")}`
        : restored.length
          ? `the ${restored.length} file(s) written before it were restored`
          : "nothing was written") +
      ".",
    {
      hint: "Fix what stopped the write (a read-only file, a full disk), then preview and apply again.",
      data: { token: plan.planToken, path, restored, ...(notRestored.length ? { notRestored } : {}) },
      cause,
    },
  );
}
