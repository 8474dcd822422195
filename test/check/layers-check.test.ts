/**
 * `check` on this repository's own layers (codeslice.check.json) against test/layers.test.ts: the
 * same verdict on every import edge of src/, on the deliberately wrong arrows that test lists, a
 * deliberate bad import in a temp copy failing the CLI, and the SARIF of that run valid against
 * the SARIF 2.1.0 schema (the one @microsoft/jest-sarif ships, validated with Ajv's draft-04 class).
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import Ajv from "ajv-draft-04";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine, parseCheckConfig, type CheckAnswer, type CodeGraph } from "../../src/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { layerFinder, layerProblem } from "../../src/core/check/rules.ts";
import { arrowProblem } from "../layers.test.ts";
import { ensureCliBuilt, jsonOf, repoRoot, runCli, tempDirs } from "../support/cli.ts";

const temps = tempDirs("codeslice-check-layers-");
const config = parseCheckConfig(JSON.parse(fs.readFileSync(path.join(repoRoot, "codeslice.check.json"), "utf8")), {
  file: "codeslice.check.json",
});
const layerOf = layerFinder(config.layers!);

beforeAll(ensureCliBuilt, 300_000);
afterAll(temps.cleanup);

describe("check reproduces test/layers.test.ts", () => {
  let graph: CodeGraph;
  let answer: CheckAnswer;
  beforeAll(async () => {
    const platform = await createNodePlatform({ root: repoRoot, cacheDir: path.join(temps.make(), "cache") });
    const engine = createEngine(platform, { exclude: ["dist", "test", "playground", "scripts", "wasm"] });
    graph = await engine.codeGraph();
    answer = await engine.check();
  }, 300_000);

  it("finds no layer problem in src/, as the test does, over every import edge", () => {
    const edges = graph.imports.filter((e) => e.from.startsWith("src/") && e.to.startsWith("src/"));
    expect(edges.length).toBeGreaterThan(900);
    const disagree = edges.filter(
      (e) => (layerProblem(layerOf, e.from, e.to) === undefined) !== (arrowProblem(e.from, e.to) === undefined),
    );
    expect(disagree).toEqual([]);
    expect(answer.findings.filter((f) => f.rule === "layer")).toEqual([]);
    expect(answer.config.file).toBe("codeslice.check.json");
  });

  it("gives the test's verdict on its wrong and right arrows, and on every pair of layers", () => {
    const pairs: [string, string][] = [
      ["src/core/engine/engine.ts", "src/cli/main.ts"],
      ["src/core/graph/build.ts", "src/platform/node/node-store.ts"],
      ["src/languages/python/resolve.ts", "src/core/graph/model.ts"],
      ["src/shared/paths.ts", "src/core/engine/engine.ts"],
      ["src/mcp/server.ts", "src/core/engine/engine.ts"],
      ["src/mcp/server.ts", "src/cli/main.ts"],
      ["src/platform/node/node-store.ts", "src/core/engine/engine.ts"],
      ["src/platform/browser/index.ts", "src/worker/worker-host.ts"],
      ["src/cli/main.ts", "src/index.ts"],
      ["src/core/graph/build.ts", "src/languages/index.ts"],
    ];
    // The index leaves out the generated queries file (its ~100 KB of one-line strings read as
    // generated), so its arrows are checked here. One file per layer of the test, plus each public platform entry: every ordered pair.
    const samples = [
      "src/index.ts",
      "src/cli/main.ts",
      "src/mcp/server.ts",
      "src/worker/worker-host.ts",
      "src/core/ports.ts",
      "src/core/graph/build.ts",
      "src/platform/node/index.ts",
      "src/platform/deno/index.ts",
      "src/platform/browser/index.ts",
      "src/platform/memory/index.ts",
      "src/platform/node/node-store.ts",
      "src/platform/fallback-store.ts",
      "src/languages/queries.gen.ts",
      "src/languages/python/spec.ts",
      "src/shared/paths.ts",
    ];
    for (const a of samples) for (const b of samples) pairs.push([a, b]);
    const disagree = pairs.filter(
      ([a, b]) => (layerProblem(layerOf, a, b) === undefined) !== (arrowProblem(a, b) === undefined),
    );
    expect(disagree).toEqual([]);
    expect(pairs.filter(([a, b]) => layerProblem(layerOf, a, b)).length).toBeGreaterThan(100);
  });
});

describe("a deliberate bad import in a temp copy", () => {
  let root: string;
  beforeAll(() => {
    root = temps.make();
    fs.cpSync(path.join(repoRoot, "src"), path.join(root, "src"), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, "codeslice.check.json"), path.join(root, "codeslice.check.json"));
    const file = path.join(root, "src/core/graph/build.ts");
    fs.writeFileSync(
      file,
      `import { COMMANDS } from "../../cli/commands/index.ts";\n${fs.readFileSync(file, "utf8")}\nexport const leak = COMMANDS;\n`,
    );
  });

  it("fails check with the line linters print, exit 1", () => {
    const r = runCli(["check", "--root", root, "--quiet"], { timeout: 240_000 });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("src/core/graph/build.ts:1: layer: core imports cli (src/cli/commands/index.ts)");
    expect(r.stdout.trim().split("\n")).toHaveLength(2);
    expect(r.stdout).toMatch(/^1 finding: \d+ files/m);
  }, 240_000);

  it("writes SARIF 2.1.0 that validates against the schema, with the finding as a result", () => {
    const r = runCli(["check", "--root", root, "--quiet", "--format", "sarif"], { timeout: 240_000 });
    expect(r.status).toBe(1);
    const sarif = jsonOf<{
      version: string;
      runs: {
        results: {
          ruleId: string;
          locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
        }[];
      }[];
    }>(r);
    const schema = createRequire(import.meta.url)("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
    const validate = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false }).compile(schema);
    expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(sarif.runs[0]!.results).toHaveLength(1);
    expect(sarif.runs[0]!.results[0]!.ruleId).toBe("layer");
    expect(sarif.runs[0]!.results[0]!.locations[0]!.physicalLocation).toMatchObject({
      artifactLocation: { uri: "src/core/graph/build.ts" },
      region: { startLine: 1 },
    });
    // The validator can fail: a result without its message, a level SARIF does not have.
    const broken = structuredClone(sarif) as unknown as { runs: { results: Record<string, unknown>[] }[] };
    delete broken.runs[0]!.results[0]!.message;
    broken.runs[0]!.results[0]!.level = "fatal";
    expect(validate(broken)).toBe(false);
  }, 240_000);
});
