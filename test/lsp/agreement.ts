/**
 * The comparison of test/lsp/agreement-core.ts on a project folder: the CLI's answers come from
 * test/lsp/cli-batch.mjs (one process for every command line), the lines from the files on disk.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { repoRoot } from "../support/cli.ts";
import {
  answersPerSymbol,
  cliLinesFor,
  compareWithCli,
  pickSymbols,
  type Agreement,
  type Gold,
  type GraphJson,
  type LineOf,
  type LspClient,
} from "./agreement-core.ts";

export type { Agreement, Gold } from "./agreement-core.ts";

/** Runs CLI command lines in one process (test/lsp/cli-batch.mjs); each answer's stdout parsed as JSON. */
function cliBatch(lines: string[][]): unknown[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-lsp-cli-"));
  try {
    fs.writeFileSync(path.join(dir, "in.json"), JSON.stringify(lines));
    const r = spawnSync(
      process.execPath,
      [path.join(repoRoot, "test/lsp/cli-batch.mjs"), path.join(dir, "in.json"), path.join(dir, "out.json")],
      { encoding: "utf8", maxBuffer: 1 << 28 },
    );
    if (r.status !== 0) throw new Error(`cli-batch failed: ${r.stderr.slice(0, 2000)}`);
    const out = JSON.parse(fs.readFileSync(path.join(dir, "out.json"), "utf8")) as {
      status: number;
      stdout: string;
      argv: string[];
    }[];
    return out.map((o) => (o.status === 0 ? JSON.parse(o.stdout) : { error: o.argv.join(" ") }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads lines of the files under `root`, each file once. */
export function linesUnder(root: string): LineOf {
  const lines = new Map<string, string[]>();
  return (file, n) => {
    let l = lines.get(file);
    if (!l) lines.set(file, (l = fs.readFileSync(path.join(root, file), "utf8").split("\n")));
    return l[n - 1] ?? "";
  };
}

/** The CLI's answers on `root` for up to `sample` symbols. */
export function goldFor(root: string, sample = 50): Gold {
  const rootArgs = ["--root", root];
  const [graph] = cliBatch([["graph", "--json", ...rootArgs]]) as [GraphJson];
  const symbols = pickSymbols(graph, linesUnder(root), sample);
  return {
    definitions: graph.definitions,
    symbols,
    answers: answersPerSymbol(cliBatch(cliLinesFor(symbols, rootArgs)), symbols.length),
  };
}

/** Compares the server on `root` with the CLI, at up to `sample` symbols. */
export function checkAgreement(s: LspClient, root: string, sample = 50): Promise<Agreement> {
  return compareWithCli(s, goldFor(root, sample), linesUnder(root));
}
