/**
 * The one error type the engine throws: a stable `code`, a concrete message, a neutral hint and
 * typed data. The hint names no front end (no command, flag or tool): each front end words its own
 * way out from the code and the data (the CLI in cli/output.ts, the MCP server in mcp/errors.ts).
 */

/** A symbol an error suggests or lists as a candidate (the shape of the engine's SymbolRef). */
export interface ErrorSymbol {
  qualified: string;
  kind: string;
  path: string;
  line: number;
}

/**
 * The data each error code carries. Front ends branch on `code` and read these fields to word
 * their advice; tests assert on them, never on wording.
 */
export interface ErrorData {
  /** The project folder is missing (`root`); `id` names a saved browser copy that is gone. */
  root_not_found: { root?: string; id?: string };
  root_not_directory: { root: string };
  /**
   * A file or folder that does not exist; `suggestions` are indexed files of the same name. `skipped`: the file exists
   * but the index skipped it, for this reason (`binary`, `too_large`, `lockfile`, … as the index summary lists them).
   */
  not_found: { path: string; suggestions?: string[]; skipped?: string };
  not_directory: { path: string };
  /** A path that leaves the project root (`path` from a file system, `target` as the caller wrote it). */
  outside_root: { path?: string; target?: string };
  /** `flag`: the runtime permission that was missing (Deno's `--allow-read`, …). */
  permission_denied: { path?: string; flag?: string };
  symlink_loop: { path: string };
  /** `oid`/`type`: a git object that is missing or not what it should be; `file`: git data that could not be read. */
  /**
   * `reason`: `damaged_object`, `bad_tree_entry`, or `too_large` (an object's declared `size` over `limit`, left
   * unread).
   */
  io_error: {
    path?: string;
    kind?: string;
    reason?: string;
    oid?: string;
    type?: string;
    file?: string;
    size?: number;
    limit?: number;
  };
  read_only: { path?: string };
  /** The cache folder or browser store is not codeslice's own; nothing was written there. */
  cache_refused: {
    cacheDir?: string;
    store?: string;
    namespace?: string;
    reason?: string;
    entries?: string[];
    refused?: string[];
    [detail: string]: unknown;
  };
  cache_unavailable: { cacheDir: string };
  wasm_missing: { file: string; url?: string; status?: number };
  wasm_mismatch: { file: string; expected: string; actual: string };
  grammar_incompatible: { grammar: string };
  /** tree-sitter trapped on this file even after a renewed instance and a shallower retry: the file is skipped. */
  parse_failed: { path: string };
  /**
   * An argument out of its bounds: the key names the argument and holds the value given (`budget`,
   * `depth`, `limit`, `encoding`, `length` of a target, `start`/`end` lines, …); `min`/`max` are
   * its bounds when it has them.
   */
  invalid_argument: {
    budget?: unknown;
    depth?: unknown;
    limit?: unknown;
    encoding?: unknown;
    length?: number;
    start?: unknown;
    end?: unknown;
    path?: string;
    totalLines?: number;
    key?: string;
    maxResponseTokens?: unknown;
    query?: string;
    min?: number;
    max?: number;
    reason?: string;
    [detail: string]: unknown;
  };
  /** No repository of the served group has that name; `repos` are the names served. */
  unknown_repo: { repo: string; repos: string[] };
  /** Nothing answers `target`; `suggestions` are the nearest names, `known` the routes there are (for a route). */
  unknown_symbol: { target: string; suggestions?: ErrorSymbol[]; known?: number };
  /** `target` matches `total` symbols (or files); `candidates` are the first few. */
  /** A task in words (or a trace) that nothing in the project matches well: `closest` are the nearest, each weak. */
  no_match: {
    target?: string;
    terms?: string[];
    closest?: ErrorSymbol[];
    frames?: unknown[];
    error?: string | undefined;
  };
  /** `path` kept changing while the engine re-indexed it to answer from its current bytes. */
  stale_index: { path: string; indexedHash?: string; currentHash?: string | null };
  ambiguous_symbol: { target: string; candidates: ErrorSymbol[]; total: number };
  /**
   * The index cache (`store`) could not be read back whole: `paths` stay unreadable. `records`: the
   * records of `paths` read back, and their calls or bindings did not when first read.
   */
  no_index: { store?: string; paths?: string[]; records?: true };
  /** `needed`: the smallest budget that holds the answer (its seed's outline, the map's header). */
  budget_too_small: { budget: number; needed: number; seedTokens?: number; seedOutlineTokens?: number };
  /** Nothing to index under `root`: `files` scanned, `languages` supported. */
  no_supported_files: { root: string; languages?: string[]; files?: number };
  cancelled: Record<string, never>;
  /** The work needs more heap than the process has: `suggestedMiB` would do. */
  memory_limit: { what: string; neededMiB: number; usedMiB: number; limitMiB: number; suggestedMiB: number };
  /**
   * The root is not a git repository the engine can read (none, or a linked worktree whose git folder lies outside it).
   */
  not_a_repository: { root: string; gitdir?: string };
  /**
   * `rev` names nothing in the repository (`suggestions`: branch and tag names close to it), or `candidates` share an
   * abbreviated id, or it names a `type` other than a commit.
   */
  unknown_revision: { rev?: string; oid?: string; suggestions?: string[]; candidates?: string[]; type?: string };
  /** The repository has no commits yet (`branch`: the unborn branch HEAD names). */
  empty_repository: { rev?: string; branch?: string };
  /** The history needed is past a shallow clone's boundary (`boundary`), or object `oid` was left out by it. */
  shallow_history: { rev?: string; oid?: string; boundary?: string };
  /**
   * A regular expression that does not compile (`column`: 1-based, where the error is; `reason`: RE2's description).
   */
  invalid_pattern: { pattern: string; column?: number; reason: string };
  /** A text that is not a unified diff (`line`: the first line that breaks the format). */
  invalid_diff: { line?: number };
  /** A diff whose files match the tree neither before nor after it: `failures` say why, per file (the first few). */
  diff_not_applicable: { files: number; failures: { path: string | undefined; forward: string; reverse: string }[] };
  /** Bytes given as an index artifact that are not one (`bytes`: how many; `magic`: their first bytes, hex). */
  artifact_foreign: { bytes: number; magic: string };
  /** An index artifact shorter than its header says (`expectedBytes`), cut in a copy or a download. */
  artifact_truncated: { expectedBytes: number; actualBytes: number };
  /**
   * An index artifact whose checksum or content does not hold (`reason`; `offset` of the part that broke, when known).
   */
  artifact_corrupt: { reason: string; offset?: number };
  /**
   * An index artifact written by another codeslice: another artifact format (`format`), record schema
   * (`schema`), or grammar and query versions (`languages`: the languages whose records this engine
   * would not make the same). Each pair is the artifact's value and this engine's.
   */
  /** No check config in any of the files `looked` at. */
  check_config_missing: { looked: string[] };
  /** A check config that cannot be used: the `file`, the `key` that is wrong (a rule or field), and why. */
  check_config_invalid: { file: string; key?: string; reason: string };
  /**
   * A test command codeslice will not run: `reason` is `not_allowed` (its program is not an allowlisted
   * runner; `allowed` lists them), `shell_syntax` (it needs a shell: `character` is the first one),
   * `no_tests` (nothing to run), `no_runner` (the runner is not installed) or `unsupported` (the
   * host cannot start processes).
   */
  run_refused: {
    command?: string;
    reason: "not_allowed" | "shell_syntax" | "no_tests" | "no_runner" | "unsupported";
    allowed?: string[];
    character?: string;
  };
  artifact_version_mismatch: {
    format?: { artifact: number; engine: number };
    schema?: { artifact: number; engine: number };
    languages?: string[];
  };
  /**
   * A rename that would not be safe, nothing planned: `reason` says why (`invalid_identifier`,
   * `keyword`, `collision` with `conflicts`, `outside_project`, `unsupported` for a kind or language
   * rename does not handle, `same_name`).
   */
  rename_refused: {
    reason: "invalid_identifier" | "keyword" | "collision" | "outside_project" | "unsupported" | "same_name";
    name?: string;
    target?: string;
    conflicts?: { path: string; line: number; what: string }[];
  };
  /** A plan token no preview of this project produced (or one that was applied already, or cleared with the cache). */
  plan_unknown: { token: string };
  /** Files a plan touches changed since its preview (`changed`: their paths); nothing was written. */
  plan_stale: { token: string; changed: string[] };
  /** Writing a plan failed at `path`; every file written before it was restored (`restored`). */
  apply_failed: { token: string; path: string; restored: string[]; notRestored?: string[] };
  /**
   * A graph query that cannot run: `reason` says why (`syntax`, `write` for a clause that would
   * write, `unsupported` for Cypher outside the subset, `unbounded` for a variable-length
   * relationship with no upper bound or over `maxHops`, `unknown_label`/`unknown_type`/
   * `unknown_property`/`unknown_variable`/`unknown_function`, `type_error`); `line` and `column`
   * (1-based) point at the part that is wrong, `excerpt` is that line with a caret under it.
   */
  invalid_query: {
    reason: string;
    line: number;
    column: number;
    offset: number;
    excerpt: string;
    found?: string;
    maxHops?: number;
    [detail: string]: unknown;
  };
  /**
   * A graph query past one of its bounds: `limit` is `time` (`timeMs`), `bindings` (`maxBindings`
   * intermediate rows), `rows` (`maxRows` asked for by LIMIT) or `tokens` (the rows asked for need
   * `needed` tokens; `fits` rows fit in `budget`).
   */
  query_over_budget: {
    limit: "time" | "bindings" | "rows" | "tokens";
    timeMs?: number;
    maxBindings?: number;
    maxRows?: number;
    rows?: number;
    fits?: number;
    budget?: number;
    needed?: number;
  };
}

