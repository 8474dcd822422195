/**
 * The tool map (`codeslice tools`, MCP `repo_map` kind tools): MCP tools, JSON-RPC and gRPC methods
 * and CLI commands as each framework registers them, with where each is handled; and this
 * repository's own MCP tools and CLI commands, checked against the server's TOOLS and the command
 * table (its real files, loaded into the memory platform).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { RUN_TOOLS, TOOLS } from "../../src/mcp/server.ts";
import { reposTool } from "../../src/mcp/tools/repos.ts";
import { errorOf, memoryEngine, parseFixture } from "../support/platform.ts";

const fixture = parseFixture(readFileSync(new URL("./fixtures/tools.txt", import.meta.url), "utf8"));

describe("tool map", () => {
  it("finds each framework's tools, RPC methods and commands with their handlers", async () => {
    const { engine } = memoryEngine(fixture);
    const a = await engine.toolMap();
    const rows = a.tools.map(
      (t) =>
        `${t.kind} ${t.name} ${t.file}:${t.line} ${t.via}${t.handler ? ` → ${t.handler}` : t.handledAt ? ` @${t.handledAt.line}` : ""}`,
    );
    expect(rows.sort()).toEqual(
      [
        "cli clone ts/cli.ts:10 commander → ts/cli.ts#cloneRepo",
        "cli drop py/cli.py:20 cli.command → py.cli.drop_db",
        "cli export py/cli.py:36 argparse → py.cli.run_export",
        "cli init-db py/cli.py:15 cli.command → py.cli.init_db",
        "cli serve py/cli.py:25 app.command → py.cli.serve",
        "cli serve ts/cli.ts:14 yargs @14",
        "cli version py/cli.py:38 argparse",
        "grpc Greeter.SayHello py/rpc.py:12 servicer → py.rpc.Greeter.SayHello",
        "grpc getFeature ts/grpc.ts:8 addService → ts/grpc.ts#getFeature",
        "grpc listFeatures ts/grpc.ts:8 addService @8",
        "jsonrpc echo ts/server.ts:14 addMethod @14",
        "jsonrpc ping py/rpc.py:7 decorator → py.rpc.ping",
        "mcp add py/server.py:7 decorator → py.server.add",
        "mcp list_dir ts/server.ts:11 server.registerTool @11",
        "mcp read_file ts/server.ts:10 server.tool → ts/server.ts#readFile",
        "mcp search_docs py/server.py:12 decorator → py.server.search",
      ].sort(),
    );
    expect(a.counts).toEqual({ mcp: 4, jsonrpc: 2, grpc: 3, cli: 7 });
    expect(a.text).toContain("# Tools and commands: 4 MCP tools, 2 JSON-RPC methods, 3 gRPC methods, 7 CLI commands");
    expect(a.text).toContain(
      "- read_file → ts/server.ts:10 (server.tool), handled by ts/server.ts#readFile (ts/server.ts:6)",
    );
  });

  it("filters by kind, fits the budget, and refuses an unknown kind", async () => {
    const { engine } = memoryEngine(fixture);
    expect((await engine.toolMap({ kind: "grpc" })).tools.map((t) => t.name)).toEqual([
      "getFeature",
      "Greeter.SayHello",
      "listFeatures",
    ]);
    const small = await engine.toolMap({ budget: 60 });
    expect(small.usage.tokens).toBeLessThanOrEqual(60);
    expect(small.tools.length).toBeLessThan(small.total);
    expect((await errorOf(engine.toolMap({ kind: "soap" as never }))).code).toBe("invalid_argument");
  });

  it("on this repository: every MCP tool the server serves and every command of the CLI's table", async () => {
    const root = new URL("../../", import.meta.url).pathname;
    const files: Record<string, string> = {};
    const walk = (dir: string) => {
      for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (rel.endsWith(".ts")) files[rel] = readFileSync(join(root, rel), "utf8");
      }
    };
    walk("src/mcp");
    walk("src/cli");
    const { engine } = memoryEngine(files);
    const a = await engine.toolMap({ budget: 8000 });
    expect(a.tools.length).toBe(a.total);
    const names = (kind: string) =>
      a.tools
        .filter((t) => t.kind === kind && !t.test)
        .map((t) => t.name)
        .sort();
    // Every tool the server can serve: the run tools behind --allow-run, repos in a group.
    expect(names("mcp")).toEqual([...TOOLS, ...RUN_TOOLS, reposTool].map((t) => t.name).sort());
    expect(names("cli")).toEqual(COMMANDS.map((c) => c.name).sort());
    // Each is handled by its spec's run.
    const repoMap = a.tools.find((t) => t.name === "repo_map")!;
    expect(repoMap.file).toBe("src/mcp/tools/repo-map.ts");
    expect(files[repoMap.file]!.split("\n")[repoMap.handledAt!.line - 1]).toMatch(/^\s*async run\(/);
  });
});
