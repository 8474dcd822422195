/**
 * The CLI words its own way out of an engine error: its flags and commands, from the error's code
 * and data (the engine's hints are neutral). Errors come from a real engine; assertions are on
 * the flags, commands and numbers a hint must carry.
 */
import { describe, expect, it } from "vitest";
import { cliHint } from "../../src/cli/output.ts";
import { LIMITS } from "../../src/core/limits.ts";
import { EngineError, isEngineError } from "../../src/shared/errors.ts";
import { memoryEngine } from "../support/platform.ts";

const { engine } = memoryEngine({
  "shop/models.py":
    "class User:\n    def save(self):\n        return 1\n\n\nclass Order:\n    def save(self):\n        return 2\n",
  "shop/service.py":
    "from shop.models import User\n\n\ndef register(name):\n    user = User()\n    user.save()\n    return user\n",
});

async function thrown(p: Promise<unknown>): Promise<EngineError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isEngineError(e)) throw new Error(`expected an EngineError, got ${String(e)}`);
  return e;
}

describe("CLI hints", () => {
  it("name the CLI's flags and commands for each way out", async () => {
    const small = await thrown(engine.context("register", { budget: 5 }));
    expect(small.code).toBe("budget_too_small");
    expect(cliHint(small, "context")).toContain(
      `codeslice context with --budget ${(small as EngineError<"budget_too_small">).data.needed}`,
    );

    expect(cliHint(await thrown(engine.signature("nothing_like_it")), "signature")).toContain(
      "codeslice search <words>",
    );
    expect(cliHint(await thrown(engine.signature("registr")), "signature")).toContain("shop.service.register");
    expect(cliHint(await thrown(engine.callers("save")), "callers")).toMatch(
      /codeslice callers with one of shop\.models\.(User|Order)\.save/,
    );
    expect(cliHint(await thrown(engine.callers("register", { depth: 99 })), "callers")).toBe(
      `--depth takes a whole number from ${LIMITS.depth.min} to ${LIMITS.depth.max}.`,
    );
    expect(cliHint(await thrown(engine.search("x", { limit: 0 })), "search")).toContain(
      `--limit takes a whole number from ${LIMITS.searchResults.min} to ${LIMITS.searchResults.max}`,
    );
    expect(cliHint(await thrown(engine.context("register", { budget: 0 })), "context")).toContain(
      `--budget takes a whole number from ${LIMITS.budget.min} to ${LIMITS.budget.max}`,
    );
    expect(cliHint(await thrown(memoryEngine({ "README.md": "# docs\n" }).engine.map()), "map")).toContain(
      "--root DIR",
    );
    expect(cliHint(new EngineError("root_not_found", "gone", { data: { root: "/x" } }), "index")).toContain(
      "--root DIR",
    );
    expect(
      cliHint(
        new EngineError("memory_limit", "big", {
          data: { what: "graph", neededMiB: 900, usedMiB: 100, limitMiB: 512, suggestedMiB: 1100 },
        }),
      ),
    ).toContain("--max-old-space-size=2048");
    expect(cliHint(await thrown(engine.grep("x", { maxMatches: 0 })), "grep")).toBe(
      `--max-matches takes a whole number from ${LIMITS.grep.matches.min} to ${LIMITS.grep.matches.max}.`,
    );
    expect(cliHint(await thrown(engine.grep("x", { timeMs: 1 })), "grep")).toContain("--time-ms");
    expect(cliHint(await thrown(engine.grep("save(", {})), "grep")).toContain(
      "codeslice grep with the pattern fixed at column 5",
    );
    expect(cliHint(await thrown(engine.grep("x", { paths: ["../up"] })), "grep")).toContain("--paths");
    expect(
      cliHint(new EngineError("cache_refused", "no", { data: { cacheDir: "/x", reason: "not_empty" } })),
    ).toContain("--cache-dir");
  });

  it("never give MCP advice (tool names, tool parameters)", async () => {
    const errors = await Promise.all([
      thrown(engine.context("register", { budget: 5 })),
      thrown(engine.signature("nothing_like_it")),
      thrown(engine.importers("shop/nope.py")),
      thrown(engine.snippet("../etc/passwd", 1, 2)),
      thrown(engine.snippet("shop/service.py", 90, 95)),
    ]);
    for (const e of errors)
      expect(cliHint(e, "context") ?? "", e.code).not.toMatch(
        /read_snippet|repo_map|start_line|budget ≥|\bcall (search|context|signature)\b/,
      );
  });
});
