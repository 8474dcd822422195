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

/** The registry: adding a language is one line here (its spec, from its own folder). */
const registry: LanguageSpec[] = [
  python,
  typescript,
  tsx,
  javascript,
  go,
  java,
  kotlin,
  rust,
  c,
  cpp,
  csharp,
  ruby,
  php,
];

/** All languages, full-depth ones first. */
export const LANGUAGES: readonly LanguageSpec[] = registry;

const byExtension = new Map<string, LanguageSpec>();
let version = 0;

function reindex(): void {
  byExtension.clear();
  for (const lang of LANGUAGES) for (const ext of lang.extensions) byExtension.set(ext, lang);
  version++;
}
reindex();

/**
 * Adds a language that lives outside this package (an embedder's, or a test's throwaway one) and
 * returns the function that removes it again. Everything derived from the registry follows (see
 * `fromLanguages`). An id already registered is refused.
 */
export function registerLanguage(spec: LanguageSpec): () => void {
  if (languageById(spec.id)) throw new Error(`a language with id "${spec.id}" is already registered`);
  registry.push(spec);
  reindex();
  return () => {
    const at = registry.indexOf(spec);
    if (at >= 0) registry.splice(at, 1);
    reindex();
  };
}

/** A value computed from the registered languages, computed again only when the registry changes. */
export function fromLanguages<T>(compute: (languages: readonly LanguageSpec[]) => T): () => T {
  let at = -1;
  let value: T;
  return () => {
    if (at !== version) {
      value = compute(LANGUAGES);
      at = version;
    }
    return value;
  };
}

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

/** The manifests every language declares, by file name (see LanguageSpec.manifests). */
const manifests = fromLanguages((langs) => new Map(langs.flatMap((l) => Object.entries(l.manifests ?? {}))));

/**
 * The manifest a file is, by its name: whether it is one, and the pattern whose group 1 names its
 * package (for a `*.suffix` manifest, the name is the file's own name without the suffix).
 */
export function manifestOf(fileName: string): { name: (text: string) => string | undefined } | undefined {
  const table = manifests();
  if (table.has(fileName)) {
    const pattern = table.get(fileName);
    return { name: (text) => pattern?.exec(text)?.[1] };
  }
  for (const key of table.keys()) {
    if (key.startsWith("*") && fileName.endsWith(key.slice(1)))
      return { name: () => fileName.slice(0, fileName.length - key.length + 1) };
  }
  return undefined;
}

/** The keywords of every language (LanguageSpec.keywords), lower-case. */
export const allKeywords = fromLanguages(
  (langs) => new Set(langs.flatMap((l) => l.keywords ?? []).map((k) => k.toLowerCase())),
);

/** The config files every language's module resolution reads (ModuleResolver.configs). */
export const allResolverConfigs = fromLanguages((langs) =>
  langs.map((l) => l.resolver?.configs).filter((r): r is RegExp => r !== undefined),
);

/** Whether `decorator` makes a definition of `language` an entry point (LanguageSpec.commandDecorators). */
export function isCommandDecorator(language: string, decorator: string): boolean {
  return languageById(language)?.commandDecorators?.test(decorator) ?? false;
}

/** Whether method `name` in `file` is a command its file names (LanguageSpec.commandFiles: Django's `handle`). */
export function isCommandFileMethod(language: string, file: string, name: string): boolean {
  const rule = languageById(language)?.commandFiles;
  return rule !== undefined && name === rule.method && rule.path.test(file);
}

/** Fence tags of text formats that are no language of the index. */
const DATA_FENCES: Record<string, string> = {
  ".json": "json",
  ".md": "markdown",
  ".toml": "toml",
  ".yaml": "yaml",
  ".yml": "yaml",
  ".sh": "bash",
};

/**
 * The Markdown fence tag for a file, by its extension: its language's (`fenceByExtension`, `fence`, id), a text
 * format's, or "".
 */
export function fenceTag(path: string): string {
  const ext = `.${path.slice(path.lastIndexOf(".") + 1).toLowerCase()}`;
  const lang = languageForExtension(ext);
  if (lang) return lang.fenceByExtension?.[ext] ?? lang.fence ?? lang.id;
  return DATA_FENCES[ext] ?? "";
}
