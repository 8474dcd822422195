/**
 * docs/cli.md and the README's command table are generated from the command table
 * (`npm run docs:cli`); this fails when either says something the table does not.
 */
import * as fs from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { cliMarkdown, README_MARKERS, readmeTable, withReadmeTable } from "../../src/cli/help.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const read = (file: string) => fs.readFileSync(`${repoRoot}${file}`, "utf8");

describe("generated CLI docs", () => {
  it("docs/cli.md is what the command table gives (npm run docs:cli rewrites it)", () => {
    expect(read("docs/cli.md")).toBe(cliMarkdown(COMMANDS));
  });

  it("the README's cli-table block is what the command table gives", () => {
    const readme = read("README.md");
    const block = readme.slice(
      readme.indexOf(README_MARKERS.start) + README_MARKERS.start.length,
      readme.indexOf(README_MARKERS.end),
    );
    expect(readme).toContain(README_MARKERS.start);
    expect(block.trim()).toBe(readmeTable(COMMANDS).trim());
    expect(withReadmeTable(readme, COMMANDS)).toBe(readme);
  });

  it("every command, argument and flag shows up in docs/cli.md", () => {
    const doc = cliMarkdown(COMMANDS);
    for (const c of COMMANDS) {
      expect(doc).toContain(`## ${c.name}\n`);
      for (const a of c.args ?? []) expect(doc, `${c.name} <${a.name}>`).toContain(`<${a.name}>`);
      for (const f of Object.values(c.flags)) expect(doc, `${c.name} --${f.name}`).toContain(`--${f.name}`);
      for (const e of c.examples) expect(doc).toContain(e);
    }
  });
});
