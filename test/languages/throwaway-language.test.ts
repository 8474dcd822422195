/**
 * Adding a language is its folder plus one registry line: a throwaway language, built here from
 * its spec alone and registered, is indexed by the scan, named by the map (its manifest as a
 * service, its command decorator as an entry point), left out of search words by its keywords,
 * fenced by its tag, its resolver's config re-read, and its test runner allowed, with no table in
 * core or the front ends edited. Removing it takes all of that back.
 */
import { afterEach, describe, expect, it } from "vitest";
import { python } from "../../src/languages/python/spec.ts";
import { registerLanguage, type LanguageSpec } from "../../src/languages/index.ts";
import { STOP_WORDS, termsOf } from "../../src/core/extract/words.ts";
import { CONFIG_FILE } from "../../src/core/engine/inputs.ts";
import { allowedArgv } from "../../src/core/evidence/run-command.ts";
import { fence } from "../../src/mcp/render.ts";
import { memoryEngine } from "../support/platform.ts";

/** A language no one writes: Python's grammar and query under another id, extension and ecosystem. */
const snake: LanguageSpec = {
  ...python,
  id: "snake",
  name: "Snake",
  extensions: [".snk"],
  fence: "snake",
  manifests: { "den.toml": /^pit\s*=\s*"([^"]+)"/m },
  keywords: ["slither"],
  commandDecorators: /^@hiss\b/,
  testFrameworks: ["snaketest"],
  testRunners: [{ name: "snake test", matches: (a) => a[0] === "snake" && a[1] === "test" }],
  resolver: { ...python.resolver!, configs: /(^|\/)den\.lock$/ },
};

const PROJECT = {
  "den.toml": 'pit = "burrow"\n',
  "den.lock": "{}\n",
  "app/serve.snk": "@hiss\ndef coil_server():\n    return shed_skin()\n\n\ndef shed_skin():\n    return 1\n",
};

let unregister: (() => void) | undefined;
afterEach(() => {
  unregister?.();
  unregister = undefined;
});

describe("a throwaway language, from its spec and one registry entry", () => {
  it("is indexed, mapped, searched and rendered by what its spec says", async () => {
    expect(STOP_WORDS.has("slither")).toBe(false);
    expect(CONFIG_FILE.test("den.lock")).toBe(false);
    unregister = registerLanguage(snake);

    const { engine } = memoryEngine(PROJECT);
    const summary = await engine.index();
    expect(summary.byLanguage.Snake).toMatchObject({ files: 1, symbols: 2 });

    const map = await engine.map({ budget: 2000 });
    expect(map.services).toEqual([expect.objectContaining({ path: "", manifest: "den.toml", name: "burrow" })]);
    expect(map.entryPoints).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ symbol: expect.stringContaining("coil_server"), kind: "handler" }),
      ]),
    );

    const hits = await engine.search("shed skin");
    expect(hits[0]).toMatchObject({ qualified: expect.stringContaining("shed_skin") });
    expect(STOP_WORDS.has("slither")).toBe(true);
    expect(termsOf("slither_coil")).toEqual(["coil", "slithercoil"]);

    expect(fence("app/serve.snk", "x")).toBe("```snake\nx\n```");
    expect(CONFIG_FILE.test("den.lock")).toBe(true);
    expect(allowedArgv("snake test app")).toEqual({ argv: ["snake", "test", "app"], runner: "snake test" });
    engine.close();
  });

  it("is gone again once removed, and an id already taken is refused", () => {
    expect(() => registerLanguage({ ...snake, id: "python" })).toThrow(/already registered/);
    const remove = registerLanguage(snake);
    remove();
    expect(STOP_WORDS.has("slither")).toBe(false);
    expect(fence("app/serve.snk", "x")).toBe("```\nx\n```");
    expect(() => allowedArgv("snake test")).toThrow();
  });
});
