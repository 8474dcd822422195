/**
 * How a context answer grows with its budget, on small fixtures: a long class ranked early never
 * pushes out the callees after it, no outline takes more than a fifth of the budget (a long class
 * shows the members that matter and counts the rest), and a seed that is a 1,000-line class still
 * answers a small budget.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { ContextAnswer } from "../../src/core/slice/context.ts";
import { memoryEngine } from "../support/platform.ts";

/** A class of `n` methods, each a few lines, with a docstring. */
function bigClass(name: string, n: number, doc: string): string {
  const methods = Array.from(
    { length: n },
    (_, i) =>
      `    def method_${i}(self, value: int, other: str = "x") -> int:\n        """Does step ${i} of the work."""\n        total = value + ${i}\n        return total\n`,
  );
  return `class ${name}:\n    """${doc}"""\n\n    def __init__(self, body):\n        self.body = body\n\n${methods.join("\n")}`;
}

/** A helper of about `lines` lines. */
function helper(name: string, lines: number): string {
  const body = Array.from({ length: lines }, (_, i) => `    x = x + ${i}  # step ${i} of ${name}`).join("\n");
  return `def ${name}(x):\n    """Helper ${name}."""\n${body}\n    return x\n`;
}

const client = {
  "http/models.py": bigClass("Response", 90, "An HTTP response: status, headers and a body read on demand."),
  "http/helpers.py": ["merge", "encode", "prepare", "check", "record"].map((n) => helper(n, 12)).join("\n\n"),
  "http/client.py": `from http.models import Response
from http.helpers import merge, encode, prepare, check, record


class Client:
    def send(self, request) -> Response:
        """Send a request and wrap the answer."""
        data = prepare(merge(request))
        check(encode(data))
        record(data)
        response = Response(data)
        return response.method_77(1)
`,
};

const shown = (a: ContextAnswer) => new Map(a.chunks.map((c) => [c.symbol, c]));

describe("context grows with the budget", () => {
  it("a long class ranked before the callees never pushes them out, nor turns them into outlines", async () => {
    const { engine } = memoryEngine(client);
    let before: ContextAnswer | undefined;
    for (const budget of [900, 1200, 1500, 1800, 2400, 3200, 4500, 8000]) {
      const a = await engine.context("Client.send", { budget });
      // Shown: as a chunk, or inside a chunk shown whole.
      const present = (c: ContextAnswer["chunks"][number]) =>
        a.chunks.some(
          (o) =>
            o.symbol === c.symbol || (o.form === "full" && o.path === c.path && o.start <= c.start && o.end >= c.end),
        );
      for (const c of before?.chunks ?? []) {
        expect(present(c), `${c.symbol} shown at ${before!.usage.budget}, not at ${budget}`).toBe(true);
        // A larger budget only upgrades: whole stays whole.
        if (c.form === "full")
          expect(
            shown(a).get(c.symbol)?.form ?? "full",
            `${c.symbol} whole at ${before!.usage.budget}, an outline at ${budget}`,
          ).toBe("full");
      }
      before = a;
    }
    // At 1,800 tokens: the seed and all five helpers; Response as an outline of a fifth of the budget at most.
    const a = await engine.context("Client.send", { budget: 1800 });
    for (const h of ["merge", "encode", "prepare", "check", "record"])
      expect(shown(a).has(`http.helpers.${h}`), h).toBe(true);
    const response = shown(a).get("http.models.Response");
    if (response) {
      expect(response.form).toBe("outline");
      expect(response.tokens).toBeLessThanOrEqual(1800 / 5);
    }
  });

  it("a long class's outline shows the members the seed calls and counts the rest", async () => {
    const { engine } = memoryEngine(client);
    const a = await engine.context("Client.send", { budget: 3200 });
    const response = shown(a).get("http.models.Response")!;
    expect(response.form).toBe("outline");
    expect(response.tokens).toBeLessThanOrEqual(3200 / 5);
    const text = a.text.slice(
      a.text.indexOf("[type] http.models.Response") >= 0
        ? a.text.indexOf("[type] http.models.Response")
        : a.text.indexOf("http.models.Response (outline)"),
    );
    expect(text).toContain("def method_77(");
    expect(text).toMatch(/# … \d+ more members/);
    expect(text).not.toContain("def method_60(");
  });

  it("a seed that is a 1,000-line class answers 600 tokens, by name and by words", async () => {
    const { engine } = memoryEngine({
      "store/registry.py": bigClass(
        "HandlerRegistry",
        250,
        "A registry of request handlers keyed by route and method.",
      ),
    });
    const byName = await engine.context("HandlerRegistry", { budget: 600 });
    expect(byName.chunks[0]).toMatchObject({ role: "seed", form: "outline" });
    expect(byName.usage.tokens).toBeLessThanOrEqual(600);
    expect(byName.text).toMatch(/# … \d+ more members/);
    expect(byName.text).toMatch(/Ask with budget ≥ \d+ for the full text|Read its lines for the full text/);
    const byWords = await engine.context("registry of request handlers keyed by route", { budget: 2000 });
    expect(byWords.seeds[0]!.qualified).toBe("store.registry.HandlerRegistry");
    expect(byWords.chunks[0]!.form).toBe("outline");
  });

  it("with an envelope, a brief outline's record costs its JSON and the whole stays within the budget", async () => {
    const { engine } = memoryEngine({
      "store/registry.py": bigClass(
        "HandlerRegistry",
        250,
        "A registry of request handlers keyed by route and method.",
      ),
    });
    const json = (v: unknown) => countTokens(JSON.stringify(v)) + 1;
    for (const budget of [600, 2000, 8000]) {
      const envelope = { fixed: 40, perRecord: 1 };
      const a = await engine.context("HandlerRegistry", { budget, envelope });
      expect(a.usage.tokens + a.usage.envelope!).toBeLessThanOrEqual(budget);
      const records = [...a.seeds, ...a.notes, ...a.chunks, ...a.cut.slice(0, a.cutListed)];
      expect(a.usage.envelope, `@ ${budget}`).toBe(envelope.fixed + records.reduce((n, r) => n + json(r), 0));
    }
  });

  it("the budget the seed's note names shows the seed whole", async () => {
    const body = Array.from({ length: 120 }, (_, i) => `    total += ${i}`).join("\n");
    const { engine } = memoryEngine({
      "big.py": `def big(n):\n    """Adds a lot."""\n    total = 0\n${body}\n    return total\n`,
    });
    const small = await engine.context("big", { budget: 400 });
    expect(small.chunks[0]!.form).toBe("outline");
    const asked = Number(/Ask with budget ≥ (\d+)/.exec(small.text)![1]);
    expect((await engine.context("big", { budget: asked })).chunks[0]!.form).toBe("full");
    expect((await engine.context("big", { budget: asked - 1 })).chunks[0]!.form).toBe("outline");
  });
});
