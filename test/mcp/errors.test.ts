/**
 * The MCP server words its own way out of an engine error: tools, their parameters and the
 * server's own options, from the error's code and data (the engine's hints are neutral). Errors
 * come from a real engine; assertions are on the names and numbers a text must carry.
 */
import { describe, expect, it } from "vitest";
import { engineErrorText } from "../../src/mcp/errors.ts";
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

describe("MCP error texts", () => {
  it("name the tool to call and the parameter to change", async () => {
    const small = await thrown(engine.context("register", { budget: 5 }));
    const needed = (small as EngineError<"budget_too_small">).data.needed;
    expect(engineErrorText(small, "context")).toContain(`Call context again with budget ≥ ${needed}`);
    expect(engineErrorText(await thrown(engine.map({ budget: 3 })), "repo_map")).toMatch(
      /Call repo_map again with budget ≥ \d+/,
    );
    expect(engineErrorText(await thrown(engine.signature("nothing_like_it")), "signature")).toMatch(
      /Call search with a few words/,
    );
    const similar = engineErrorText(await thrown(engine.signature("registr")), "signature");
    expect(similar).toContain("- shop.service.register (function, shop/service.py:4)");
    expect(similar).toContain("Call signature again");
    expect(engineErrorText(await thrown(engine.callers("save")), "callers")).toMatch(
      /matches 2 symbols:[\s\S]*Call callers again/,
    );
    expect(engineErrorText(await thrown(engine.snippet("shop/service.py", 90, 95)), "read_snippet")).toMatch(
      /start_line from 1 to \d+/,
    );
    expect(engineErrorText(await thrown(engine.snippet("../etc/passwd", 1, 2)), "read_snippet")).toContain(
      "read_snippet reads only files inside the project root",
    );
    expect(engineErrorText(new EngineError("root_not_found", "gone", { data: { root: "/x" } }), "context")).toContain(
      "restart the codeslice MCP server with --root",
    );
    expect(
      engineErrorText(
        new EngineError("memory_limit", "big", {
          data: { what: "graph", neededMiB: 900, usedMiB: 100, limitMiB: 512, suggestedMiB: 1100 },
        }),
        "context",
      ),
    ).toContain("NODE_OPTIONS=--max-old-space-size=2048");
  });

  it("never give CLI advice (codeslice commands, CLI flags)", async () => {
    const errors = await Promise.all([
      thrown(engine.context("register", { budget: 5 })),
      thrown(engine.signature("nothing_like_it")),
      thrown(engine.importers("shop/nope.py")),
      thrown(engine.snippet("../etc/passwd", 1, 2)),
      thrown(engine.callers("register", { depth: 99 })),
      thrown(engine.search("the of and")),
    ]);
    for (const e of errors)
      expect(engineErrorText(e, "context"), e.code).not.toMatch(
        /codeslice (search|context|signature|map)|--(budget|depth|limit|json)\b/,
      );
  });
});
