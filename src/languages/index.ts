/** The language registry: every supported language, and lookup by file extension. */
import type { LanguageSpec } from "./types.ts";
import { python } from "./python/spec.ts";
import { typescript, tsx } from "./typescript/spec.ts";
import { javascript } from "./javascript/spec.ts";
import { go } from "./go/spec.ts";
import { java } from "./java/spec.ts";
import { rust } from "./rust/spec.ts";
import { c } from "./c/spec.ts";
import { cpp } from "./cpp/spec.ts";
import { csharp } from "./csharp/spec.ts";
import { ruby } from "./ruby/spec.ts";
import { php } from "./php/spec.ts";

export type { LanguageSpec, DocStyle, ExportStyle } from "./types.ts";

/** All languages, full-depth ones first. */
export const LANGUAGES: readonly LanguageSpec[] = [
  python, typescript, tsx, javascript,
  go, java, rust, c, cpp, csharp, ruby, php,
];

const byExtension = new Map<string, LanguageSpec>();
for (const lang of LANGUAGES) for (const ext of lang.extensions) byExtension.set(ext, lang);

/** The language for a file extension (lower-case, with the dot). */
export function languageForExtension(ext: string): LanguageSpec | undefined {
  return byExtension.get(ext);
}

/** The language by id. */
export function languageById(id: string): LanguageSpec | undefined {
  return LANGUAGES.find((l) => l.id === id);
}
