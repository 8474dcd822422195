/**
 * `changes` spends its budget on what a reader of the change needs (issue 24 item 1, "budget spent
 * well"), one fixture per shape in test/changes/fixtures/budget/<shape>/{base,head}: production code
 * before tests, new code the change depends on before the old code that calls it, and a changed
 * signature shown where the diff is with its unchanged body outlined. Real git repositories: the
 * base committed, the head written over the working tree.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures/budget");
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: os.tmpdir(),
};

/** The fixture's base committed, its head over the working tree; the changes answer at `budget`. */
async function changesOf(shape: string, budget: number) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-budget-")));
  temps.push(root);
  const git = (...args: string[]) => execFileSync("git", ["-C", root, ...args], { env: gitEnv, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  fs.cpSync(path.join(fixtures, shape, "base"), root, { recursive: true });
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  fs.cpSync(path.join(fixtures, shape, "head"), root, { recursive: true });
  const engine = createEngine(await createNodePlatform({ root, cacheDir: path.join(root, ".codeslice") }));
  try {
    return await engine.changes({ budget });
  } finally {
    engine.close();
  }
}

const isTest = (p: string) => p.startsWith("tests/");

describe("changes: the budget goes to production code and where the diff is", () => {
  it("production code first, tests after, though the tests changed a signature", async () => {
    const a = await changesOf("tests-after", 4000);
    const changed = a.chunks.filter((c) => c.role === "changed" || c.role === "added" || c.role === "removed");
    expect(changed.map((c) => c.symbol)).toContain("billing.invoice.total");
    const firstTest = changed.findIndex((c) => isTest(c.path));
    const lastProduction = changed.map((c) => isTest(c.path)).lastIndexOf(false);
    expect(firstTest).toBeGreaterThan(lastProduction);
    expect(changed[0]!.path).toBe("billing/invoice.py");
    // In the text too: the production diff comes before any test diff.
    expect(a.text.indexOf("## billing/invoice.py")).toBeLessThan(a.text.indexOf("## tests/test_invoice.py"));
    // Short of room, the production change is what stays.
    const tight = await changesOf("tests-after", 600);
    expect(tight.chunks.some((c) => c.symbol === "billing.invoice.total")).toBe(true);
  });

  it("a new class the changed code calls comes just before that code", async () => {
    const a = await changesOf("helper-first", 4000);
    const order = a.chunks.map((c) => c.symbol);
    const helper = order.findIndex((s) => s.endsWith("#CollectErrors"));
    const user = order.findIndex((s) => s.endsWith("#teardown"));
    expect(helper).toBeGreaterThanOrEqual(0);
    expect(user).toBeGreaterThanOrEqual(0);
    expect(helper).toBeLessThan(user);
    // The unrelated body changes come after both.
    for (const other of ["#start", "#stop", "#status"])
      expect(order.findIndex((s) => s.endsWith(other))).toBeGreaterThan(user);
  });

  it("a new parameter on a long function shows the signature, not its unchanged docstring and body", async () => {
    const a = await changesOf("long-signature", 4000);
    const serve = a.chunks.find((c) => c.symbol === "app.server.serve");
    expect(serve?.change).toBe("signature");
    // The whole definition is about 1,000 tokens; its changed lines and outline are a small part.
    expect(serve!.tokens).toBeLessThan(250);
    expect(a.text).toContain("+def serve(host, port, *, reload=False, workers=1, **options):");
    expect(a.text).not.toContain("option number 17");
    expect(a.text).not.toContain("settings['option_20']");
    // The unchanged rest is outlined: the nested definition's header stays, its body does not.
    expect(a.text).toContain(" def handle(connection):");
    expect(a.text).not.toContain("connection.reply(settings)");
    expect(a.text).toContain("⋯");
    // And the one call is checked: a new keyword with a default breaks nothing.
    expect(a.callSites.checked).toBe(1);
    expect(a.callSites.breaking).toEqual([]);
  });
});

describe("changes: a removal whose lines moved", () => {
  it("is shown by its header, pointing at where its lines went, so the moved code is not paid twice", async () => {
    const a = await changesOf("moved", 4000);
    const removed = a.chunks.find((c) => c.role === "removed" && c.symbol === "files.lazy.LazyFile");
    const added = a.chunks.find((c) => c.role === "added" && c.symbol === "files._lazy._LazyFile");
    expect(added?.form).toBe("full");
    expect(removed?.form).toBe("outline");
    expect(removed!.tokens).toBeLessThan(added!.tokens / 4);
    expect(a.text).toContain("its lines moved to files._lazy._LazyFile, files/_lazy.py:");
  });
});

describe("changes: a change to many definitions", () => {
  it("shows every changed definition, as its changed lines, before any one in full", async () => {
    const a = await changesOf("many", 2500);
    const shown = new Set(a.chunks.filter((c) => c.role === "changed").map((c) => c.symbol));
    for (let k = 0; k < 14; k++) expect(shown, `check_kind_${k}`).toContain(`rules.checks.check_kind_${k}`);
    expect(a.usage.tokens).toBeLessThanOrEqual(2500);
  });
});

describe("changes: definitions rewritten line by line", () => {
  it("outlines each by its header's diff, so all of them are in a small answer", async () => {
    const a = await changesOf("rewritten", 2000);
    const shown = a.chunks.filter((c) => c.role === "changed");
    for (let k = 0; k < 12; k++)
      expect(
        shown.map((c) => c.symbol),
        `transform_${k}`,
      ).toContain(`calc.ops.transform_${k}`);
    // An outline is the header's diff, not the whole rewritten body.
    const outline = shown.find((c) => c.form === "outline");
    expect(outline).toBeDefined();
    expect(outline!.tokens).toBeLessThan(100);
    expect(a.text).toContain("+def transform_11(value, offset=0):");
  });
});
