/** A target that names a file the scan kept out of the index: an error that says so, and why. */
import { EngineError } from "../../shared/errors.ts";
import { normalizeRelative } from "../../shared/paths.ts";
import type { EngineState } from "./state.ts";

/**
 * Engine methods whose first argument is a target (a symbol or a file); `trace` takes two. `snippet` reads a
 * file: read_snippet on a binary answers as context does, not as for a path that is not there.
 */
const TARGET_METHODS = new Set([
  "context",
  "snippet",
  "callers",
  "callees",
  "importers",
  "tests",
  "runTests",
  "impact",
  "signature",
  "dataflow",
  "rename",
  "shapeCheck",
  "resolveSymbol",
  "trace",
]);

/**
 * `error` unless it is a `not_found` or `unknown_symbol` for a target that is a file the scan skipped (a binary, a
 * file over the size limit, a lockfile…): then a `not_found` naming the file and the reason (`data.skipped`), so the
 * reader is not sent to check a path that exists or offered symbols of a similar name (tRPC's
 * `impact www/static/logos/Documenso.png` suggested `setupPingInterval.pong`).
 */
export function skippedTargetError(s: EngineState, method: string, args: readonly unknown[], error: unknown): unknown {
  if (!(error instanceof EngineError) || !TARGET_METHODS.has(method)) return error;
  if (error.code !== "not_found" && error.code !== "unknown_symbol") return error;
  const snapshot = s.passes.index?.snapshot;
  if (!snapshot) return error;
  for (const target of args.slice(0, method === "trace" ? 2 : 1)) {
    if (typeof target !== "string") continue;
    const path = normalizeRelative(target.trim());
    if (!path) continue;
    const skipped =
      snapshot.skipped.find((f) => f.path === path) ?? snapshot.contentSkips?.find((f) => f.path === path);
    if (!skipped) continue;
    const why = `${skipped.reason.replace(/_/g, " ")}${skipped.detail ? `: ${skipped.detail}` : ""}`;
    return new EngineError("not_found", `${path} is in the project, but the index skipped it (${why}).`, {
      hint:
        skipped.reason === "too_large"
          ? "Raise the file size limit to index it, or name a source file or a symbol."
          : "Name a source file or a symbol; only source files have symbols and calls.",
      data: { path, suggestions: [], skipped: skipped.reason },
    });
  }
  return error;
}
