/**
 * The minified-file rule tells a bundle from hand-written source with long string literals: a
 * Java table packed into one 30k-character literal (the shape of jsoup's EntitiesData.java) is
 * indexed; a one-line bundle, long in code, is still skipped as minified.
 */
import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { memoryPlatform } from "../support/platform.ts";

const packed = Array.from({ length: 3000 }, (_, i) => `n${i}=${i.toString(36)};`).join("&");
const TABLE_JAVA = [
  "package org.example.nodes;",
  "",
  "/** Entity name=value pairs, packed. */",
  "class PackedData {",
  "    static final String points;",
  "",
  "    static {",
  `        points = "${packed}";`,
  "    }",
  "",
  "    static int size() {",
  "        return points.length();",
  "    }",
  "}",
  "",
].join("\n");

const BUNDLE_JS = Array.from({ length: 2000 }, (_, i) => `function f${i}(a){return a+"k${i}"}`).join(";");

describe("minified or source", () => {
  it("a source file whose length is one string literal is indexed; a one-line bundle is skipped", async () => {
    expect(TABLE_JAVA.length).toBeGreaterThan(20_000);
    expect(BUNDLE_JS.length).toBeGreaterThan(20_000);
    const engine = createEngine(memoryPlatform({ "PackedData.java": TABLE_JAVA, "web/app.js": BUNDLE_JS }));
    const summary = await engine.index();
    const skipped = Object.fromEntries(summary.skipped.map((s) => [s.path, s.reason]));
    expect(skipped["web/app.js"]).toBe("minified");
    expect(skipped["PackedData.java"]).toBeUndefined();
    const record = (await engine.records()).find((r) => r.path === "PackedData.java");
    expect(record?.definitions.map((d) => d.name)).toEqual(expect.arrayContaining(["PackedData", "size"]));
  });
});
