/** Maps the DOMExceptions of the File System Access API, OPFS and IndexedDB to EngineError codes. */
import { EngineError } from "../../shared/errors.ts";

/** The DOMException name, or undefined for anything else. */
export function domErrorName(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "name" in error && typeof error.name === "string"
    ? error.name
    : undefined;
}

/**
 * True when `error` means the browser will not keep more data here: the quota is used up, or the
 * user/browser refused storage (private mode, blocked site data, a revoked permission).
 */
export function isStorageRefusal(error: unknown): boolean {
  const name = domErrorName(error);
  return (
    name === "QuotaExceededError" ||
    name === "SecurityError" ||
    name === "NotAllowedError" ||
    name === "InvalidStateError" ||
    // Chromium reports a full disk under OPFS as an "unknown" I/O failure.
    (name === "UnknownError" && /quota|space|disk/i.test(String((error as Error).message)))
  );
}

/** The EngineError a failed handle operation on `path` amounts to. */
export function mapDomError(error: unknown, path: string): EngineError {
  if (error instanceof EngineError) return error;
  const data = { path };
  switch (domErrorName(error)) {
    case "NotFoundError":
      return new EngineError("not_found", `No such file or folder: ${path}`, { data, cause: error });
    case "TypeMismatchError":
      return new EngineError("not_directory", `Not a folder: ${path}`, { data, cause: error });
    case "NotAllowedError":
    case "SecurityError":
      return new EngineError("permission_denied", `The browser refused access to ${path}`, {
        data,
        cause: error,
        hint: "Grant access to the folder again (open it from the page).",
      });
    default:
      return new EngineError("io_error", `Cannot read ${path}: ${(error as Error)?.message ?? String(error)}`, {
        data,
        cause: error,
      });
  }
}
