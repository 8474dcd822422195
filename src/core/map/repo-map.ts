/** The repo map: languages, layout and the most referenced symbols, fitted to a token budget. */
import { languageById } from "../../languages/index.ts";
import { loadTokenCounter, type Encoding } from "../budget/tokenizer.ts";
import type { Snapshot } from "../engine/snapshot.ts";
import type { FileRecord } from "../extract/record.ts";

/** Options for the map. */
export interface RepoMapOptions {
  /** Token budget for the whole rendered map (default 2000). */
  budget?: number;
  encoding?: Encoding;
}

/** A symbol worth knowing about. */
export interface MapSymbol {
  path: string;
  line: number;
  end: number;
  kind: string;
  qualified: string;
  signature: string;
  references: number;
}

/** The map as data plus its rendering. */
export interface RepoMap {
  languages: { language: string; files: number; symbols: number }[];
  layout: { path: string; files: number; sourceFiles: number }[];
  symbols: MapSymbol[];
  text: string;
  tokens: number;
  budget: number;
  encoding: Encoding;
  /** Lines left out to fit the budget. */
  omitted: number;
}

/** Builds and renders the map within `budget` tokens. */
export async function buildRepoMap(snapshot: Snapshot, records: FileRecord[], options: RepoMapOptions = {}): Promise<RepoMap> {
  const budget = options.budget ?? 2000;
  const encoding = options.encoding ?? "o200k_base";
  const count = await loadTokenCounter(encoding);

  const langs = new Map<string, { files: number; symbols: number }>();
  for (const r of records) {
    const name = languageById(r.language)?.name ?? r.language;
    const e = langs.get(name) ?? { files: 0, symbols: 0 };
    e.files++;
    e.symbols += r.definitions.length;
    langs.set(name, e);
  }
  const languages = [...langs].map(([language, v]) => ({ language, ...v })).sort((a, b) => b.files - a.files);

  const dirs = new Map<string, { files: number; sourceFiles: number }>();
  for (const f of snapshot.files) {
    const parts = f.path.split("/");
    for (let depth = 1; depth <= Math.min(2, parts.length - 1); depth++) {
      const d = parts.slice(0, depth).join("/") + "/";
      const e = dirs.get(d) ?? { files: 0, sourceFiles: 0 };
      e.files++;
      if (f.language) e.sourceFiles++;
      dirs.set(d, e);
    }
  }
  const layout = [...dirs].map(([path, v]) => ({ path, ...v })).sort((a, b) => (a.path < b.path ? -1 : 1));

  // Reference counts by name; a name defined in several places shares its count (the graph
  // issue replaces this with resolved edges).
  const refs = new Map<string, number>();
  for (const r of records) {
    for (const c of r.calls) refs.set(c.name, (refs.get(c.name) ?? 0) + 1);
    for (const t of r.typeRefs) refs.set(t.name, (refs.get(t.name) ?? 0) + 1);
  }
  const defsByName = new Map<string, number>();
  for (const r of records) for (const d of r.definitions) defsByName.set(d.name, (defsByName.get(d.name) ?? 0) + 1);
  const symbols: MapSymbol[] = [];
  for (const r of records) {
    for (const d of r.definitions) {
      if (d.name.length < 3 || d.name.startsWith("_") || !d.exported) continue;
      const n = refs.get(d.name) ?? 0;
      if (n === 0) continue;
      symbols.push({
        path: r.path, line: d.start, end: d.end, kind: d.kind, qualified: d.qualified,
        signature: d.signature.split("\n")[0]!, references: Math.round(n / defsByName.get(d.name)!),
      });
    }
  }
  symbols.sort((a, b) => b.references - a.references || (a.path < b.path ? -1 : 1));

  const header = [
    `# Repo map (${snapshot.files.length} files, ${records.length} indexed)`,
    "",
    "## Languages",
    ...languages.map((l) => `- ${l.language}: ${l.files} files, ${l.symbols} symbols`),
    "",
  ];
  const layoutLines = ["## Layout", ...layout.map((d) => `${d.path.split("/").length > 2 ? "  " : ""}- ${d.path} ${d.files} files${d.sourceFiles ? ` (${d.sourceFiles} source)` : ""}`), ""];
  const symbolLines = ["## Most referenced symbols", ...symbols.slice(0, 200).map((s) => `- ${s.path}:${s.line}-${s.end} ${s.kind} ${s.qualified} (${s.references} refs): ${s.signature.slice(0, 160)}`)];

  // Fill in order, line by line; the final text is recounted and trimmed so it never exceeds the budget.
  const sections = [header, symbolLines.slice(0, 26), layoutLines, symbolLines.slice(26)];
  const lines: string[] = [];
  let used = 0;
  let omitted = 0;
  for (const section of sections) {
    for (const line of section) {
      const cost = count(line + "\n");
      if (used + cost <= budget) {
        lines.push(line);
        used += cost;
      } else omitted++;
    }
  }
  let text = lines.join("\n");
  let tokens = count(text);
  while (tokens > budget && lines.length > 0) {
    lines.pop();
    omitted++;
    text = lines.join("\n");
    tokens = count(text);
  }
  return { languages, layout, symbols: symbols.slice(0, 50), text, tokens, budget, encoding, omitted };
}
