/**
 * EngineError: data typed per code (checked by compiling uses with the TypeScript API), hints that
 * name no front end (in the source of every hint below the front ends, and in the errors a real
 * engine throws), and data that crosses the Web Worker boundary unchanged. How each front end
 * words its advice is tested beside it (test/cli/hints.test.ts, test/mcp/errors.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { EngineError, isEngineError } from "../../src/shared/errors.ts";
import { fromWire, toWire } from "../../src/worker/worker-protocol.ts";
import { memoryEngine } from "../support/platform.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** A front end's words in a hint: a `codeslice …` command, a `--flag` (a runtime's `--allow-*` is the host's), an MCP tool name. */
const FRONT_END_WORDS =
  /codeslice (index|map|context|pack|search|callers|callees|importers|signature|graph|mcp)\b|(^|[\s`(])--(?!allow-)[a-z]|\b(read_snippet|repo_map)\b|\bcall (search|context|signature|pack)\b/;

/** Type errors of `source`, compiled as a file in test/shared against the real tsconfig options. */
function typeErrors(source: string): string[] {
  const file = path.join(repoRoot, "test/shared/__errors-typecheck.ts");
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(repoRoot, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )!;
  const host = ts.createCompilerHost(config.options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => (path.resolve(f) === file ? source : read(f));
  const exists = host.fileExists.bind(host);
  host.fileExists = (f) => path.resolve(f) === file || exists(f);
  const program = ts.createProgram([file], { ...config.options, noEmit: true, rootDir: repoRoot }, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("EngineError data is typed per code", () => {
  it("accepts each code's data shape, rejects a wrong one, and narrows data on the code", () => {
    const errors = typeErrors(`
      import { EngineError, isEngineError, type EngineErrorOf } from "../../src/shared/errors.ts";
      const ok = [
        new EngineError("unknown_symbol", "m", { data: { target: "x", suggestions: [{ qualified: "a.b", kind: "function", path: "a.py", line: 1 }] } }),
        new EngineError("budget_too_small", "m", { hint: "h", data: { budget: 5, needed: 90 } }),
        new EngineError("cancelled", "m"),
        new EngineError("io_error", "m", { hint: "h" }),
      ];
      // @ts-expect-error a target must be a string
      new EngineError("unknown_symbol", "m", { data: { target: 1 } });
      // @ts-expect-error budget_too_small needs the budget it needs
      new EngineError("budget_too_small", "m", { data: { budget: 5 } });
      // @ts-expect-error data is required where the code's data has required fields
      new EngineError("ambiguous_symbol", "m");
      // @ts-expect-error no such code
      new EngineError("no_such_code", "m");
      declare const e: unknown;
      if (isEngineError(e, "budget_too_small")) { const n: number = e.data.needed; void n; }
      declare const any: EngineErrorOf;
      if (any.code === "ambiguous_symbol") { const t: number = any.data.total; void t; }
      // @ts-expect-error without narrowing, data is any code's
      void any.data.needed;
      void ok;
    `);
    expect(errors).toEqual([]);
  });
});

/** Every `hint:` given to an EngineError under `dir`, as written in the source. */
function hintsIn(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const rel of fs.readdirSync(path.join(repoRoot, dir), { recursive: true }).map(String)) {
    if (!rel.endsWith(".ts")) continue;
    const file = path.join(dir, rel);
    const source = ts.createSourceFile(
      file,
      fs.readFileSync(path.join(repoRoot, file), "utf8"),
      ts.ScriptTarget.ES2022,
      true,
    );
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAssignment(node) && node.name.getText() === "hint")
        out.push({ file, text: node.initializer.getText() });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

describe("core hints name no front end", () => {
  it("in the source: no `codeslice …` command, no --flag, no MCP tool name in any hint below the front ends", () => {
    const hints = ["src/core", "src/shared", "src/platform"].flatMap(hintsIn);
    expect(hints.length).toBeGreaterThan(30);
    expect(hints.filter((h) => FRONT_END_WORDS.test(h.text)).map((h) => `${h.file}: ${h.text}`)).toEqual([]);
    // The checker sees front-end words where they are.
    expect(
      ["`codeslice search <words>`", "Check --root", "use read_snippet"].every((t) => FRONT_END_WORDS.test(t)),
    ).toBe(true);
  });

  it("in the errors an engine throws", async () => {
    const { engine } = memoryEngine({
      "shop/models.py":
        "class User:\n    def save(self):\n        return 1\n\n\nclass Order:\n    def save(self):\n        return 2\n",
      "shop/service.py":
        "from shop.models import User\n\n\ndef register(name):\n    user = User()\n    user.save()\n    return user\n",
    });
    const thrown = await Promise.all(
      [
        engine.signature("nothing_like_it"),
        engine.signature("registr"),
        engine.callers("save"),
        engine.context("register", { budget: 5 }),
        engine.map({ budget: 3 }),
        engine.context("register", { budget: 0 }),
        engine.callers("register", { depth: 99 }),
        engine.search("x", { limit: 0 }),
        engine.search("the of and"),
        engine.importers("shop/nope.py"),
        engine.snippet("../etc/passwd", 1, 2),
        engine.snippet("shop/service.py", 90, 95),
        engine.context("GET /nowhere"),
        memoryEngine({ "README.md": "# docs\n" }).engine.map(),
      ].map((p) =>
        (p as Promise<unknown>).then(
          () => undefined,
          (e: unknown) => e,
        ),
      ),
    );
    const codes = thrown.map((e) => (isEngineError(e) ? e.code : String(e)));
    expect(codes).toEqual([
      "unknown_symbol",
      "unknown_symbol",
      "ambiguous_symbol",
      "budget_too_small",
      "budget_too_small",
      "invalid_argument",
      "invalid_argument",
      "invalid_argument",
      "invalid_argument",
      "not_found",
      "outside_root",
      "invalid_argument",
      "unknown_symbol",
      "no_supported_files",
    ]);
    for (const e of thrown) if (isEngineError(e) && e.hint) expect(e.hint, e.code).not.toMatch(FRONT_END_WORDS);
    // The data front ends word their advice from.
    const [unknown, similar, ambiguous, small, mapSmall, budget, depth, limit] = thrown as EngineError[];
    expect(unknown!.data).toMatchObject({ target: "nothing_like_it" });
    expect(similar!.data).toMatchObject({
      target: "registr",
      suggestions: [expect.objectContaining({ qualified: "shop.service.register" })],
    });
    expect(ambiguous!.data).toMatchObject({ target: "save", total: 2 });
    expect(small!.data).toMatchObject({ budget: 5, needed: expect.any(Number) });
    expect(mapSmall!.data).toMatchObject({ budget: 3, needed: expect.any(Number) });
    expect(budget!.data).toMatchObject({ budget: 0, min: 1 });
    expect(depth!.data).toMatchObject({ depth: 99 });
    expect(limit!.data).toMatchObject({ limit: 0, min: 1, max: 200 });
  });
});

describe("the worker passes errors through", () => {
  it("keeps code, hint and data across postMessage", () => {
    const error = new EngineError("budget_too_small", "A budget of 5 tokens cannot hold the answer; it needs 90.", {
      hint: "A budget of at least 90 tokens holds it.",
      data: { budget: 5, needed: 90, seedTokens: 120 },
    });
    const back = fromWire(structuredClone(toWire(error)));
    expect(isEngineError(back, "budget_too_small")).toBe(true);
    expect(back).toMatchObject({
      code: "budget_too_small",
      hint: error.hint,
      data: error.data,
      message: error.message,
    });
  });
});
