/**
 * Vitest browser commands: work the Chromium tests ask the Node side to do, registered in
 * vitest.browser.config.ts and called with `commands.<name>(…)` from `vitest/browser`.
 *
 * `cliArtifact` is a CI machine: it writes a project to a temp folder, runs the built Node CLI's
 * `codeslice index --export` on it and then each query (`--json`), and hands back the artifact
 * (base64, as command results cross as JSON) with what the CLI printed.
 *
 * `lspGold` hands the browser language server's suite a project's files and the CLI's answers on
 * them (the stdio suite's comparison, test/lsp/agreement-core.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { BrowserCommand } from "vitest/node";
import { ensureCliBuilt, jsonOf, repoRoot, runCli, tempDirs } from "../../support/cli.ts";
import { goldFor, type Gold } from "../../lsp/agreement.ts";
import { parseFixture } from "../../support/fixture-text.ts";
import { FIXTURE } from "../../support/shop-fixture.ts";

/** What {@link cliArtifact} returns. */
export interface CliArtifact {
  /** The artifact `index --export` wrote, base64. */
  artifact: string;
  /** `index --export --json`'s summary. */
  index: Record<string, unknown>;
  /** Each query's `--json` answer, in order. */
  answers: unknown[];
}

export const cliArtifact: BrowserCommand<[files: Record<string, string>, queries: string[][]]> = (
  _context,
  files,
  queries,
): CliArtifact => {
  ensureCliBuilt();
  const temps = tempDirs("codeslice-browser-artifact-");
  try {
    const root = path.join(temps.make(), "project");
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    const out = path.join(path.dirname(root), "project.csidx");
    const index = jsonOf(runCli(["index", "--root", root, "--export", out, "--json", "--quiet"]));
    const answers = queries.map((q) => jsonOf(runCli([...q, "--root", root, "--json", "--quiet"])));
    return { artifact: fs.readFileSync(out).toString("base64"), index, answers };
  } finally {
    temps.cleanup();
  }
};

/** What {@link lspGold} returns: the project's files and the CLI's answers on them. */
export interface LspGold {
  files: Record<string, string>;
  gold: Gold;
}

/** The project a browser language server test runs on: the MCP suite's fixture, or a copy of this repository's src/. */
function lspProject(which: "fixture" | "src"): Record<string, string> {
  if (which === "fixture") return parseFixture(FIXTURE);
  const files: Record<string, string> = {};
  for (const rel of fs.readdirSync(path.join(repoRoot, "src"), { recursive: true }) as string[]) {
    const full = path.join(repoRoot, "src", rel);
    if (fs.statSync(full).isFile()) files[`src/${rel.split(path.sep).join("/")}`] = fs.readFileSync(full, "utf8");
  }
  return files;
}

/**
 * The CLI's answers for the language server's comparison (test/lsp/agreement-core.ts) on `which`:
 * the project written to a temp folder, `graph --json`, then `callers`, `callees`, `signature`,
 * `tests` and `search` for up to `sample` symbols, as the stdio suite asks them.
 */
export const lspGold: BrowserCommand<[which: "fixture" | "src", sample: number]> = (
  _context,
  which,
  sample,
): LspGold => {
  ensureCliBuilt();
  const temps = tempDirs("codeslice-browser-lsp-");
  try {
    const files = lspProject(which);
    const root = path.join(temps.make(), "project");
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    return { files, gold: goldFor(root, sample) };
  } finally {
    temps.cleanup();
  }
};
