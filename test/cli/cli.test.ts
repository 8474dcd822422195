/**
 * The built CLI as a user runs it: a subprocess over a small temp project. Assertions are on exit
 * codes, JSON fields and token counts, not on wording. `npm test` builds first; a bare vitest run
 * builds here only when dist/ is missing.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const cli = path.join(repoRoot, "dist", "cli", "main.js");
const temps: string[] = [];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd = repoRoot): Run {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json<T = Record<string, unknown>>(r: Run): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(
      `stdout is not JSON (exit ${r.status}): ${r.stdout.slice(0, 500)}\nstderr: ${r.stderr.slice(0, 500)}`,
    );
  }
}

function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-cli-")));
  temps.push(dir);
  return dir;
}

/** Every file under `dir` with its content. */
function listTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
    const full = path.join(d.parentPath, d.name);
    out[path.relative(dir, full)] = d.isFile() ? fs.readFileSync(full, "utf8") : "<dir>";
  }
  return out;
}

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/**
 * A project whose full map is well over 300 tokens: 12 Python modules and 6 TypeScript modules,
 * each with a class and functions that call into the previous module.
 */
function makeProject(): string {
  const root = tempDir();
  write(root, "shop/__init__.py", "");
  for (let i = 0; i < 12; i++) {
    const prev = i > 0 ? `from shop.mod${i - 1} import compute_${i - 1}\n\n` : "";
    const call = i > 0 ? `compute_${i - 1}(x)` : "x";
    write(
      root,
      `shop/mod${i}.py`,
      `${prev}class Service${i}:\n    """Service number ${i}."""\n\n    def handle(self, x):\n        return compute_${i}(x)\n\n\ndef compute_${i}(x):\n    return ${call} + ${i}\n\n\ndef helper_${i}():\n    return Service${i}().handle(${i})\n`,
    );
  }
  for (let i = 0; i < 6; i++) {
    const prev = i > 0 ? `import { render${i - 1} } from "./view${i - 1}";\n\n` : "";
    write(
      root,
      `web/view${i}.ts`,
      `${prev}export interface Props${i} { id: number; label: string }\n\nexport function render${i}(p: Props${i}): string {\n  return ${i > 0 ? `render${i - 1}(p)` : "p.label"} + "${i}";\n}\n\nexport class Widget${i} {\n  draw(p: Props${i}): string { return render${i}(p); }\n}\n`,
    );
  }
  write(root, "README.md", "# shop\n");
  return root;
}

beforeAll(() => {
  if (!fs.existsSync(cli)) {
    const r = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
  }
}, 300_000);

afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});

