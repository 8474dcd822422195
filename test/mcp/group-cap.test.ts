/**
 * A group served in process (memory platforms, the real MCP Client): the cross-repository callers
 * that `impact` adds stay within the response cap, however many there are; the whole answer (text
 * and structured content) never passes it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createEngineGroup } from "../../src/index.ts";
import { memoryEngine } from "../support/platform.ts";
import { answerTokens, call, connect, type Connected } from "./support.ts";

const API = `
#- app/main.py
from fastapi import FastAPI

app = FastAPI()


@app.get("/api/items/{item_id}")
def read_item(item_id: int) -> dict:
    return {"id": item_id}
`;

/** 120 frontend functions, each fetching the one route. */
const WEB = `
#- src/calls.ts
${Array.from({ length: 120 }, (_, i) => `export function loadItemNumber${i}WithAVeryLongDescriptiveNameThatGoesOnAndOnForAWhileLonger(id: number) {\n  return fetch(\`/api/items/\${id}\`);\n}\n`).join("\n")}`;

let session: Connected | undefined;
afterAll(async () => session?.close());

describe("cross-repository callers under the response cap", () => {
  it("impact lists as many as the cap leaves room for, and the answer stays within it", async () => {
    const api = memoryEngine(API).engine;
    const web = memoryEngine(WEB).engine;
    const group = createEngineGroup([
      { name: "api", engine: api, root: "/api" },
      { name: "web", engine: web, root: "/web" },
    ]);
    session = await connect(api, { group, maxResponseTokens: 1000 });
    const a = await call(session.client, "impact", { target: "app.main.read_item", repo: "api" });
    expect(a.isError, a.text).toBe(false);
    expect(a.text).toContain("## Callers in other repositories (through HTTP routes): 120");
    const listed = a.text
      .split("\n")
      .filter((l) => l.startsWith("- GET /api/items/{item_id} ← web:src/calls.ts:")).length;
    expect(listed).toBeGreaterThan(0);
    expect(listed).toBeLessThan(12);
    expect(a.text).toMatch(/… and \d+ more/);
    expect(answerTokens(a)).toBeLessThanOrEqual(1000);
    // Other tools' group answers read back as their declared shapes too (call() checks them strictly).
    const map = await call(session.client, "repo_map", { kind: "routes" });
    expect(map.data.routes[0].clients.slice(0, 2)).toEqual(["web:src/calls.ts:2", "web:src/calls.ts:6"]);
    const found = await call(session.client, "search", { query: "load item number 7", repo: "web" });
    expect(found.data.repo).toBe("web");
    expect(answerTokens(map)).toBeLessThanOrEqual(1000);
    web.close();
  }, 120_000);
});
