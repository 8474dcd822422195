/**
 * Conventions of the JavaScript test runners (Vitest, Jest, Mocha): tests are `it`/`test` calls,
 * groups are `describe`/`suite` calls, titles are their string-literal first arguments, and a
 * test's full name — what `-t` / `--grep` match — is the group titles and its own joined by spaces.
 */
import type { AllowedRunner, TestCallSite, TestCase, TestConventions, TestToRun } from "../types.ts";
import { escapeRegExp, shellQuote, stringLiteral } from "../testing.ts";

const FILE = /\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)__tests__\//;
const TEST = new Set(["it", "test", "specify"]);
const GROUP = new Set(["describe", "suite", "context"]);
/**
 * `it.only(…)`, `describe.skip(…)`, `test.concurrent(…)`: the call's name is the modifier, its receiver the function.
 */
const MODIFIERS = new Set(["only", "skip", "concurrent", "todo", "fails", "sequential", "skipIf", "runIf"]);

function roleOf(c: TestCallSite): "test" | "group" | undefined {
  const head =
    c.receiver !== undefined && MODIFIERS.has(c.name)
      ? c.receiver.split(".")[0]!
      : c.receiver === undefined
        ? c.name
        : undefined;
  if (head === undefined) return undefined;
  return TEST.has(head) ? "test" : GROUP.has(head) ? "group" : undefined;
}

/** Commands for one runner: named tests filtered by a full-name pattern, whole files without one. */
function commands(run: string, filter: string, tests: readonly TestToRun[]): string[] {
  const out: string[] = [];
  const files = (ts: readonly TestToRun[]) => [...new Set(ts.map((t) => shellQuote(t.path)))].join(" ");
  const whole = tests.filter((t) => t.file);
  const named = tests.filter((t) => !t.file);
  if (named.length) {
    // A test's id is its whole full name; a group's id is the start of its tests' full names.
    const names = [...new Set(named.map((t) => `${escapeRegExp(t.id)}${t.group ? " " : "$"}`))];
    const pattern = `^(${names.join("|")})`;
    out.push(`${run} ${files(named)} ${filter} ${shellQuote(pattern)}`);
  }
  if (whole.length) out.push(`${run} ${files(whole)}`);
  return out;
}

export const jsTests: TestConventions = {
  file: FILE,
  testAt(site) {
    if (!FILE.test(site.path)) return undefined;
    // The test calls whose span holds the site, outermost first (calls are in file order).
    const around = site.calls.filter(
      (c) => c.end !== undefined && c.line <= site.line && c.end >= site.line && roleOf(c) !== undefined,
    );
    const titles: string[] = [];
    let innermost: TestCase | undefined;
    for (const c of around) {
      const title = stringLiteral(c.args?.[0]);
      if (title === undefined) break; // a computed title: the enclosing group is the most we can name
      titles.push(title);
      const role = roleOf(c)!;
      innermost = { id: titles.join(" "), start: c.line, end: c.end!, ...(role === "group" ? { group: true } : {}) };
      if (role === "test") break;
    }
    return innermost;
  },
  runners: [
    {
      id: "vitest",
      name: "Vitest",
      detect: [
        { file: /(^|\/)(vitest|vite)\.(config|workspace)\.[cm]?[jt]s$/ },
        { file: /(^|\/)package\.json$/, contains: /\bvitest\b/ },
      ],
      commands: (tests) => commands("npx vitest run", "-t", tests),
    },
    {
      id: "jest",
      name: "Jest",
      detect: [
        { file: /(^|\/)jest\.config\.[cm]?[jt]s(on)?$/ },
        { file: /(^|\/)package\.json$/, contains: /"jest"|\bjest\b/ },
      ],
      commands: (tests) => commands("npx jest", "-t", tests),
    },
    {
      id: "mocha",
      name: "Mocha",
      detect: [{ file: /(^|\/)\.mocharc(\.[a-z]+)?$/ }, { file: /(^|\/)package\.json$/, contains: /\bmocha\b/ }],
      commands: (tests) => commands("npx mocha", "--grep", tests),
    },
  ],
};

/** The JavaScript and TypeScript test commands `runTests` may start. */
export const JS_TEST_RUNNERS: readonly AllowedRunner[] = [
  {
    name: "npm/pnpm/yarn test",
    matches: (a) => /^(npm|pnpm|yarn)$/.test(a[0] ?? "") && (a[1] === "test" || (a[1] === "run" && a[2] === "test")),
  },
  { name: "vitest", matches: (a) => a[0] === "vitest" || (a[0] === "npx" && a[1] === "--no" && a[2] === "vitest") },
  { name: "jest", matches: (a) => a[0] === "jest" || (a[0] === "npx" && a[1] === "--no" && a[2] === "jest") },
];
