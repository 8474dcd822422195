/**
 * Hostile shapes: nesting thousands deep, names 3,000 characters long. Extraction stays
 * linear (tree-sitter's parent and sibling steps cost a node's depth, so a walk up per definition
 * was cubic: 1,000 nested TS functions took 39 s) and names stay bounded and unique. Timings are
 * measured by `npm run bench -- hostile`; the bounds here only catch a return of the super-linear
 * cost, far above the measured times.
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

/** `depth` TypeScript functions, each nested in the previous one, each calling a helper. */
function nestedTs(depth: number): string {
  const open = Array.from({ length: depth }, (_, i) => `function f${i}(x${i}: number) { g${i}(x${i});`);
  return `${open.join("\n")}\nreturn 1;\n${"}\n".repeat(depth)}`;
}

/** `depth` Python functions, each nested in the previous one (one space per level). */
function nestedPy(depth: number): string {
  return `${Array.from({ length: depth }, (_, i) => `${" ".repeat(i)}def f${i}():`).join("\n")}\n${" ".repeat(depth)}return 1\n`;
}

describe("nesting thousands deep", () => {
  it("3,000 nested TypeScript functions index, answer, and keep bounded unique names", async () => {
    const { engine } = memoryEngine({ "deep.ts": nestedTs(3000) });
    const started = performance.now();
    const summary = await engine.index();
    const indexMs = performance.now() - started;
    expect(summary.symbols).toBe(3000);
    const records = await engine.records();
    const names = records[0]!.definitions.map((d) => d.qualified);
    expect(new Set(names).size).toBe(3000);
    expect(Math.max(...names.map((n) => n.length))).toBeLessThan(200);
    expect(names[2999]).toMatch(/^f0\.f1\.f2\.f3\.f4\.f5\.….*\.f2999$/);
    expect(records[0]!.calls).toHaveLength(3000);
    // The innermost call is attributed to the innermost function.
    expect(records[0]!.definitions[records[0]!.calls.at(-1)!.caller]!.name).toBe("f2999");
    const answer = await engine.context("f2999", { budget: 2000 });
    expect(answer.seeds[0]!.qualified).toBe(`deep.ts#${names[2999]}`);
    expect(indexMs).toBeLessThan(60_000); // cubic: > 240 s; linear: ~2 s on a shared 2-core machine
  }, 120_000);

  it("a Python chain 400 deep keeps names bounded; the innermost is a target by its own name", async () => {
    const { engine } = memoryEngine({ "deep.py": nestedPy(400) });
    const records = await engine.records();
    const defs = records[0]!.definitions;
    expect(defs).toHaveLength(400);
    expect(defs.every((d, i) => d.name === `f${i}` && d.parent === i - 1)).toBe(true);
    expect(Math.max(...defs.map((d) => d.qualified.length))).toBeLessThan(120);
    expect((await engine.signature("f399")).symbol.qualified).toMatch(/\.f399$/);
  }, 60_000);

  it("names 3,000 characters long are kept bounded, distinct and addressable", async () => {
    const long = (c: string) => `${"n".repeat(3000)}${c}`;
    const { engine } = memoryEngine({
      "names.py": `def ${long("a")}():\n    return 1\n\n\ndef ${long("b")}():\n    return ${long("a")}()\n`,
    });
    const defs = (await engine.records())[0]!.definitions;
    expect(defs).toHaveLength(2);
    expect(defs.every((d) => d.name.length <= 200)).toBe(true);
    expect(defs[0]!.name).not.toBe(defs[1]!.name);
    const callers = await engine.callers(defs[0]!.name);
    expect(callers.results.map((c) => c.qualified)).toEqual([`names.${defs[1]!.name}`]);
  }, 60_000);
});