describe("codeslice index", () => {
  let project: string;
  beforeAll(() => {
    project = makeProject();
  });

  it("--json prints one JSON summary with counts; a second run parses nothing", () => {
    const first = run(["index", "--root", project, "--json", "--quiet"]);
    expect(first.status).toBe(0);
    const s = json<{
      root: string;
      files: number;
      sourceFiles: number;
      parsed: number;
      reused: number;
      symbols: number;
      scanMode: string;
      byLanguage: Record<string, { files: number; symbols: number }>;
      skipped: unknown[];
    }>(first);
    expect(s.root).toBe(project);
    expect(s.scanMode).toBe("walk");
    expect(s.files).toBe(20);
    expect(s.sourceFiles).toBe(19);
    expect(s.parsed).toBe(19);
    expect(s.byLanguage.Python?.files).toBe(13);
    expect(s.byLanguage.TypeScript?.files).toBe(6);
    expect(s.symbols).toBeGreaterThanOrEqual(12 * 4 + 6 * 4);
    expect(s.skipped).toEqual([]);
    const second = json<{ parsed: number; reused: number; files: number }>(run(["index", "--root", project, "--json"]));
    expect(second.parsed).toBe(0);
    expect(second.reused).toBe(19);
    // The cache folder inside the root ignores itself for git and is not indexed.
    expect(second.files).toBe(20);
    expect(fs.readFileSync(path.join(project, ".codeslice", ".gitignore"), "utf8")).toMatch(/^\*$/m);
  });

  it("the default root is the current folder, and the human summary exits 0", () => {
    const r = run(["index"], project);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(project);
  });

  it("--cache-dir moves the index out of the root", () => {
    const root = makeProject();
    const cache = path.join(tempDir(), "elsewhere");
    const s = json<{ store: string; parsed: number }>(run(["index", "--root", root, "--cache-dir", cache, "--json"]));
    expect(s.store).toBe(cache);
    expect(s.parsed).toBe(19);
    expect(fs.existsSync(path.join(root, ".codeslice"))).toBe(false);
    expect(fs.readdirSync(cache)).toContain(".gitignore");
  });

  it("refuses a --cache-dir that would hold the user's files, and leaves every file as it was", () => {
    const base = tempDir();
    const root = path.join(base, "project");
    write(root, "app.py", "def main():\n    return 1\n");
    write(root, "src/lib.py", "def lib():\n    return 2\n");
    write(base, "sibling/keep.py", "KEEP = 1\n");
    write(base, "photos/cat.txt", "precious\n");
    const before = listTree(base);
    for (const [cacheDir, cwd] of [
      [".", root],
      ["src", root],
      ["..", root],
      [path.join(base, "photos"), root],
    ] as const) {
      const r = run(["index", "--json", "--quiet", "--cache-dir", cacheDir], cwd);
      expect(r.status, `--cache-dir ${cacheDir}: ${r.stderr}`).toBe(1);
      expect(json<{ error: { code: string } }>(r).error.code).toBe("cache_refused");
      expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
      expect(listTree(base), `--cache-dir ${cacheDir} changed the disk`).toEqual(before);
    }
  });

  it("--max-file-bytes skips larger files with too_large", () => {
    const root = makeProject();
    const s = json<{ skipped: { path: string; reason: string }[] }>(
      run(["index", "--root", root, "--max-file-bytes", "200", "--json"]),
    );
    expect(s.skipped.length).toBeGreaterThan(0);
    expect(new Set(s.skipped.map((x) => x.reason))).toEqual(new Set(["too_large"]));
  });
});

describe("codeslice map", () => {
  let project: string;
  beforeAll(() => {
    project = makeProject();
  });

  it("the full map is larger than 300 tokens (so the budget below has to cut)", () => {
    const r = run(["map", "--root", project, "--budget", "100000"]);
    expect(r.status).toBe(0);
    expect(countO200k(r.stdout)).toBeGreaterThan(300);
  });

  it("--budget 300 prints at most 300 tokens (o200k_base), counted over the whole output", () => {
    const r = run(["map", "--root", project, "--budget", "300"]);
    expect(r.status).toBe(0);
    const tokens = countO200k(r.stdout);
    expect(tokens).toBeLessThanOrEqual(300);
    expect(tokens).toBeGreaterThan(30);
  });

  it("--encoding cl100k_base counts with that tokenizer", () => {
    const r = run(["map", "--root", project, "--budget", "250", "--encoding", "cl100k_base"]);
    expect(r.status).toBe(0);
    expect(countCl100k(r.stdout)).toBeLessThanOrEqual(250);
  });

  it("a reader that closes the pipe early (| head) ends the run quietly, with no stack trace", async () => {
    // Output well over a pipe's 64 KB buffer, so the write after head exits does fail.
    const big = tempDir();
    write(
      big,
      "many.py",
      Array.from(
        { length: 2000 },
        (_, i) => `def function_number_${i}(x):\n    return function_number_${Math.max(i - 1, 0)}(x)\n`,
      ).join("\n"),
    );
    // Read the first chunk, then close our end of the pipe, as `| head -c 100` does.
    const child = spawn(process.execPath, [cli, "graph", "--json", "--root", big], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => void (stderr += d));
    child.stdout.once("data", () => child.stdout.destroy());
    const status = await new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*\(node:/);
    expect(status).toBe(0);
  });

  it("a budget too small names the --budget that answers (data with --json), and that budget does", () => {
    const j = run(["context", "shop.mod3.Service3", "--root", project, "--budget", "5", "--json"]);
    expect(j.status).toBe(1);
    const error = json<{ error: { code: string; hint: string; data: { needed: number } } }>(j).error;
    expect(error.code).toBe("budget_too_small");
    expect(error.hint).toContain(`--budget ${error.data.needed}`);
    const r = run(["context", "shop.mod3.Service3", "--root", project, "--budget", "5"]);
    expect(r.stderr).toContain(`codeslice context with --budget ${error.data.needed}`);
    const again = run(["context", "shop.mod3.Service3", "--root", project, "--budget", String(error.data.needed)]);
    expect(again.status, again.stderr).toBe(0);
    expect(countO200k(again.stdout.replace(/\n$/, ""))).toBeLessThanOrEqual(error.data.needed);
  });

  it("--json reports the budget and the tokens its text uses", () => {
    const m = json<{ tokens: number; budget: number; encoding: string; text: string; symbols: unknown[] }>(
      run(["map", "--root", project, "--budget", "300", "--json"]),
    );
    expect(m.budget).toBe(300);
    expect(m.encoding).toBe("o200k_base");
    expect(m.tokens).toBeLessThanOrEqual(300);
    expect(countO200k(m.text)).toBeLessThanOrEqual(300);
    expect(m.symbols.length).toBeGreaterThan(0);
  });
});

