/**
 * A target that names a file the scan kept out of the index (a binary, a file over the size limit, a
 * lockfile) gets an error that says so, with the reason, from every answer that takes a target. Found on
 * tRPC (tryit6): `context www/static/logos/Documenso.png` said only "is not an indexed source file",
 * `impact`/`tests`/`signature` of it said "No symbol named …, did you mean …#setupPingInterval.pong?", and
 * `context pnpm-lock.yaml` (1.4 MB, over the limit) "No symbol named".
 */
import { describe, expect, it } from "vitest";
import type { Engine } from "../../src/index.ts";
import { cliHint } from "../../src/cli/output.ts";
import { errorOf, memoryEngine } from "../support/platform.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

function project(): Engine {
  return memoryEngine(
    {
      "app/main.py": "def main():\n    return helper()\n\n\ndef helper():\n    return 1\n",
      "static/logo.png": PNG,
      "data/big.py": `x = 1\n${"# padding line\n".repeat(200)}`,
      "poetry.lock": '[[package]]\nname = "requests"\n',
    },
    { maxFileBytes: 1000 },
  ).engine;
}

describe("a target that names a file the index skipped", () => {
  const cases: [string, (e: Engine, target: string) => Promise<unknown>][] = [
    ["context", (e, t) => e.context(t)],
    ["impact", (e, t) => e.impact(t)],
    ["tests", (e, t) => e.tests(t)],
    ["signature", (e, t) => e.signature(t)],
    ["callers", (e, t) => e.callers(t)],
    ["importers", (e, t) => e.importers(t)],
  ];

  it.each(cases)("%s: says the file was skipped and why", async (_name, ask) => {
    const engine = project();
    await engine.index();
    const binary = await errorOf(ask(engine, "static/logo.png"));
    expect(binary.code).toBe("not_found");
    expect(binary.data).toMatchObject({ path: "static/logo.png", skipped: "binary" });
    const large = await errorOf(ask(engine, "data/big.py"));
    expect(large.data).toMatchObject({ path: "data/big.py", skipped: "too_large" });
    const lock = await errorOf(ask(engine, "./poetry.lock"));
    expect(lock.data).toMatchObject({ path: "poetry.lock", skipped: "lockfile" });
  });

  it("the CLI's way out: --max-file-bytes for a file over the limit, a source file or symbol for a binary", async () => {
    const engine = project();
    await engine.index();
    expect(cliHint(await errorOf(engine.context("data/big.py")), "context")).toContain("--max-file-bytes");
    const binary = cliHint(await errorOf(engine.impact("static/logo.png")), "impact");
    expect(binary).toContain("codeslice search");
    expect(binary).not.toMatch(/Did you mean/);
  });

  it("trace names the skipped one of its two ends; other errors stay as they were", async () => {
    const engine = project();
    await engine.index();
    const trace = await errorOf(engine.trace("app/main.py::main", "static/logo.png"));
    expect(trace.data).toMatchObject({ path: "static/logo.png", skipped: "binary" });
    const typo = await errorOf(engine.context("app/main.py::mian"));
    expect(typo.code).toBe("unknown_symbol");
    const missing = await errorOf(engine.context("static/nothing.png"));
    expect(missing.data).not.toHaveProperty("skipped");
  });
});
