/**
 * The warm CLI (src/cli/warm-*.ts) as a user meets it: the built CLI as subprocesses over small
 * temp projects, with the server turned back on for these runs only (vitest.config.ts turns it
 * off for every other test). Each served answer is compared byte for byte (stdout, stderr, exit
 * code) with the same call under --no-server; whether a call was served is read from what
 * `codeslice stop` reports (the calls the server answered), never from timing.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { planWarm, SERVED_COMMANDS, serverEnabled, VALUE_FLAGS } from "../../src/cli/warm-client.ts";
import { MAX_SOCKET_PATH_BYTES, refuseSocket, socketLocation } from "../../src/cli/warm-socket.ts";
import { alive, cli, ensureCliBuilt, repoRoot, tempDirs } from "../support/cli.ts";

const temps = tempDirs("codeslice-warm-");
/** Every server these tests started (pid files read), killed at the end if still alive. */
const pids = new Set<number>();
let runtimeDir = "";

/** The environment of a call with the warm CLI on (whatever CI says), a short idle time and a private runtime folder. */
function warmEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CODESLICE_SERVER_IDLE_MS: "60000", XDG_RUNTIME_DIR: runtimeDir };
  delete env.CODESLICE_NO_SERVER;
  delete env.CI;
  delete env.CODESLICE_DEBUG;
  return { ...env, ...extra };
}

interface Call {
  status: number | null;
  stdout: Buffer;
  stderr: Buffer;
}