describe("codeslice graph", () => {
  it("--json prints definitions in the code-graph-gold/1 shape", () => {
    const project = makeProject();
    const r = run(["graph", "--root", project, "--json"]);
    expect(r.status).toBe(0);
    const g = json<{
      meta: { format: string };
      definitions: {
        file: string;
        name: string;
        qualified: string;
        kind: string;
        start_line: number;
        end_line: number;
        first_line?: number;
      }[];
      call_edges: unknown[];
      import_edges: unknown[];
      inherits: unknown[];
    }>(r);
    expect(g.meta.format).toBe("code-graph-gold/1");
    expect(Array.isArray(g.call_edges) && Array.isArray(g.import_edges) && Array.isArray(g.inherits)).toBe(true);
    for (const d of g.definitions) {
      expect(typeof d.file).toBe("string");
      expect(typeof d.name).toBe("string");
      expect(typeof d.qualified).toBe("string");
      expect(typeof d.kind).toBe("string");
      expect(Number.isInteger(d.start_line) && d.start_line >= 1).toBe(true);
      expect(Number.isInteger(d.end_line) && d.end_line >= d.start_line).toBe(true);
    }
    const find = (file: string, name: string) => g.definitions.find((d) => d.file === file && d.name === name);
    expect(find("shop/mod3.py", "Service3")).toMatchObject({
      qualified: "shop.mod3.Service3",
      kind: "class",
      start_line: 3,
    });
    expect(find("shop/mod3.py", "handle")).toMatchObject({
      qualified: "shop.mod3.Service3.handle",
      kind: "method",
      start_line: 6,
      end_line: 7,
    });
    expect(find("shop/mod3.py", "compute_3")).toMatchObject({
      qualified: "shop.mod3.compute_3",
      kind: "function",
      start_line: 10,
      end_line: 11,
    });
    expect(find("web/view2.ts", "render2")).toMatchObject({ kind: "function" });
    expect(find("web/view2.ts", "Widget2")).toMatchObject({ kind: "class" });
    expect(g.definitions.filter((d) => d.file.endsWith(".py")).length).toBe(12 * 4);
  });
});

