/**
 * The published package is the product: pack the project, install the tarball into an empty
 * folder, and run the installed `codeslice` the ways users do: `npx codeslice …`,
 * `deno run npm:codeslice …` (Deno resolving from that folder's node_modules) and an MCP client
 * over stdio. Also checks what the tarball holds and prints its sizes.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, denoBin, folderBytes, packAndInstall, repoRoot } from "./pack-install.mjs";

interface PackEntry {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number; mode: number }[];
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

let work: string;
let appDir: string;
let pack: PackEntry;
let fixture: string;

/** A small Python + TypeScript project, committed to git when git is there (the git-aware scan). */
function writeFixture(root: string): void {
  const files: Record<string, string> = {
    "shop/__init__.py": "",
    "shop/models.py":
      'class Order:\n    """An order of items."""\n\n    def __init__(self, items):\n        self.items = items\n\n    def total(self):\n        return sum(price for _, price in self.items)\n',
    "shop/service.py":
      'from shop.models import Order\n\n\ndef checkout(items):\n    order = Order(items)\n    return order.total()\n\n\ndef receipt(items):\n    return f"total: {checkout(items)}"\n',
    "tests/test_service.py":
      'from shop.service import checkout\n\n\ndef test_checkout():\n    assert checkout([("a", 2)]) == 2\n',
    "web/api.ts":
      'import { formatPrice } from "./format";\n\nexport function priceLabel(cents: number): string {\n  return formatPrice(cents);\n}\n',
    "web/format.ts":
      "export function formatPrice(cents: number): string {\n  return `$${(cents / 100).toFixed(2)}`;\n}\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const git = (...args: string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8" });
  if (git("init", "-q").status === 0) {
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "fixture");
  }
}

