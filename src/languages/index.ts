/** The language registry: every supported language, and lookup by file extension. */
import type { LanguageSpec } from "./types.ts";
import { extname } from "../shared/paths.ts";
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
import { kotlin } from "./kotlin/spec.ts";

export type { LanguageSpec, DocStyle, ExportStyle } from "./types.ts";

/** All languages, full-depth ones first. */
export const LANGUAGES: readonly LanguageSpec[] = [
  python, typescript, tsx, javascript,
  go, java, kotlin, rust, c, cpp, csharp, ruby, php,
];

const byExtension = new Map<string, LanguageSpec>();
for (const lang of LANGUAGES) for (const ext of lang.extensions) byExtension.set(ext, lang);

/** The language for a file extension (lower-case, with the dot). */
export function languageForExtension(ext: string): LanguageSpec | undefined {
  return byExtension.get(ext);
}

/**
 * The language of each file of a project. An extension two languages share (`.h`: C and C++) is
 * its owner's, unless a language that claims it (`sharedExtensions`) has more source files in the
 * project than the owner has files of its other extensions: a project of `.cc` files and no `.c`
 * ones writes its headers in C++.
 */
export function languagesForProject(paths: Iterable<string>): (path: string) => LanguageSpec | undefined {
  const counts = new Map<string, number>();
  const claimed = new Set(LANGUAGES.flatMap((l) => l.sharedExtensions ?? []));
  for (const p of paths) {
    const ext = extname(p).toLowerCase();
    const lang = byExtension.get(ext);
    if (lang && !claimed.has(ext)) counts.set(lang.id, (counts.get(lang.id) ?? 0) + 1);
  }
  const override = new Map<string, LanguageSpec>();
  for (const lang of LANGUAGES) {
    for (const ext of lang.sharedExtensions ?? []) {
      const owner = byExtension.get(ext);
      if (owner && owner !== lang && (counts.get(lang.id) ?? 0) > (counts.get(owner.id) ?? 0)) override.set(ext, lang);
    }
  }
  return (path) => {
    const ext = extname(path).toLowerCase();
    return override.get(ext) ?? byExtension.get(ext);
  };
}

/** The language by id. */
export function languageById(id: string): LanguageSpec | undefined {
  return LANGUAGES.find((l) => l.id === id);
}