/** Stable, lower_snake error codes. Tests and front ends branch on these, never on wording. */
export type ErrorCode = keyof ErrorData;

/** Options of an error: its data is required when the code's data has required fields. */
export type EngineErrorOptions<C extends ErrorCode> = { hint?: string; cause?: unknown } & (Record<
  string,
  never
> extends ErrorData[C]
  ? { data?: ErrorData[C] }
  : { data: ErrorData[C] });

/** An error with a machine-readable `code`, a one-line neutral `hint`, and the code's typed `data`. */
export class EngineError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  /** What to do next, in words that fit any front end (no command, flag or tool names). */
  readonly hint: string | undefined;
  readonly data: ErrorData[C];

  constructor(
    code: C,
    message: string,
    ...[options]: Record<string, never> extends ErrorData[C]
      ? [options?: EngineErrorOptions<C>]
      : [options: EngineErrorOptions<C>]
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "EngineError";
    this.code = code;
    this.hint = options?.hint;
    this.data = (options?.data ?? {}) as ErrorData[C];
  }
}

/**
 * An EngineError of one of the codes `C`, as a union over the codes: a `switch` on `code` narrows
 * `data` to that code's shape.
 */
export type EngineErrorOf<C extends ErrorCode = ErrorCode> = C extends ErrorCode ? EngineError<C> : never;

/** True when `error` is an EngineError, optionally with one of the given codes. */
export function isEngineError<C extends ErrorCode = ErrorCode>(
  error: unknown,
  ...codes: C[]
): error is EngineErrorOf<C> {
  return error instanceof EngineError && (codes.length === 0 || (codes as ErrorCode[]).includes(error.code));
}

/** Throws `cancelled` if the signal was aborted; long loops call this between units of work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new EngineError("cancelled", "The operation was cancelled.", { cause: signal.reason });
}