function npx(args: string[]): Run {
  const r = spawnSync("npx", ["--no", "--", "codeslice", ...args], {
    cwd: appDir,
    env: cleanEnv(),
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function deno(permissions: string[], args: string[]): Run {
  const r = spawnSync(denoBin, ["run", ...permissions, "npm:codeslice", ...args], {
    cwd: appDir,
    env: cleanEnv(),
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json<T = Record<string, unknown>>(r: Run): T {
  expect(r.status, `exit ${r.status}\nstderr: ${r.stderr}`).toBe(0);
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON: ${r.stdout.slice(0, 500)}\nstderr: ${r.stderr.slice(0, 500)}`);
  }
}

const cache = (name: string) => path.join(work, `cache-${name}`);

/** An index summary without what legitimately differs between two runs (time, cache folder). */
function comparableIndex(summary: Record<string, unknown>): Record<string, unknown> {
  const { durationMs: _d, store: _s, parsed: _p, reused: _r, ...rest } = summary;
  return rest;
}

beforeAll(() => {
  const installed = packAndInstall();
  work = installed.dir;
  appDir = installed.appDir;
  pack = installed.pack as PackEntry;
  fixture = path.join(work, "fixture");
  fs.mkdirSync(fixture);
  writeFixture(fixture);
}, 600_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("the tarball", () => {
  it("holds dist, every locked wasm file, package.json and README, and no sources, tests or fixtures", () => {
    const files = pack.files.map((f) => f.path);
    const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, "wasm", "wasm.lock.json"), "utf8")) as {
      files: { file: string }[];
    };
    for (const need of [
      "package.json",
      "README.md",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/cli/main.js",
      "dist/platform/node/index.js",
      "dist/platform/deno/index.js",
      "dist/platform/memory/index.js",
      "dist/languages/queries.gen.js",
      "wasm/wasm.lock.json",
      ...lock.files.map((f) => `wasm/${f.file}`),
    ]) {
      expect(files, need).toContain(need);
    }
    if (fs.existsSync(path.join(repoRoot, "src", "mcp"))) expect(files).toContain("dist/mcp/stdio.js");
    const unwanted = files.filter(
      (f) =>
        /^(src|test|scripts|playground|node_modules)\//.test(f) ||
        /(^|\/)fixtures?\//.test(f) ||
        (/\.ts$/.test(f) && !f.endsWith(".d.ts")) ||
        /\.(tgz|test\.js)$/.test(f),
    );
    expect(unwanted).toEqual([]);
    // Every wasm file in the tarball is a locked one: no stray grammar ships unchecked.
    const wasm = files
      .filter((f) => f.startsWith("wasm/") && f.endsWith(".wasm"))
      .map((f) => f.slice(5))
      .sort();
    expect(wasm).toEqual(lock.files.map((f) => f.file).sort());
    const bin = pack.files.find((f) => f.path === "dist/cli/main.js")!;
    expect(bin.mode & 0o111, "dist/cli/main.js is executable").not.toBe(0);
    // The queries are compiled into dist: the .scm sources are not needed at run time.
    expect(
      fs.readFileSync(path.join(appDir, "node_modules", "codeslice", "dist", "languages", "queries.gen.js"), "utf8"),
    ).toContain("@definition");
  });

  it("reports its size", () => {
    const installed = folderBytes(path.join(appDir, "node_modules"));
    const own = folderBytes(path.join(appDir, "node_modules", "codeslice"));
    const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
    console.log(
      `package: ${pack.filename}: tarball ${mb(pack.size)}, unpacked ${mb(pack.unpackedSize)} in ${pack.entryCount} files; ` +
        `installed with dependencies ${mb(installed)} (codeslice itself ${mb(own)})`,
    );
    // A budget, not a target: the grammars are most of it. Raise it deliberately if a grammar is added.
    expect(pack.size).toBeLessThan(4e6);
    expect(pack.unpackedSize).toBeLessThan(30e6);
  });
});

describe("installed, under Node: npx codeslice", () => {
  it("index, map and context answer on the fixture", () => {
    const summary = json(npx(["index", "--json", "--root", fixture, "--cache-dir", cache("node")]));
    expect(summary).toMatchObject({ sourceFiles: 6, parsed: 6 });
    expect(summary.symbols as number).toBeGreaterThanOrEqual(7);
    const map = json<{ text: string; tokens: number }>(
      npx(["map", "--json", "--root", fixture, "--cache-dir", cache("node"), "--budget", "600"]),
    );
    expect(map.text).toContain("Order");
    expect(map.tokens).toBeLessThanOrEqual(600);
    const context = json<{ chunks: { path: string; role: string }[]; text: string }>(
      npx(["context", "checkout", "--json", "--root", fixture, "--cache-dir", cache("node")]),
    );
    expect(context.chunks.map((c) => `${c.role} ${c.path}`)).toEqual(
      expect.arrayContaining(["seed shop/service.py", "callee shop/models.py"]),
    );
    expect(npx(["--version"]).stdout.trim()).toBe(
      JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version,
    );
  }, 120_000);
});

describe("installed, under Deno: deno run npm:codeslice", () => {
  it("index, map and context give the same JSON as under Node", () => {
    const node = {
      index: json(npx(["index", "--json", "--root", fixture, "--cache-dir", cache("node-cmp")])),
      map: json(npx(["map", "--json", "--root", fixture, "--cache-dir", cache("node-cmp")])),
      context: json(npx(["context", "checkout", "--json", "--root", fixture, "--cache-dir", cache("node-cmp")])),
    };
    const denoRun = {
      index: json(deno(["-A"], ["index", "--json", "--root", fixture, "--cache-dir", cache("deno")])),
      map: json(deno(["-A"], ["map", "--json", "--root", fixture, "--cache-dir", cache("deno")])),
      context: json(deno(["-A"], ["context", "checkout", "--json", "--root", fixture, "--cache-dir", cache("deno")])),
    };
    expect(denoRun.index.parsed).toBe(6);
    expect(comparableIndex(denoRun.index)).toEqual(comparableIndex(node.index));
    expect(denoRun.map).toEqual(node.map);
    expect(denoRun.context).toEqual(node.context);
  }, 180_000);

  it("a cache written by Deno is reused by Node and the other way round (same layout)", () => {
    const shared = cache("shared");
    expect(json(deno(["-A"], ["index", "--json", "--root", fixture, "--cache-dir", shared])).parsed).toBe(6);
    expect(json(npx(["index", "--json", "--root", fixture, "--cache-dir", shared])).parsed).toBe(0);
    expect(json(deno(["-A"], ["index", "--json", "--root", fixture, "--cache-dir", shared])).parsed).toBe(0);
  }, 120_000);

  it("least permissions: --allow-read plus --allow-write for the cache folder; no --allow-env", () => {
    const dir = cache("least");
    // --quiet: on a busy machine progress lines would appear after a second; stderr must be empty.
    const first = deno(
      ["--allow-read", `--allow-write=${dir}`],
      ["index", "--json", "--quiet", "--root", fixture, "--cache-dir", dir],
    );
    expect(json(first).parsed).toBe(6);
    expect(first.stderr).toBe("");
    expect(fs.existsSync(path.join(dir, ".gitignore"))).toBe(true);
    const context = deno(
      ["--allow-read"],
      ["context", "checkout", "--json", "--quiet", "--root", fixture, "--cache-dir", dir],
    );
    expect(json<{ chunks: unknown[] }>(context).chunks.length).toBeGreaterThan(0);
    expect(context.stderr).toBe("");
  }, 120_000);

  it("read-only (--allow-read alone, no cache yet): answers from memory and says so once", () => {
    const dir = cache("never-written");
    const r = deno(["--allow-read"], ["map", "--json", "--quiet", "--root", fixture, "--cache-dir", dir]);
    expect(json<{ text: string }>(r).text).toContain("Order");
    const notices = r.stderr.split("\n").filter((l) => l.includes("in memory"));
    expect(notices.length, r.stderr).toBe(1);
    expect(notices[0]).toContain("--allow-write");
    expect(fs.existsSync(dir)).toBe(false);
  }, 120_000);

  it("as a library: codeslice with codeslice/deno (the README's snippet)", () => {
    const script = path.join(appDir, "library-check.mjs");
    fs.writeFileSync(
      script,
      [
        'import { createEngine } from "codeslice";',
        'import { createDenoPlatform } from "codeslice/deno";',
        `const engine = createEngine(await createDenoPlatform({ root: ${JSON.stringify(fixture)}, cacheDir: ${JSON.stringify(cache("library"))} }));`,
        'const answer = await engine.context("checkout", { budget: 2000 });',
        "console.log(JSON.stringify({ seeds: answer.seeds.length, chunks: answer.chunks.map((c) => c.path) }));",
      ].join("\n"),
    );
    const r = spawnSync(denoBin, ["run", "--allow-read", `--allow-write=${cache("library")}`, script], {
      cwd: appDir,
      env: cleanEnv(),
      encoding: "utf8",
      timeout: 120_000,
    });
    const out = json<{ chunks: string[] }>({ status: r.status, stdout: r.stdout, stderr: r.stderr });
    expect(out.chunks).toContain("shop/service.py");
  }, 120_000);

  it("no permissions: one line naming --allow-read, exit 1, no stack trace", () => {
    const r = deno([], ["map", "--root", fixture, "--cache-dir", cache("none")]);
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines.length, r.stderr).toBe(1);
    expect(lines[0]).toMatch(/^codeslice: .*--allow-read/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});

/** An MCP handshake plus one tool call against `command args`, from the SDK's Node client. */
async function mcpSession(
  command: string,
  args: string[],
  cwd = appDir,
): Promise<{ server: string | undefined; tools: string[]; text: string; isError: boolean }> {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    env: cleanEnv() as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "codeslice-package-test", version: "0.0.0" });
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const result = (await client.callTool({ name: "context", arguments: { target: "checkout", budget: 2000 } })) as {
      content: { type: string; text?: string }[];
      isError?: boolean;
    };
    return {
      server: client.getServerVersion()?.name,
      tools,
      text: result.content.map((c) => c.text ?? "").join("\n"),
      isError: result.isError === true,
    };
  } catch (error) {
    throw new Error(`MCP session failed: ${(error as Error).message}\nserver stderr:\n${stderr}`);
  } finally {
    await client.close();
  }
}

const hasMcp = fs.existsSync(path.join(repoRoot, "src", "mcp"));

describe.skipIf(!hasMcp)("installed, MCP over stdio", () => {
  it("npx codeslice mcp: handshake, tools, one context call", async () => {
    const session = await mcpSession("npx", [
      "--no",
      "--",
      "codeslice",
      "mcp",
      "--root",
      fixture,
      "--cache-dir",
      cache("mcp-node"),
    ]);
    expect(session.server).toBe("codeslice");
    expect(session.tools).toEqual(expect.arrayContaining(["repo_map", "context"]));
    expect(session.isError, session.text).toBe(false);
    expect(session.text).toContain("shop/service.py");
  }, 120_000);

  it("deno run -A npm:codeslice mcp: handshake, tools, one context call", async () => {
    const session = await mcpSession(denoBin, [
      "run",
      "-A",
      "npm:codeslice",
      "mcp",
      "--root",
      fixture,
      "--cache-dir",
      cache("mcp-deno"),
    ]);
    expect(session.server).toBe("codeslice");
    expect(session.tools).toEqual(expect.arrayContaining(["repo_map", "context"]));
    expect(session.isError, session.text).toBe(false);
    expect(session.text).toContain("shop/service.py");
  }, 120_000);
});

/** The command and args of a printed snippet, in each client's format. */
function commandOf(client: string, snippet: string): { command: string; args: string[] } {
  if (client === "claude-code" || client === "deno") {
    const words = snippet.trim().split(" ");
    expect(words.slice(0, 4)).toEqual(["claude", "mcp", "add", "codeslice"]);
    expect(words[4]).toBe("--");
    return { command: words[5]!, args: words.slice(6) };
  }
  if (client === "codex") {
    const command = /^command = (".*")$/m.exec(snippet)![1]!;
    const args = /^args = (\[.*\])$/m.exec(snippet)![1]!;
    expect(snippet).toMatch(/^\[mcp_servers\.codeslice\]$/m);
    return { command: JSON.parse(command) as string, args: JSON.parse(args) as string[] };
  }
  const config = JSON.parse(snippet) as Record<
    string,
    Record<string, { command: string; args: string[]; type?: string }>
  >;
  const entry = (client === "vscode" ? config.servers : config.mcpServers)!.codeslice!;
  if (client === "vscode") expect(entry.type).toBe("stdio");
  return { command: entry.command, args: entry.args };
}

describe.skipIf(!hasMcp)("installed: the setup snippets codeslice mcp --print-config prints", () => {
  for (const client of ["claude-code", "cursor", "vscode", "codex", "deno"]) {
    it(`${client}: the printed server starts from the project folder and answers`, async () => {
      const printed = npx(["mcp", "--print-config", client, "--cache-dir", cache(`print-${client}`)]);
      expect(printed.status, printed.stderr).toBe(0);
      expect(printed.stderr).toMatch(/^# /);
      const { command, args } = commandOf(client, printed.stdout);
      // Absolute paths to this install: no registry, no PATH lookup of codeslice.
      expect(path.isAbsolute(client === "deno" ? args[2]! : command), printed.stdout).toBe(true);
      expect(args).toContain(cache(`print-${client}`));
      // Cursor and VS Code fill in the workspace folder; the others start the server in it.
      const resolved = args.map((a) => a.replace("${workspaceFolder}", fixture));
      const session = await mcpSession(command === "deno" ? denoBin : command, resolved, fixture);
      expect(session.server).toBe("codeslice");
      expect(session.isError, session.text).toBe(false);
      expect(session.text).toContain("shop/service.py");
    }, 120_000);
  }
});
