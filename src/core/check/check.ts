/**
 * `check`: the structural rules of a project's check config run over its code graph, as findings in the linters' shape.
 */
import type { CodeGraph } from "../graph/model.ts";
import type { CheckConfig, CheckConfigSource } from "./config.ts";
import { runRules, type CheckFinding, type CheckIO, type CheckRuleId } from "./rules.ts";

/** What each rule checks, for help, SARIF's rule list and the answer. */
export const CHECK_RULES: Record<CheckRuleId, string> = {
  layer: "An import from one layer into a layer it may not import",
  "forbidden-import": "An import the config forbids between two sets of files",
  "import-cycle": "Files that import each other in a cycle",
  "no-callers": "An exported top-level definition nothing calls, imports by name, uses as a type or subclasses",
  "deprecated-call": "A call into a definition marked deprecated (decorator, JSDoc @deprecated, DeprecationWarning)",
  "file-size": "A file over the configured lines or bytes",
};

/** Which config key turns each rule on. */
const RULE_KEYS: [keyof CheckConfig, CheckRuleId][] = [
  ["layers", "layer"],
  ["forbid", "forbidden-import"],
  ["cycles", "import-cycle"],
  ["noCallers", "no-callers"],
  ["deprecated", "deprecated-call"],
  ["fileSize", "file-size"],
];

/** The answer to check. */
export interface CheckAnswer {
  /** Where the config was read from. */
  config: CheckConfigSource;
  /** The rules the config turns on. */
  rules: CheckRuleId[];
  /** Every finding, by path, line and rule. */
  findings: CheckFinding[];
  /** Findings per rule (every rule turned on, 0 included). */
  counts: Partial<Record<CheckRuleId, number>>;
  /** Files in the graph. */
  files: number;
  /** Import edges checked. */
  imports: number;
  /** One `path:line: rule: message` line per finding, then a summary line. */
  text: string;
}

/** Runs the config's rules over `graph`. */
export async function runCheck(
  graph: CodeGraph,
  config: CheckConfig,
  source: CheckConfigSource,
  io: CheckIO,
): Promise<CheckAnswer> {
  const findings = await runRules(graph, config, io);
  const rules = RULE_KEYS.filter(([key]) => config[key] !== undefined).map(([, id]) => id);
  const counts: Partial<Record<CheckRuleId, number>> = {};
  for (const r of rules) counts[r] = 0;
  for (const f of findings) counts[f.rule] = (counts[f.rule] ?? 0) + 1;
  const answer = {
    config: source,
    rules,
    findings,
    counts,
    files: graph.moduleSymbol.size,
    imports: graph.imports.length,
  };
  return { ...answer, text: checkText(answer) };
}

/** The findings as linters print them, then one summary line. */
export function checkText(a: Omit<CheckAnswer, "text">, shown = a.findings.length): string {
  const lines = a.findings.slice(0, shown).map((f) => `${f.path}:${f.line}: ${f.rule}: ${f.message}`);
  if (shown < a.findings.length) lines.push(`… ${a.findings.length - shown} more findings`);
  const where = `${a.config.file}${a.config.key ? ` (${a.config.key})` : ""}`;
  const per = a.rules.map((r) => `${r} ${a.counts[r] ?? 0}`).join(", ");
  lines.push(
    `${a.findings.length === 0 ? "ok" : `${a.findings.length} finding${a.findings.length === 1 ? "" : "s"}`}: ` +
      `${a.files} files, ${a.imports} imports checked against ${where}${per ? ` (${per})` : " (no rule turned on)"}`,
  );
  return lines.join("\n");
}

/** Percent-encodes a relative path for a URI, segment by segment. */
function relativeUri(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/**
 * The answer as a SARIF 2.1.0 log: one run, the rules as the driver's rules, each finding a result
 * (level error) at its file and line relative to `%SRCROOT%`, the files it names as related locations.
 */
export function toSarif(a: CheckAnswer, tool: { version: string; informationUri?: string }): Record<string, unknown> {
  const ids = Object.keys(CHECK_RULES) as CheckRuleId[];
  const location = (path: string, line: number) => ({
    physicalLocation: {
      artifactLocation: { uri: relativeUri(path), uriBaseId: "%SRCROOT%" },
      region: { startLine: Math.max(1, line) },
    },
  });
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "codeslice",
            version: tool.version,
            ...(tool.informationUri ? { informationUri: tool.informationUri } : {}),
            rules: ids.map((id) => ({
              id,
              name: id.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase()),
              shortDescription: { text: CHECK_RULES[id] },
              defaultConfiguration: { level: "error" },
            })),
          },
        },
        results: a.findings.map((f) => ({
          ruleId: f.rule,
          ruleIndex: ids.indexOf(f.rule),
          level: "error",
          message: { text: f.message },
          locations: [location(f.path, f.line)],
          ...(f.related?.length
            ? { relatedLocations: f.related.map((r, id) => ({ id, ...location(r.path, r.line) })) }
            : {}),
        })),
        columnKind: "utf16CodeUnits",
      },
    ],
  };
}
