/** Which new names a rename accepts: identifiers of the symbol's language (its RenameRules), never a keyword. */
import type { LanguageSpec } from "../../languages/types.ts";
import { EngineError } from "../../shared/errors.ts";
import { quoted } from "../../shared/quote.ts";

/** Longest new name accepted: longer is a mistake (a pasted text), not a name. */
export const MAX_NAME_CHARS = 200;

/**
 * Throws `rename_refused` (`invalid_identifier` or `keyword`) when `name` cannot name a symbol in
 * `spec`'s language.
 */
export function checkNewName(name: string, spec: LanguageSpec): void {
  const rules = spec.rename!;
  if (name.length > MAX_NAME_CHARS) {
    throw new EngineError(
      "rename_refused",
      `The new name is ${name.length} characters long; at most ${MAX_NAME_CHARS} are accepted.`,
      {
        hint: "Give a shorter name.",
        data: { reason: "invalid_identifier", name: `${name.slice(0, 40)}…` },
      },
    );
  }
  if (!rules.identifier.test(name)) {
    throw new EngineError("rename_refused", `${quoted(name)} is not a valid ${spec.name} identifier.`, {
      hint: "Give a name of letters, digits and underscores that does not start with a digit.",
      data: { reason: "invalid_identifier", name },
    });
  }
  if (rules.keywords.has(name)) {
    throw new EngineError("rename_refused", `${quoted(name)} is a ${spec.name} keyword or reserved word.`, {
      hint: "Choose another name; a keyword cannot name a symbol.",
      data: { reason: "keyword", name },
    });
  }
}
