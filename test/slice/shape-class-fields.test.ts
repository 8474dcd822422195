/**
 * shape_check on a TypeScript class whose fields carry modifiers, a definite-assignment `!`, a `#private` name or no
 * annotation (`public readonly code;`, tRPC's TRPCError): each is a field of the model, and a rename of one lists
 * its reads. Before, only `name: Type;` lines without a modifier were fields, so TRPCError had "none of its own".
 */
import { describe, expect, it } from "vitest";
import { memoryEngine } from "../support/platform.ts";

const FILES = {
  "src/error.ts": `export class AppError extends Error {
  public override readonly cause?: Error;
  public readonly code;
  private retries: number;
  static count = 0;
  declare meta: Record<string, string>;
  handled!: boolean;
  #secret = "s";
  constructor(code: string) {
    super(code);
    this.code = code;
    this.retries = 0;
    this.handled = false;
  }
}
`,
  "src/report.ts": `import { AppError } from './error';

export function report(e: AppError): string {
  return e.code + String(e.handled) + String(e.cause);
}
`,
};

describe("shape_check on TypeScript class fields", () => {
  it("reads fields behind modifiers, with `!`, `#` or no annotation, and lists the reads of a renamed one", async () => {
    const { engine } = memoryEngine(FILES);
    const a = await engine.shapeCheck("AppError", { rename: ["code=kind"] });
    expect(a.models[0]!.fields.map((f) => f.name)).toEqual([
      "cause",
      "code",
      "retries",
      "count",
      "meta",
      "handled",
      "#secret",
    ]);
    expect(a.models[0]!.fields.find((f) => f.name === "retries")!.type).toBe("number");
    expect(a.breaks.map((b) => `${b.path}:${b.line} ${b.expression}`)).toEqual(["src/report.ts:4 e.code"]);
    // Statements of the constructor are no fields.
    expect(a.models[0]!.fields.map((f) => f.name)).not.toContain("super");
  }, 20_000);
});
