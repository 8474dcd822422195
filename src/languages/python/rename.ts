/** Python's identifiers and keywords, for rename. */
import type { RenameRules } from "../types.ts";

/**
 * Identifiers (PEP 3131, without NFKC folding) and the hard keywords; soft keywords (`match`, `type`) stay valid names.
 */
export const pythonRename: RenameRules = {
  family: "python",
  identifier: /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u,
  keywords: new Set(
    (
      "False None True and as assert async await break class continue def del elif else except finally for from " +
      "global if import in is lambda nonlocal not or pass raise return try while with yield"
    ).split(" "),
  ),
};
