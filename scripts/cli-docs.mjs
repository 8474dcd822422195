#!/usr/bin/env node
// Writes docs/cli.md and the README's command table (between <!-- cli-table:start --> and
// <!-- cli-table:end -->) from the command table in src/cli/commands/, as built in dist/ (run
// `npm run docs:cli`, which builds first). `--check` writes nothing and exits 1 when either file
// differs from what the table gives; test/cli/cli-docs.test.ts checks the same from src/.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { cliMarkdown, withReadmeTable } = await import(new URL("../dist/cli/help.js", import.meta.url).href);
const { COMMANDS } = await import(new URL("../dist/cli/commands/index.js", import.meta.url).href);

const check = process.argv.includes("--check");
const files = {
  "docs/cli.md": () => cliMarkdown(COMMANDS),
  "README.md": (current) => withReadmeTable(current, COMMANDS),
};
let stale = 0;
for (const [file, make] of Object.entries(files)) {
  const path = `${root}${file}`;
  let current = "";
  try {
    current = readFileSync(path, "utf8");
  } catch {
    // docs/cli.md not written yet
  }
  const wanted = make(current);
  if (wanted === current) continue;
  stale++;
  if (check) console.error(`${file} differs from the command table: run \`npm run docs:cli\``);
  else {
    writeFileSync(path, wanted);
    console.log(`wrote ${file}`);
  }
}
process.exitCode = check && stale ? 1 : 0;
