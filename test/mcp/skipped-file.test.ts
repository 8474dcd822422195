/**
 * A file the index skipped (a binary image) named to read_snippet answers as context and the other
 * target tools do: the same message (it is in the project, skipped, and why), the same error code
 * with the reason in its data, and the same next step. read_snippet said "not a project file in the
 * index (missing, ignored, or skipped)" and sent the reader to check the path.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/core/engine/engine.ts";
import { errorOf, memoryPlatform } from "../support/platform.ts";
import { call, connect, removeTemps } from "./support.ts";

afterAll(removeTemps);

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const files = () => ({ "app/util.py": "def helper():\n    return 1\n", "assets/logo.png": PNG });

describe("a skipped file named to read_snippet", () => {
  it("gets context's message, code and next step", async () => {
    const platform = memoryPlatform(files());
    const engine = createEngine(platform);
    const snippet = await errorOf(engine.snippet("assets/logo.png", 1, 5));
    const context = await errorOf(engine.context("assets/logo.png"));
    expect(snippet.code).toBe(context.code);
    expect(snippet.data).toMatchObject({ path: "assets/logo.png", skipped: "binary" });
    expect(snippet.message).toBe(context.message);

    const c = await connect(createEngine(memoryPlatform(files())));
    try {
      const read = await call(c.client, "read_snippet", { path: "assets/logo.png", start_line: 1, end_line: 5 });
      const ctx = await call(c.client, "context", { target: "assets/logo.png" });
      expect(read.isError).toBe(true);
      expect(ctx.isError).toBe(true);
      expect(read.text).toBe(ctx.text);
    } finally {
      await c.close();
    }
  });
});
