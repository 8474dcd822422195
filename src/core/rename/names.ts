/** Which new names a rename accepts, per language: identifiers only, never a keyword. */
import { EngineError } from "../../shared/errors.ts";

/** The languages rename supports, and which of them can name each other's symbols. */
export const RENAME_LANGUAGES: Readonly<Record<string, "python" | "js">> = {
  python: "python",
  typescript: "js",
  tsx: "js",
  javascript: "js",
};

const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(" "),
);

/** ECMAScript reserved words, strict-mode reserved words, and TypeScript's reserved type names. */
const JS_KEYWORDS = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield " +
    "let static implements interface package private protected public await arguments eval undefined any boolean never number object string symbol unknown bigint").split(" "),
);

/** Longest new name accepted: longer is a mistake (a pasted text), not a name. */
export const MAX_NAME_CHARS = 200;

const PYTHON_IDENTIFIER = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;
const JS_IDENTIFIER = /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$\u200c\u200d]*$/u;

/**
 * Throws `rename_refused` (`invalid_identifier` or `keyword`) when `name` cannot name a symbol in
 * `family`'s languages.
 */
export function checkNewName(name: string, family: "python" | "js"): void {
  const valid = family === "python" ? PYTHON_IDENTIFIER : JS_IDENTIFIER;
  const language = family === "python" ? "Python" : "TypeScript/JavaScript";
  if (name.length > MAX_NAME_CHARS) {
    throw new EngineError("rename_refused", `The new name is ${name.length} characters long; at most ${MAX_NAME_CHARS} are accepted.`, {
      hint: "Give a shorter name.",
      data: { reason: "invalid_identifier", name: `${name.slice(0, 40)}…` },
    });
  }
  if (!valid.test(name)) {
    throw new EngineError("rename_refused", `${JSON.stringify(name)} is not a valid ${language} identifier.`, {
      hint: "Give a name of letters, digits and underscores that does not start with a digit.",
      data: { reason: "invalid_identifier", name },
    });
  }
  if ((family === "python" ? PYTHON_KEYWORDS : JS_KEYWORDS).has(name)) {
    throw new EngineError("rename_refused", `${JSON.stringify(name)} is a ${language} keyword or reserved word.`, {
      hint: "Choose another name; a keyword cannot name a symbol.",
      data: { reason: "keyword", name },
    });
  }
}