function call(args: string[], cwd: string, env: NodeJS.ProcessEnv = warmEnv(), main = cli): Call {
  const r = spawnSync(process.execPath, [main, ...args], { cwd, env, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same call in-process: the bytes a served answer must equal. */
const inProcess = (args: string[], cwd: string) => call([...args, "--no-server"], cwd);

const text = (c: Call) => ({ status: c.status, stdout: c.stdout.toString("utf8"), stderr: c.stderr.toString("utf8") });

async function waitFor(what: string, test: () => boolean, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!test()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sockOf = (root: string) => path.join(root, ".codeslice", ".cli.sock");

/** The pid of the server listening for `root`, once its socket is there. */
async function serverPid(root: string, sock = sockOf(root)): Promise<number> {
  await waitFor("the server's socket", () => fs.existsSync(sock) && fs.existsSync(`${sock}.pid`));
  const pid = Number(fs.readFileSync(`${sock}.pid`, "utf8"));
  pids.add(pid);
  return pid;
}

/** Stops the server of `root`; how many calls it says it answered (undefined: none ran). */
function stop(root: string): number | undefined {
  const r = text(call(["stop"], root));
  expect(r.status).toBe(0);
  const m = /answered (\d+) call/.exec(r.stdout);
  return m ? Number(m[1]) : undefined;
}

function makeProject(parent?: string): string {
  const root = parent ?? temps.make();
  const files: Record<string, string> = {
    "shop/__init__.py": "",
    "shop/pricing.py":
      'def price_of(item):\n    """The price of one item."""\n    return item.price * tax_rate()\n\n\ndef tax_rate():\n    return 1.2\n',
    "shop/cart.py":
      'from shop.pricing import price_of\n\n\nclass Cart:\n    """A shopping cart."""\n\n    def __init__(self):\n        self.items = []\n\n    def add(self, item):\n        self.items.append(item)\n\n    def total(self):\n        """Sum of prices."""\n        return sum(price_of(i) for i in self.items)\n',
    "tests/test_cart.py": "from shop.cart import Cart\n\n\ndef test_total():\n    assert Cart().total() == 0\n",
  };
  for (const [rel, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), body);
  }
  return root;
}

/** A project whose server is up: one call answered in-process started it. */
async function servedProject(env = warmEnv()): Promise<{ root: string; pid: number }> {
  const root = makeProject();
  expect(call(["signature", "Cart.total"], root, env).status).toBe(0);
  return { root, pid: await serverPid(root) };
}

beforeAll(() => {
  ensureCliBuilt();
  runtimeDir = temps.make();
  fs.chmodSync(runtimeDir, 0o700);
});

afterAll(() => {
  for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
  temps.cleanup();
});

describe("the warm CLI", () => {
  it("starts a server on the first call, then answers through it byte for byte as --no-server does", async () => {
    const root = makeProject();
    const first = call(["signature", "Cart.total"], root);
    expect(first.status).toBe(0);
    const pid = await serverPid(root);
    const mode = fs.statSync(sockOf(root)).mode & 0o777;
    expect(mode).toBe(0o600);
    const other = temps.make();
    const lines = [
      ["signature", "Cart.total"],
      ["signature", "Cart.total", "--json"],
      ["callers", "price_of"],
      ["context", "Cart.total", "--budget", "4000"],
      ["search", "price", "item"],
      ["map"],
      ["callers", "nope_nothing"],
      ["context", "Cart.total", "--budget", "abc"],
      ["context", "Cart.total", "--budget", "1"],
      ["routes", "--method", "GET"],
      ["grep", "price"],
      ["dataflow", "Cart.add"],
      ["query", "MATCH (a)-[:CALLS]->(b:Symbol {name: 'price_of'}) RETURN a"],
      ["query", "MATCH (a) RETURN a LIMIT 9999"],
      ["shape-check", "Cart"],
      ["tools"],
      ["check"],
    ];
    for (const args of lines) {
      const served = call(args, root);
      expect(text(served), args.join(" ")).toEqual(text(inProcess(args, root)));
    }
    // From another folder, the project named by --root.
    const elsewhere = call(["signature", "--root", root, "Cart.total"], other);
    expect(text(elsewhere)).toEqual(text(inProcess(["signature", "--root", root, "Cart.total"], other)));
    // Fresh answers: an edit shows in the next served answer.
    fs.writeFileSync(
      path.join(root, "shop/pricing.py"),
      'def price_of(item, qty=1):\n    """The price of some items."""\n    return item.price * qty\n',
    );
    const edited = call(["signature", "price_of"], root);
    expect(edited.stdout.toString()).toContain("qty=1");
    expect(text(edited)).toEqual(text(inProcess(["signature", "price_of"], root)));
    expect(alive(pid)).toBe(true);
    // Every call after the first was the server's.
    expect(stop(root)).toBe(lines.length + 2);
    await waitFor("the server to exit", () => !alive(pid), 10_000);
    expect(fs.existsSync(sockOf(root))).toBe(false);
    expect(text(call(["stop"], root)).stdout).toMatch(/^No codeslice server runs/);
  }, 240_000);

  it("answers calls that arrive together, each with its own output", async () => {
    const { root } = await servedProject();
    const lines = [
      ["signature", "Cart.total"],
      ["callers", "price_of"],
      ["search", "cart"],
      ["callers", "nope_nothing"],
      ["map", "--json"],
      ["context", "Cart.add", "--budget", "2000"],
    ];
    const together = await Promise.all(
      lines.map(
        (args) =>
          new Promise<Call>((resolve) => {
            const child = spawn(process.execPath, [cli, ...args], { cwd: root, env: warmEnv() });
            const out: Buffer[] = [];
            const err: Buffer[] = [];
            child.stdout.on("data", (b: Buffer) => out.push(b));
            child.stderr.on("data", (b: Buffer) => err.push(b));
            child.on("close", (status) => resolve({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
          }),
      ),
    );
    lines.forEach((args, i) => expect(text(together[i]!), args.join(" ")).toEqual(text(inProcess(args, root))));
    expect(stop(root)).toBe(lines.length);
  }, 180_000);

  it("exits after its idle time", async () => {
    const env = warmEnv({ CODESLICE_SERVER_IDLE_MS: "1500" });
    const { root, pid } = await servedProject(env);
    await waitFor("the idle server to exit", () => !alive(pid), 20_000);
    expect(fs.existsSync(sockOf(root))).toBe(false);
  }, 120_000);

  it("stops when a codeslice of another version calls, which answers in-process and starts its own", async () => {
    const { root, pid } = await servedProject();
    // Another version: this build's dist/ under a package.json that says so.
    const pkg = temps.make();
    fs.cpSync(path.join(repoRoot, "dist"), path.join(pkg, "dist"), { recursive: true });
    fs.symlinkSync(path.join(repoRoot, "wasm"), path.join(pkg, "wasm"));
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(pkg, "node_modules"));
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
    fs.writeFileSync(
      path.join(pkg, "package.json"),
      JSON.stringify({ ...manifest, version: `${manifest.version}-other` }),
    );
    const otherCli = path.join(pkg, "dist", "cli", "main.js");
    const r = call(["callers", "price_of"], root, warmEnv(), otherCli);
    expect(text(r)).toEqual(text(inProcess(["callers", "price_of"], root)));
    await waitFor("the old server to exit", () => !alive(pid), 10_000);
    const next = await serverPid(root);
    expect(next).not.toBe(pid);
    // The new server is the other version's: it answers that version's calls.
    expect(call(["callers", "price_of"], root, warmEnv(), otherCli).status).toBe(0);
    expect(stop(root)).toBe(1);
  }, 180_000);

  it("answers in-process after its server was killed (a stale socket), then starts a new one", async () => {
    const { root, pid } = await servedProject();
    process.kill(pid, "SIGKILL");
    await waitFor("the kill", () => !alive(pid), 10_000);
    expect(refuseSocket({ path: sockOf(root) })).toBeUndefined(); // the socket file is still there
    const r = call(["context", "Cart.total", "--budget", "4000"], root);
    expect(text(r)).toEqual(text(inProcess(["context", "Cart.total", "--budget", "4000"], root)));
    await waitFor(
      "a new server",
      () => fs.existsSync(`${sockOf(root)}.pid`) && Number(fs.readFileSync(`${sockOf(root)}.pid`, "utf8")) !== pid,
    );
    await serverPid(root);
    expect(call(["signature", "Cart.total"], root).status).toBe(0);
    expect(stop(root)).toBe(1);
  }, 180_000);

  it("replaces a stale socket file no process listens on, and `stop` removes one", async () => {
    const root = makeProject();
    expect(inProcess(["signature", "Cart.total"], root).status).toBe(0); // the cache folder exists
    const staleSocket = async () => {
      const holder = spawn(
        process.execPath,
        [
          "-e",
          `process.umask(0o177); require("node:net").createServer().listen(${JSON.stringify(sockOf(root))}, () => console.log("up"))`,
        ],
        { stdio: ["ignore", "pipe", "ignore"] },
      );
      await new Promise((resolve) => holder.stdout.once("data", resolve));
      holder.kill("SIGKILL");
      await new Promise((resolve) => holder.once("exit", resolve));
      expect(refuseSocket({ path: sockOf(root) })).toBeUndefined();
    };
    await staleSocket();
    expect(text(call(["stop"], root)).stdout).toMatch(/removed its stale socket/);
    expect(fs.existsSync(sockOf(root))).toBe(false);
    await staleSocket();
    const r = call(["search", "price"], root);
    expect(text(r)).toEqual(text(inProcess(["search", "price"], root)));
    await serverPid(root);
    expect(call(["search", "price"], root).status).toBe(0);
    expect(stop(root)).toBe(1);
  }, 180_000);

  it("never talks to a socket open to other users, owned by another user, or a file that is not a socket", async () => {
    const { root } = await servedProject();
    fs.chmodSync(sockOf(root), 0o666);
    expect(refuseSocket({ path: sockOf(root) })).toBe("open_mode");
    const r = call(["signature", "Cart.total"], root);
    expect(text(r)).toEqual(text(inProcess(["signature", "Cart.total"], root)));
    const refused = text(call(["stop"], root));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/mode/);
    fs.chmodSync(sockOf(root), 0o600);
    if (process.getuid?.() === 0) {
      // Running as root, another user's socket can be made for real.
      fs.chownSync(sockOf(root), 65534, 65534);
      expect(refuseSocket({ path: sockOf(root) })).toBe("foreign_owner");
      expect(text(call(["callers", "price_of"], root))).toEqual(text(inProcess(["callers", "price_of"], root)));
      expect(text(call(["stop"], root)).stderr).toMatch(/another user/);
      fs.chownSync(sockOf(root), 0, 0);
    }
    expect(stop(root)).toBe(0); // those calls were not the server's
    // A plain file where the socket goes: answered in-process, left alone, no server started.
    fs.writeFileSync(sockOf(root), "not a socket");
    expect(refuseSocket({ path: sockOf(root) })).toBe("not_a_socket");
    expect(text(call(["map"], root))).toEqual(text(inProcess(["map"], root)));
    await new Promise((r) => setTimeout(r, 1500));
    expect(fs.readFileSync(sockOf(root), "utf8")).toBe("not a socket");
  }, 180_000);

  it("exits when its project folder is deleted", async () => {
    const { root, pid } = await servedProject();
    // The server may be writing its cache (the snapshot, the derived graph) while the folder goes:
    // rmSync retries a folder a new file landed in (ENOTEMPTY), as a user's second `rm -rf` would.
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    await waitFor("the server to exit", () => !alive(pid), 15_000);
  }, 120_000);

  it("puts a socket whose path would be too long in a private runtime folder", async () => {
    const deep = temps.make();
    const root = path.join(deep, "a-folder-name-long-enough".repeat(3), "and-another-long-folder-name".repeat(2));
    fs.mkdirSync(root, { recursive: true });
    makeProject(root);
    const location = socketLocation(root, path.join(root, ".codeslice"), { XDG_RUNTIME_DIR: runtimeDir });
    expect(Buffer.byteLength(path.join(root, ".codeslice", ".cli.sock"))).toBeGreaterThan(MAX_SOCKET_PATH_BYTES);
    expect(location.privateDir).toBe(path.join(runtimeDir, `codeslice-${process.getuid!()}`));
    expect(call(["signature", "Cart.total"], root).status).toBe(0);
    await serverPid(root, location.path);
    expect(fs.statSync(location.privateDir!).mode & 0o777).toBe(0o700);
    expect(fs.statSync(location.path).mode & 0o777).toBe(0o600);
    expect(text(call(["callers", "price_of"], root))).toEqual(text(inProcess(["callers", "price_of"], root)));
    expect(fs.existsSync(path.join(root, ".codeslice", ".cli.sock"))).toBe(false);
    expect(stop(root)).toBe(1);
    // A private folder open to others is refused.
    fs.chmodSync(location.privateDir!, 0o755);
    expect(refuseSocket(location)).toBe("open_folder");
    fs.chmodSync(location.privateDir!, 0o700);
  }, 180_000);

  it("is off under CI, with CODESLICE_NO_SERVER=1 and with --no-server", async () => {
    const root = makeProject();
    for (const [env, extra] of [
      [warmEnv({ CI: "true" }), []],
      [warmEnv({ CODESLICE_NO_SERVER: "1" }), []],
      [warmEnv(), ["--no-server"]],
    ] as const) {
      expect(call(["signature", "Cart.total", ...extra], root, env).status).toBe(0);
    }
    await new Promise((r) => setTimeout(r, 2000));
    expect(fs.existsSync(sockOf(root))).toBe(false);
    expect(serverEnabled({ CI: "true", CODESLICE_SERVER: "1" })).toBe(true);
    expect(serverEnabled({ CI: "1" })).toBe(false);
    expect(serverEnabled({ CI: "false" })).toBe(true);
    expect(serverEnabled({})).toBe(true);
  }, 120_000);
});

describe("the thin caller", () => {
  it("knows every flag of the command table that takes a value", () => {
    const table = new Set(
      COMMANDS.flatMap((c) =>
        Object.values(c.flags)
          .filter((f) => f.value !== undefined)
          .map((f) => f.name),
      ),
    );
    expect([...VALUE_FLAGS].sort()).toEqual([...table].sort());
    for (const name of SERVED_COMMANDS)
      expect(
        COMMANDS.some((c) => c.name === name),
        name,
      ).toBe(true);
  });

  it("sends only plain command lines of the commands the server answers", () => {
    const cwd = repoRoot;
    const plan = (...argv: string[]) => planWarm(argv, {}, cwd);
    expect(plan("context", "--budget", "4000", "Cart.total")?.root).toBe(fs.realpathSync(cwd));
    expect(plan("--root", "test", "map")?.root).toBe(fs.realpathSync(path.join(cwd, "test")));
    expect(plan("map", "--cache-dir", "/tmp/x")?.cacheDir).toBe("/tmp/x");
    for (const argv of [
      ["index"],
      ["graph", "--json"],
      ["changes"],
      ["mcp"],
      ["stop"],
      ["locate", "-"],
      ["map", "--help"],
      ["-h", "map"],
      ["map", "--no-server"],
      ["--version"],
      ["map", "--root"],
      ["map", "--root", "/no/such/folder"],
      ["tests", "add", "--run"],
      ["routes", "--root", "src", "--root", "test"],
      ["impact", "x", "--root=src", "--root=test"],
      [],
    ]) {
      expect(plan(...argv), argv.join(" ")).toBeUndefined();
    }
    expect(planWarm(["map"], { CODESLICE_DEBUG: "1" }, cwd)).toBeUndefined();
  });

  it("loads no engine, grammar or tokenizer on the way to the server", () => {
    // The modules main.js imports statically (a served call runs nothing else; full-cli and the
    // server are dynamic imports): none may reach the engine's packages.
    const dir = path.dirname(cli);
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = fs.readFileSync(file, "utf8");
      for (const m of source.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*"([^"]+)"/gm)) {
        const spec = m[1]!;
        expect(spec.startsWith(".") || spec.startsWith("node:"), `${path.basename(file)} imports ${spec}`).toBe(true);
        if (spec.startsWith(".")) visit(path.resolve(path.dirname(file), spec));
      }
      for (const m of source.matchAll(/^import\s*"([^"]+)"/gm)) visit(path.resolve(path.dirname(file), m[1]!));
    };
    visit(cli);
    expect(seen.size).toBeGreaterThan(1);
    for (const file of seen) {
      const source = fs.readFileSync(file, "utf8");
      expect(source, path.relative(dir, file)).not.toMatch(/web-tree-sitter|gpt-tokenizer|createEngine|flexsearch/);
    }
  });

  it("a served call loads none of node's modules it does not use: no crypto, child_process or fs streams", async () => {
    const { root } = await servedProject(); // its server is up and has answered nothing yet
    // A preload that reports, as the process exits, every module node loaded for it.
    const report = path.join(temps.make(), "modules.txt");
    const preload = path.join(temps.make(), "report.cjs");
    fs.writeFileSync(
      preload,
      `process.on("exit", () => require("fs").writeFileSync(${JSON.stringify(report)}, process.moduleLoadList.join("\\n")));\n`,
    );
    const r = spawnSync(process.execPath, ["-r", preload, cli, "signature", "Cart.total"], {
      cwd: root,
      env: warmEnv(),
    });
    expect(r.status, r.stderr.toString()).toBe(0);
    expect(r.stdout.toString()).toBe(inProcess(["signature", "Cart.total"], root).stdout.toString());
    expect(stop(root)).toBe(1); // that call was the server's
    const loaded = fs.readFileSync(report, "utf8").split("\n");
    expect(loaded).toContain("NativeModule net");
    for (const unused of ["NativeModule crypto", "NativeModule child_process", "NativeModule internal/fs/streams"])
      expect(loaded, unused).not.toContain(unused);
  });
});
