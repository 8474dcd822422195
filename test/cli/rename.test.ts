/**
 * `codeslice rename` as a user runs it, and the MCP tool as a real client calls it over stdio:
 * the preview writes nothing, --apply/apply with the preview's token writes the edits, a file
 * changed in between is refused with nothing written, and refusals exit 1 with their code.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, ensureCliBuilt, jsonOf, runCli } from "../support/cli.ts";
import { listedTool } from "../../src/mcp/tool-list.ts";
import { renameTool } from "../../src/mcp/tools/rename.ts";

const FILES: Record<string, string> = {
  "src/util.ts": "export function slugify(s: string): string {\n  return s.toLowerCase();\n}\n",
  "src/index.ts": 'export { slugify } from "./util.js";\n',
  "src/app.ts": 'import { slugify } from "./index.js";\n\nexport const title = slugify("Hello"); // slugify it\n',
};

const temps: string[] = [];
beforeAll(ensureCliBuilt, 300_000);
afterAll(() => temps.forEach((t) => fs.rmSync(t, { recursive: true, force: true })));

function project(): { root: string; read: () => Record<string, string> } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-rename-cli-"));
  temps.push(root);
  for (const [p, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), text);
  }
  return {
    root,
    read: () => Object.fromEntries(Object.keys(FILES).map((p) => [p, fs.readFileSync(path.join(root, p), "utf8")])),
  };
}

describe("codeslice rename", () => {
  it("previews without writing, then applies the preview's token", () => {
    const p = project();
    const text = runCli(["rename", "slugify", "toSlug", "--root", p.root, "--quiet"]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/src\/util\.ts:1:17 {2}definition/);
    expect(text.stdout).toMatch(/src\/index\.ts:1:10 {2}re-export/);
    expect(text.stdout).toMatch(/Mentions in strings and comments \(1/);
    expect(p.read()).toEqual(FILES);
    const plan = jsonOf<{ planToken: string; edits: unknown[] }>(
      runCli(["rename", "slugify", "toSlug", "--root", p.root, "--quiet", "--json"]),
    );
    expect(text.stdout).toContain(`planToken: ${plan.planToken}`);
    expect(plan.edits).toHaveLength(4); // definition, re-export, import, call: the comment is a mention
    const applied = runCli(["rename", "slugify", "toSlug", "--root", p.root, "--quiet", "--apply", plan.planToken]);
    expect(applied.status).toBe(0);
    expect(applied.stdout).toMatch(/Wrote 4 edits in 3 files/);
    expect(p.read()).toEqual({
      "src/util.ts": "export function toSlug(s: string): string {\n  return s.toLowerCase();\n}\n",
      "src/index.ts": 'export { toSlug } from "./util.js";\n',
      "src/app.ts": 'import { toSlug } from "./index.js";\n\nexport const title = toSlug("Hello"); // slugify it\n',
    });
  });

  it("refuses to apply when a file changed after the preview, writing nothing", () => {
    const p = project();
    const plan = jsonOf<{ planToken: string }>(
      runCli(["rename", "slugify", "toSlug", "--root", p.root, "--quiet", "--json"]),
    );
    fs.appendFileSync(path.join(p.root, "src/app.ts"), "export const other = 1;\n");
    const before = p.read();
    const r = runCli(["rename", "slugify", "toSlug", "--root", p.root, "--quiet", "--json", "--apply", plan.planToken]);
    expect(r.status).toBe(1);
    const error = jsonOf<{ error: { code: string; hint: string; data: { changed: string[] } } }>(r).error;
    expect(error).toMatchObject({ code: "plan_stale", data: { changed: ["src/app.ts"] } });
    expect(error.hint).toMatch(/codeslice rename <symbol> <new-name>.*--apply/);
    expect(p.read()).toEqual(before);
  });

  it("exits 1 with the refusal's code for a keyword or a collision", () => {
    const p = project();
    const keyword = runCli(["rename", "slugify", "class", "--root", p.root, "--quiet", "--json"]);
    expect(keyword.status).toBe(1);
    expect(jsonOf<{ error: { code: string; data: { reason: string } } }>(keyword).error).toMatchObject({
      code: "rename_refused",
      data: { reason: "keyword" },
    });
    const collision = runCli(["rename", "slugify", "title", "--root", p.root, "--quiet", "--json"]);
    expect(jsonOf<{ error: { data: { reason: string } } }>(collision).error.data.reason).toBe("collision");
    expect(p.read()).toEqual(FILES);
  });
});

describe("the rename MCP tool", () => {
  it("lists within 140 tokens and says it writes", () => {
    const entry = listedTool(renameTool as never);
    expect(countTokens(JSON.stringify(entry))).toBeLessThanOrEqual(140);
    expect(entry.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it("previews, applies only the token a preview produced, over stdio with a real client", async () => {
    const p = project();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, "mcp", "--root", p.root],
      stderr: "pipe",
    });
    const client = new Client({ name: "codeslice-rename-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const call = async (args: Record<string, unknown>) =>
        (await client.callTool({ name: "rename", arguments: args })) as {
          isError?: boolean;
          content: { text: string }[];
          structuredContent?: Record<string, unknown>;
        };
      const preview = await call({ symbol: "slugify", new_name: "toSlug" });
      expect(preview.isError).toBeFalsy();
      const token = preview.structuredContent!.planToken as string;
      expect(preview.content[0]!.text).toContain(`plan_token: ${token}`);
      expect(p.read()).toEqual(FILES);
      const forged = await call({ symbol: "slugify", new_name: "toSlug", apply: "f".repeat(32) });
      expect(forged.isError).toBe(true);
      expect(forged.content[0]!.text).toMatch(/No rename preview made the plan token/);
      expect(forged.content[0]!.text).toMatch(/Call rename again without apply/);
      expect(p.read()).toEqual(FILES);
      const applied = await call({ symbol: "slugify", new_name: "toSlug", apply: token });
      expect(applied.isError).toBeFalsy();
      expect(applied.structuredContent).toMatchObject({ applied: true, counts: { edits: 4, files: 3 } });
      expect(p.read()["src/index.ts"]).toBe('export { toSlug } from "./util.js";\n');
    } finally {
      await client.close();
    }
  }, 120_000);
});
