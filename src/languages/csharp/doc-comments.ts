/**
 * C#'s XML doc comments as the text a reader wants (`LanguageSpec.docText`): `/// <summary>Reads a token.</summary>`
 * is `Reads a token.`; a reference keeps its name (`<see cref="JsonReader"/>` is `JsonReader`, `<paramref
 * name="x"/>` is `x`), a parameter's and the return value's text are labelled (`x: …`, `Returns: …`), every other tag
 * is dropped with the blank lines it leaves, and the XML escapes are read.
 */

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** The text of a C# doc comment without its XML tags (markers already removed). */
export function csharpDocText(text: string): string {
  if (!text.includes("<")) return text;
  return text
    .replace(/<(?:see|seealso)\s+(?:cref|href|langword)\s*=\s*"(?:[A-Z]:)?([^"]*)"\s*\/>/g, "$1")
    .replace(/<(?:paramref|typeparamref)\s+name\s*=\s*"([^"]*)"\s*\/>/g, "$1")
    .replace(/<(?:param|typeparam)\s+name\s*=\s*"([^"]*)"\s*>/g, "$1: ")
    .replace(/<returns>/g, "Returns: ")
    .replace(/<\/?[A-Za-z][^>]*>/g, "")
    .replace(/&(lt|gt|amp|quot|apos);/g, (_m, e: string) => ENTITIES[e]!)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join("\n")
    .trim();
}
