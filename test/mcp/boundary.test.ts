/**
 * Only src/mcp knows MCP and zod (STYLE habit 6): no other source file imports
 * `@modelcontextprotocol/sdk` or `zod`, statically or dynamically, so moving to another SDK
 * version touches one folder. Imports are read with TypeScript's pre-processor, so comments and
 * strings don't count; the checker is also run on a bad file so a checker that sees nothing fails.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support.ts";

const MCP_ONLY = [/^@modelcontextprotocol\/sdk(\/|$)/, /^zod(\/|$)/];

/** Module specifiers a source file imports (static, dynamic, re-exports, require). */
function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** "file -> module" for every MCP-only import outside src/mcp. */
function violations(files: { name: string; text: string }[]): string[] {
  const bad: string[] = [];
  for (const f of files) {
    if (f.name.startsWith("src/mcp/")) continue;
    for (const spec of importsOf(f.text)) if (MCP_ONLY.some((re) => re.test(spec))) bad.push(`${f.name} -> ${spec}`);
  }
  return bad;
}

function sourceFiles(): { name: string; text: string }[] {
  const src = path.join(repoRoot, "src");
  return (fs.readdirSync(src, { recursive: true }) as string[])
    .map((f) => `src/${f.split(path.sep).join("/")}`)
    .filter((f) => /\.(ts|tsx|mts|js|mjs)$/.test(f) && !f.endsWith(".d.ts"))
    .map((name) => ({ name, text: fs.readFileSync(path.join(repoRoot, name), "utf8") }));
}

describe("MCP boundary", () => {
  it("no source file outside src/mcp imports the MCP SDK or zod", () => {
    const files = sourceFiles();
    expect(files.some((f) => f.name.startsWith("src/mcp/"))).toBe(true);
    expect(violations(files)).toEqual([]);
  });

  it("the checker catches static, dynamic and re-export imports, and ignores comments", () => {
    const bad = [
      { name: "src/core/a.ts", text: `import { z } from "zod";` },
      { name: "src/cli/b.ts", text: `const m = await import("@modelcontextprotocol/sdk/server/mcp.js");` },
      { name: "src/index2.ts", text: `export * from "zod/v4";` },
      { name: "src/ok.ts", text: `// import { z } from "zod";\nconst s = "zod";` },
      { name: "src/mcp/fine.ts", text: `import { z } from "zod";` },
    ];
    expect(violations(bad)).toEqual([
      "src/core/a.ts -> zod",
      "src/cli/b.ts -> @modelcontextprotocol/sdk/server/mcp.js",
      "src/index2.ts -> zod/v4",
    ]);
  });

  it("the SDK and zod are runtime dependencies at the versions PLATFORM.md names", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies["@modelcontextprotocol/sdk"]).toMatch(/1\.32\.2$/);
    expect(pkg.dependencies.zod).toMatch(/4\.6\.7$/);
  });
});
