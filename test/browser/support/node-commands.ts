/**
 * Vitest browser commands: work the Chromium tests ask the Node side to do, registered in
 * vitest.browser.config.ts and called with `commands.<name>(…)` from `vitest/browser`.
 *
 * `cliArtifact` is a CI machine: it writes a project to a temp folder, runs the built Node CLI's
 * `codeslice index --export` on it and then each query (`--json`), and hands back the artifact
 * (base64, as command results cross as JSON) with what the CLI printed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { BrowserCommand } from "vitest/node";
import { ensureCliBuilt, jsonOf, runCli, tempDirs } from "../../support/cli.ts";

/** What {@link cliArtifact} returns. */
export interface CliArtifact {
  /** The artifact `index --export` wrote, base64. */
  artifact: string;
  /** `index --export --json`'s summary. */
  index: Record<string, unknown>;
  /** Each query's `--json` answer, in order. */
  answers: unknown[];
}

export const cliArtifact: BrowserCommand<[files: Record<string, string>, queries: string[][]]> = (_context, files, queries): CliArtifact => {
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
