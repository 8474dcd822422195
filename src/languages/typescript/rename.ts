/** TypeScript's and JavaScript's identifiers and reserved words, for rename. */
import type { RenameRules } from "../types.ts";

/**
 * ECMAScript identifiers; ECMAScript reserved words, strict-mode reserved words, and the names
 * TypeScript reserves for its own types (a class named `string` does not compile).
 */
export const ecmascriptRename: RenameRules = {
  family: "ecmascript",
  identifier: /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$\u200c\u200d]*$/u,
  keywords: new Set(
    (
      "break case catch class const continue debugger default delete do else enum export extends false finally " +
      ("for function if import in instanceof new null return super switch this throw true try typeof var void " +
        "while with yield ") +
      ("let static implements interface package private protected public await arguments eval undefined any " +
        "boolean never number object string symbol unknown bigint")
    ).split(" "),
  ),
};