describe("usage and errors", () => {
  it("--help exits 0 and names every command of this issue", () => {
    const r = run(["--help"]);
    expect(r.status).toBe(0);
    for (const c of ["index", "map", "graph"]) expect(r.stdout).toContain(c);
    for (const c of ["index", "map", "graph"]) expect(run([c, "--help"]).status).toBe(0);
  });

  it("--help reports the engine's limits, and the flags refuse what the limits refuse", async () => {
    const { LIMITS } = await import("../../src/core/limits.ts");
    const help = run(["--help"]).stdout;
    expect(help).toContain(
      `--budget N       Token budget for the whole answer, ${LIMITS.budget.min}-${LIMITS.budget.max}`,
    );
    expect(run(["callers", "--help"]).stdout).toContain(
      `--depth N        Hops to follow, ${LIMITS.depth.min}-${LIMITS.depth.max} (default ${LIMITS.depth.default})`,
    );
    expect(run(["search", "--help"]).stdout).toContain(
      `--limit N        Results, ${LIMITS.searchResults.min}-${LIMITS.searchResults.max} (default ${LIMITS.searchResults.default})`,
    );
    expect(help).toContain(`at most ${LIMITS.targetChars} characters`);
    expect(run(["mcp", "--help"]).stdout).toContain(`at least ${LIMITS.responseTokens.min}`);
    for (const [flag, bad] of [
      ["--depth", LIMITS.depth.max + 1],
      ["--limit", LIMITS.searchResults.max + 1],
      ["--budget", LIMITS.budget.max + 1],
    ] as const) {
      const r = run([
        flag === "--limit" ? "search" : flag === "--depth" ? "callers" : "map",
        ...(flag === "--budget" ? [] : ["x"]),
        flag,
        String(bad),
      ]);
      expect(r.status, flag).toBe(2);
      expect(r.stderr, flag).toContain(flag);
    }
    const long = run(["context", "x".repeat(LIMITS.targetChars + 1)]);
    expect(long.status).toBe(2);
    expect(long.stderr).toContain(String(LIMITS.targetChars));
  });

  it("--version prints the package version", () => {
    const r = run(["--version"]);
    expect(r.status).toBe(0);
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it("no command is bad usage (exit 2)", () => {
    expect(run([]).status).toBe(2);
  });

  it("an unknown command exits 2 with a message on stderr and nothing on stdout", () => {
    const r = run(["frobnicate"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("frobnicate");
    expect(r.stdout).toBe("");
  });

  it("an unknown option exits 2", () => {
    const r = run(["index", "--no-such-flag"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--no-such-flag");
  });

  it.each([["abc"], ["0"], ["-5"], ["1.5"], [""]])("--budget %j exits 2 naming the flag", (value) => {
    const r = run(["map", "--root", repoRoot, "--budget", value]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--budget");
    expect(r.stdout).toBe("");
  });

  it.each([["0"], ["two"], ["1.5"], ["65"]])("--jobs %j exits 2 naming the flag", (value) => {
    const r = run(["index", "--root", repoRoot, "--jobs", value]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--jobs");
    expect(r.stdout).toBe("");
  });

  it("an unknown --encoding exits 2", () => {
    const r = run(["map", "--encoding", "gpt2"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--encoding");
  });

  it("a missing root exits 1 naming the path (stderr; and code + data with --json)", () => {
    const missing = path.join(tempDir(), "no", "such", "folder");
    const r = run(["index", "--root", missing]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(missing);
    const j = run(["index", "--root", missing, "--json"]);
    expect(j.status).toBe(1);
    expect(json<{ error: { code: string; data: { root: string } } }>(j).error).toMatchObject({
      code: "root_not_found",
      data: { root: missing },
    });
    expect(fs.existsSync(missing)).toBe(false);
  });

  it("a file as root exits 1 with root_not_directory", () => {
    const file = path.join(tempDir(), "file.py");
    fs.writeFileSync(file, "x = 1\n");
    const r = run(["map", "--root", file, "--json"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(file);
    expect(json<{ error: { code: string; data: { root: string } } }>(r).error).toMatchObject({
      code: "root_not_directory",
      data: { root: file },
    });
  });
});
