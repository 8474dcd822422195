/** The one error type the engine throws: a stable `code`, a concrete message, a hint and data. */

/** Stable, lower_snake error codes. Tests and front ends branch on these, never on wording. */
export type ErrorCode =
  | "root_not_found"
  | "root_not_directory"
  | "not_found"
  | "not_directory"
  | "outside_root"
  | "permission_denied"
  | "symlink_loop"
  | "io_error"
  | "read_only"
  /** The cache folder is not codeslice's own (user files, the project itself): nothing is written there. */
  | "cache_refused"
  /** The cache folder vanished with its parent (a deleted project): writes go nowhere. */
  | "cache_unavailable"
  | "wasm_missing"
  | "wasm_mismatch"
  | "grammar_incompatible"
  | "invalid_argument"
  | "unknown_symbol"
  /** A task in words that nothing in the project matches well (a floor, rather than unrelated code). */
  | "no_match"
  | "ambiguous_symbol"
  | "no_index"
  /** A file kept changing while the engine re-indexed it to answer from its current bytes. */
  | "stale_index"
  | "budget_too_small"
  | "no_supported_files"
  | "cancelled"
  /** The work would not fit in the process's heap: refused before it could kill the process. */
  | "memory_limit";

/** An error with a machine-readable `code`, a one-line `hint` saying what to do, and structured `data`. */
export class EngineError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly data: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { hint?: string; data?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "EngineError";
    this.code = code;
    this.hint = options.hint;
    this.data = options.data ?? {};
  }
}

/** True when `error` is an EngineError, optionally with one of the given codes. */
export function isEngineError(error: unknown, ...codes: ErrorCode[]): error is EngineError {
  return error instanceof EngineError && (codes.length === 0 || codes.includes(error.code));
}

/** Throws `cancelled` if the signal was aborted; long loops call this between units of work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new EngineError("cancelled", "The operation was cancelled.", { cause: signal.reason });
}
