/** Human-readable renderings of engine answers for the terminal. */
import { cite, type IndexSummary, type SearchHit } from "../index.ts";
import { quoted } from "../shared/quote.ts";

const fmt = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** The `codeslice index` summary. */
export function renderIndexSummary(s: IndexSummary): string {
  const lines: string[] = [];
  lines.push(
    `Indexed ${s.root} (${s.scanMode === "git" ? "git-aware" : "folder walk"}) ` +
      `in ${(s.durationMs / 1000).toFixed(2)} s`,
  );
  lines.push(`  ${fmt(s.files)} files, ${fmt(s.sourceFiles)} in supported languages, ${fmt(s.symbols)} symbols`);
  lines.push(
    `  parsed ${fmt(s.parsed)}, reused ${fmt(s.reused)} from the cache` +
      (s.removed ? `, ${fmt(s.removed)} removed` : ""),
  );
  lines.push("", "By language:");
  for (const [lang, v] of Object.entries(s.byLanguage).sort((a, b) => b[1].files - a[1].files)) {
    lines.push(`  ${lang.padEnd(12)} ${fmt(v.files).padStart(7)} files ${fmt(v.symbols).padStart(9)} symbols`);
  }
  if (s.skipped.length) {
    lines.push("", `Skipped ${fmt(s.skipped.length)} files:`);
    for (const [reason, n] of Object.entries(s.skippedByReason))
      lines.push(`  ${reason.replace(/_/g, " ")}: ${fmt(n!)}`);
    for (const f of s.skipped.slice(0, 10))
      lines.push(`    ${f.path} (${f.reason.replace(/_/g, " ")}${f.detail ? `: ${f.detail}` : ""})`);
    if (s.skipped.length > 10) lines.push(`    … ${fmt(s.skipped.length - 10)} more (--json lists all)`);
  }
  if (s.syntaxErrors.length) {
    lines.push("", `Indexed partially (syntax errors) ${fmt(s.syntaxErrors.length)} files:`);
    for (const f of s.syntaxErrors.slice(0, 10))
      lines.push(`    ${f.path} (${f.count} error${f.count > 1 ? "s" : ""})`);
    if (s.syntaxErrors.length > 10) lines.push(`    … ${fmt(s.syntaxErrors.length - 10)} more (--json lists all)`);
  }
  lines.push("", `Index stored in ${s.store}`);
  return lines.join("\n");
}

/** search results for the terminal. */
export function renderSearch(query: string, hits: SearchHit[]): string {
  // (quoted back at most 80 characters long, as locate and context do)
  const shown = quoted(query.length > 80 ? `${query.slice(0, 80)}…` : query);
  if (hits.length === 0) return `No symbols match ${shown}.`;
  const lines = [`${hits.length} result${hits.length > 1 ? "s" : ""} for ${shown}:`];
  for (const h of hits)
    lines.push(
      `  ${cite(h.path, h.line, h.end)}  ${h.kind} ${h.qualified}  (${h.score}; ${h.matched.join(", ")})\n      ` +
        `${h.signature}`,
    );
  return lines.join("\n");
}
