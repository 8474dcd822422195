/**
 * Outlines show a class's shape: attributes with their types and string defaults, fields set by its
 * methods; files list their constants. Those names are targets too: a field, an enum member or a
 * module constant seeds its class or its lines, with a note saying what the name is.
 */
import { describe, expect, it } from "vitest";
import { errorOf, memoryEngine, parseFixture } from "../support/platform.ts";

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
#- svc/server.go
package svc

type Server struct {
	Addr string
	Port int
}

func (s *Server) Run() string { return s.Addr }
#- web/box.ts
export const BASE = "/box";
export enum Shape { Square = "square", Round }

export class Box {
  private readonly height: number;
  label: string = "box";
  private spare;
  constructor(public depth: number) {
    this.height = 2;
    this.kind = Shape.Square;
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
      () => {
        throw new Error("expected budget_too_small");
      },
      (e: { code: string; data: { needed: number } }) => {
        expect(e.code).toBe("budget_too_small");
        return e.data.needed;
      },
    );
    const answer = await engine.context("app/config.py", { budget: needed });
    const outline = answer.chunks.find((c) => c.path === "app/config.py");
    expect(outline?.form).toBe("outline");
    expect(answer.text).toContain('API_PREFIX = "/api"');
    expect(answer.text).toContain("TIMEOUT = …");
  });

  it("a TypeScript class lists untyped fields, and an enum its members", async () => {
    const { engine } = memoryEngine(project);
    const box = (await engine.signature("web/box.ts#Box")).text.split("\n").map((l) => l.trim());
    expect(box).toContain("spare;");
    expect(box).toContain("kind;");
    const shape = (await engine.signature("web/box.ts#Shape")).text.split("\n").map((l) => l.trim());
    expect(shape).toEqual(expect.arrayContaining(["Square,", "Round,"]));
  });
});

describe("fields, enum members and constants as targets", () => {
  const seeds = async (target: string) => {
    const { engine } = memoryEngine(project);
    const a = await engine.context(target, { budget: 2000 });
    return { seeds: a.seeds.map((s) => s.qualified), chunk: a.chunks[0]!, notes: a.notes.join("\n") };
  };

  it("Class.field (class-level, set in a method, TS field, parameter property) seeds the class and says where the field is set", async () => {
    const lineOf = (path: string, needle: string) =>
      project[path]!.split("\n").findIndex((l) => l.includes(needle)) + 1;
    for (const [target, owner, path, needle] of [
      ["Settings.retries", "app.config.Settings", "app/config.py", "retries = 3"],
      ["app.config.Settings.name", "app.config.Settings", "app/config.py", "self.name: str"],
      ["Box.label", "web/box.ts#Box", "web/box.ts", "label: string"],
      ["Box.spare", "web/box.ts#Box", "web/box.ts", "private spare"],
      ["web/box.ts#Box.depth", "web/box.ts#Box", "web/box.ts", "public depth"],
    ] as const) {
      const a = await seeds(target);
      expect(a.seeds, target).toEqual([owner]);
      expect(a.notes, target).toContain(`field of class ${owner}, set at ${path}:${lineOf(path, needle)}`);
    }
  });

  it("an enum member seeds its enum; a Go struct field its struct", async () => {
    expect((await seeds("Shape.Round")).seeds).toEqual(["web/box.ts#Shape"]);
    expect((await seeds("Shape.Round")).notes).toMatch(/member of enum/);
    expect((await seeds("Server.Port")).seeds).toEqual(["svc/server.go#Server"]);
    expect((await seeds("Server.Port")).notes).toContain("svc/server.go:5");
  });

  it("a module constant, bare or through its module or path, seeds the lines that set it", async () => {
    for (const target of ["TIMEOUT", "config.TIMEOUT", "app.config.TIMEOUT", "app/config.py::TIMEOUT"]) {
      const a = await seeds(target);
      expect(a.chunk.role, target).toBe("seed");
      expect(a.chunk.path, target).toBe("app/config.py");
      expect(a.chunk.start, target).toBeLessThanOrEqual(2);
      expect(a.chunk.end, target).toBeGreaterThanOrEqual(2);
      expect(a.notes, target).toContain(
        `module-level value, set at app/config.py:${project["app/config.py"]!.split("\n").indexOf("TIMEOUT = 30") + 1}`,
      );
    }
    expect((await seeds("BASE")).chunk.path).toBe("web/box.ts");
  });

  it("a member the owner does not hold is an unknown symbol naming what it holds, not a missing file", async () => {
    const { engine } = memoryEngine(project);
    const e = await errorOf(engine.context("Server.Host"));
    expect(e.code).toBe("unknown_symbol");
    expect(e.message).toContain("svc/server.go#Server has no member named");
    expect((e.data as { suggestions: { qualified: string }[] }).suggestions.map((s) => s.qualified)).toEqual(
      expect.arrayContaining(["svc/server.go#Server.Addr", "svc/server.go#Server.Port"]),
    );
  });
});
