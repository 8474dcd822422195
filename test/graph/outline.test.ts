/** Outlines show a class's shape: attributes with their types and string defaults, fields set by its methods; files list their constants. */
import { describe, expect, it } from "vitest";
import { memoryEngine, parseFixture } from "../support/platform.ts";

const project = parseFixture(`#- app/config.py
API_PREFIX = "/api"
TIMEOUT = 30


class Settings:
    """Runtime settings."""

    API_V1_STR: str = f"{API_PREFIX}/v1"
    retries = 3

    def __init__(self, name: str):
        self.name: str = name

    def url(self, path):
        if not path.startswith("/"):
            path = "/" + path
        for attempt in range(self.retries):
            try:
                return self.API_V1_STR + path
            except ValueError:
                continue
        raise RuntimeError(f"could not build a URL for {path} after {self.retries} attempts")
#- web/box.ts
export const BASE = "/box";

export class Box {
  private readonly height: number;
  label: string = "box";
  constructor(public depth: number) {
    this.height = 2;
  }
  area(): number {
    return this.depth * this.height;
  }
}
`);

describe("outlines", () => {
  it("a Python class lists its attributes (type, string default) and the fields __init__ sets, before its methods", async () => {
    const { engine } = memoryEngine(project);
    const text = (await engine.signature("app.config.Settings")).text;
    const lines = text.split("\n").map((l) => l.trim());
    expect(lines).toContain('API_V1_STR: str = f"{API_PREFIX}/v1"');
    expect(lines).toContain("retries = ...");
    expect(lines).toContain("name: str");
    expect(lines.indexOf("retries = ...")).toBeLessThan(lines.findIndex((l) => l.startsWith("def url")));
  });

  it("a TypeScript class lists its fields and parameter properties", async () => {
    const { engine } = memoryEngine(project);
    const lines = (await engine.signature("web/box.ts#Box")).text.split("\n").map((l) => l.trim());
    expect(lines).toContain("height: number;");
    expect(lines).toContain("label: string;");
    expect(lines).toContain("depth: number;");
  });

  it("a file's outline starts with its constants", async () => {
    const { engine } = memoryEngine(project);
    // The smallest budget that holds the file: its outline.
    const needed = await engine.context("app/config.py", { budget: 1 }).then(
      () => { throw new Error("expected budget_too_small"); },
      (e: { code: string; data: { needed: number } }) => { expect(e.code).toBe("budget_too_small"); return e.data.needed; },
    );
    const answer = await engine.context("app/config.py", { budget: needed });
    const outline = answer.chunks.find((c) => c.path === "app/config.py");
    expect(outline?.form).toBe("outline");
    expect(answer.text).toContain('API_PREFIX = "/api"');
    expect(answer.text).toContain("TIMEOUT = …");
  });
});
