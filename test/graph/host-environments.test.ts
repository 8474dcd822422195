/**
 * The globals and sinks of the runtimes JavaScript runs on are host environment profiles (src/platform), handed to the
 * engine (`EngineOptions.host`, `Platform.host`), not part of the language files. The default profile (every host) is
 * what the engine always used; a narrower one changes what counts as the host's:
 * - under a browser-only profile `process` is no global, so `process.stdout.write(…)` reads untyped project data and
 *   gets the unique-name guess like any other receiver; `window.…` stays the host's;
 * - a server runtime's own process call (`Bun.spawn`) is an exec sink under the default profile, and not under a
 *   profile without the server host.
 */
import { describe, expect, it } from "vitest";
import {
  BROWSER_HOST,
  COMMON_HOST,
  DEFAULT_HOST_ENVIRONMENT,
  mergeHostEnvironments,
} from "../../src/platform/host-environments.ts";
import type { HostEnvironment } from "../../src/languages/types.ts";
import { memoryEngine } from "../support/platform.ts";

const PROJECT = `
//- lib/xunit.js
class XUnit {
  write(line) {
    return line;
  }
}
module.exports = XUnit;
//- lib/base.js
function hideCursor() {
  process.stdout.write("x");
  window.console.write("y");
}
module.exports = { hideCursor };
`;

/** The callees of lib/base.js's lines 2 and 3 under `host` (undefined: the platform's default). */
async function baseCallees(host?: HostEnvironment): Promise<string[]> {
  const { engine } = memoryEngine(PROJECT, host ? { host } : {});
  const graph = await engine.codeGraph();
  return graph.calls
    .filter((e) => e.file === "lib/base.js")
    .map((e) => `${e.line} ${graph.symbols[e.callee]!.qualified}`)
    .sort();
}

const SERVER_ROUTE = `
//- src/index.ts
import { Hono } from "hono";
const app = new Hono();

app.post("/run", async (c) => {
  const body = await c.req.json();
  Bun.spawn(["sh", "-c", body.cmd]);
  return c.json({ ok: true });
});

export default app;
`;

/** The lines of the sinks the body of POST /run reaches under `host`. */
async function reachedSinks(host?: HostEnvironment): Promise<string[]> {
  const { engine } = memoryEngine(SERVER_ROUTE, host ? { host } : {});
  const a = await engine.dataflow("POST /run", {});
  return a.sinks.filter((s) => s.reached).map((s) => `${s.path}:${s.line} ${s.kind}`);
}

describe("host environment profiles", () => {
  it("the default profile keeps process and window the host's", async () => {
    expect(await baseCallees()).toEqual([]);
    expect(await baseCallees(DEFAULT_HOST_ENVIRONMENT)).toEqual([]);
  });

  it("a browser-only profile makes process untyped data again; window stays the host's", async () => {
    expect(await baseCallees(mergeHostEnvironments(COMMON_HOST, BROWSER_HOST))).toEqual(["2 lib/xunit.js#XUnit.write"]);
  });

  it("a server runtime's process call is an exec sink only under a profile with the server host", async () => {
    expect(await reachedSinks()).toEqual(["src/index.ts:6 exec"]);
    expect(await reachedSinks(COMMON_HOST)).toEqual([]);
  });
});
