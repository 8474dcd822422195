/** The key grammar every Store accepts, checked the same way by each implementation. */
import { EngineError } from "../shared/errors.ts";
import { quoted } from "../shared/quote.ts";

// Segments may not start with "." so file-backed stores can keep their own bookkeeping (a
// `.gitignore`, temp files of atomic writes) next to the data without a key ever colliding with it;
// this also rules out "." and "..".
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Throws `invalid_argument` unless `key` is "/"-separated `[A-Za-z0-9._-]` segments not starting with ".". */
export function checkStoreKey(key: string): void {
  if (typeof key !== "string" || !KEY.test(key)) {
    throw new EngineError("invalid_argument", `Bad store key: ${quoted(key)}`, {
      hint:
        'Store keys are relative, "/"-separated segments of letters, digits, ".", "_" and "-", not starting ' +
        'with ".".',
      data: { key },
    });
  }
}
