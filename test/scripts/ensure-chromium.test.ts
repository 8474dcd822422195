/**
 * scripts/ensure-chromium.mjs: the lookup order (CHROMIUM_PATH, Playwright's cache, a system
 * Chromium on PATH) and provisioning when none is found, in a fake environment: temp folders
 * holding fake executables (shell scripts), PATH and CHROMIUM_PATH set per case, Playwright's
 * cache path pointed into a temp folder, and the provisioning steps or the command runner passed
 * in, so nothing here downloads a browser or runs apt.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import {
  ChromiumError,
  defaultProvisioners,
  ensureChromium,
  findChromium,
  runCommand,
  type Deps,
  type Provisioner,
} from "../../scripts/ensure-chromium.mjs";

const posix = process.platform !== "win32";
const root = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-chromium-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let dir: string;
let n = 0;
beforeEach(() => {
  dir = path.join(root, `case-${n++}`);
  fs.mkdirSync(dir);
});

/** A fake executable (a shell script unless told) at dir/rel; `body` runs when it is called. */
function fakeExe(rel: string, body = "exit 0", mode = 0o755, interpreter = "/bin/sh"): string {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!${interpreter}\n${body}\n`);
  fs.chmodSync(file, mode);
  return file;
}
const bin = (name: string) => path.join(dir, name);

/** Deps for a machine with nothing installed but what each case adds; no provisioning unless given. */
function deps(over: Partial<Deps> & { PATH?: string[]; env?: Record<string, string> } = {}): Deps & { logs: string[] } {
  const logs: string[] = [];
  const { PATH = [], env = {}, ...rest } = over;
  return {
    env: { PATH: PATH.join(path.delimiter), ...env },
    platform: process.platform,
    playwrightPath: () => path.join(dir, "ms-playwright/chromium-1255/chrome-linux64/chrome"),
    isRoot: false,
    osRelease: () => undefined,
    provisioners: [],
    log: (m: string) => logs.push(m),
    ...rest,
    logs,
  };
}

describe.runIf(posix)("lookup order", () => {
  it("CHROMIUM_PATH first, over Playwright's cache and PATH", () => {
    const mine = fakeExe("mine/chrome");
    fakeExe("ms-playwright/chromium-1255/chrome-linux64/chrome");
    fakeExe("bin/chromium");
    const d = deps({ PATH: [bin("bin")], env: { CHROMIUM_PATH: mine } });
    expect(ensureChromium(d)).toEqual({ path: mine, source: "CHROMIUM_PATH" });
  });

  it("an explicit CHROMIUM_PATH that is not executable is an error, not a fallback", () => {
    fakeExe("bin/chromium");
    const notExe = fakeExe("mine/chrome", "exit 0", 0o644);
    for (const p of [path.join(dir, "missing/chrome"), notExe, dir]) {
      const d = deps({ PATH: [bin("bin")], env: { CHROMIUM_PATH: p } });
      expect(() => ensureChromium(d)).toThrow(ChromiumError);
      expect(() => ensureChromium(d)).toThrow(`CHROMIUM_PATH=${p} is not an executable file`);
    }
  });

  it("then Playwright's browser cache, when the file is there", () => {
    const cached = fakeExe("ms-playwright/chromium-1255/chrome-linux64/chrome");
    fakeExe("bin/chromium");
    expect(findChromium(deps({ PATH: [bin("bin")] }))).toEqual({ path: cached, source: "Playwright's browser cache" });
  });

  it("then a system one on PATH: chromium, chromium-browser, google-chrome, google-chrome-stable", () => {
    fakeExe("a/google-chrome-stable");
    fakeExe("b/google-chrome");
    const PATH = [bin("empty"), bin("a"), bin("b"), bin("c")];
    expect(findChromium(deps({ PATH }))).toEqual({ path: bin("b/google-chrome"), source: "google-chrome on PATH" });
    fakeExe("c/chromium-browser");
    expect(findChromium(deps({ PATH }))).toEqual({
      path: bin("c/chromium-browser"),
      source: "chromium-browser on PATH",
    });
    fakeExe("c/chromium");
    expect(findChromium(deps({ PATH }))?.path).toBe(bin("c/chromium"));
    // Playwright's cache path that is only a prediction (no file) does not count.
    expect(findChromium(deps({ PATH }))?.source).toBe("chromium on PATH");
  });

  it("skips files that are not executable, and folders with the name", () => {
    fakeExe("a/chromium", "exit 0", 0o644);
    fs.mkdirSync(bin("b/chromium"), { recursive: true });
    fakeExe("c/chromium");
    expect(findChromium(deps({ PATH: [bin("a"), bin("b"), bin("c")] }))?.path).toBe(bin("c/chromium"));
  });

  it("CODESLICE_CHROMIUM_SKIP_SYSTEM=1 hides PATH, not CHROMIUM_PATH or Playwright's cache", () => {
    fakeExe("bin/chromium");
    const PATH = [bin("bin")];
    expect(findChromium(deps({ PATH, env: { CODESLICE_CHROMIUM_SKIP_SYSTEM: "1" } }))).toBeUndefined();
    expect(findChromium(deps({ PATH, env: { CODESLICE_CHROMIUM_SKIP_SYSTEM: "0" } }))?.path).toBe(bin("bin/chromium"));
    const cached = fakeExe("ms-playwright/chromium-1255/chrome-linux64/chrome");
    expect(findChromium(deps({ PATH, env: { CODESLICE_CHROMIUM_SKIP_SYSTEM: "1" } }))?.path).toBe(cached);
  });
});

describe.runIf(posix)("provisioning", () => {
  /** A step that records its call and returns what `result` makes. */
  function step(
    name: string,
    calls: string[],
    result: () => ReturnType<Provisioner["run"]>,
    applies = true,
  ): Provisioner {
    return { name, describe: `doing ${name}`, applies: () => applies, run: () => (calls.push(name), result()) };
  }

  it("is not reached when the lookup finds a Chromium", () => {
    fakeExe("bin/chromium");
    const calls: string[] = [];
    const d = deps({ PATH: [bin("bin")], provisioners: [step("first", calls, () => ({ error: "x" }))] });
    expect(ensureChromium(d).path).toBe(bin("bin/chromium"));
    expect(calls).toEqual([]);
    expect(d.logs).toEqual([]);
  });

  it("tries the steps that apply, in order, until one yields an executable; says so on the log", () => {
    const calls: string[] = [];
    const d = deps({
      provisioners: [
        step("not here", calls, () => ({ path: fakeExe("never/chrome") }), false),
        step("fails", calls, () => ({ error: "exit 1" })),
        step("throws", calls, () => {
          throw new Error("boom");
        }),
        step("no file", calls, () => ({ path: path.join(dir, "nothing/chrome") })),
        step("works", calls, () => ({ path: fakeExe("installed/chromium") })),
        step("after", calls, () => ({ path: fakeExe("later/chromium") })),
      ],
    });
    expect(ensureChromium(d)).toEqual({ path: bin("installed/chromium"), source: "works" });
    expect(calls).toEqual(["fails", "throws", "no file", "works"]);
    expect(d.logs).toEqual([
      "no Chromium found; doing fails…",
      "fails did not provide a Chromium (exit 1)",
      "no Chromium found; doing throws…",
      "throws did not provide a Chromium (boom)",
      "no Chromium found; doing no file…",
      "no file did not provide a Chromium (no executable afterwards)",
      "no Chromium found; doing works…",
      `using ${bin("installed/chromium")} (works)`,
    ]);
  });

  it("stops with a message saying what to install and how to set CHROMIUM_PATH", () => {
    const calls: string[] = [];
    const d = deps({ provisioners: [step("fails", calls, () => ({ error: "exit 1" }))] });
    let err: unknown;
    try {
      ensureChromium(d);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ChromiumError);
    const msg = (err as Error).message;
    expect(msg).toContain("no Chromium found");
    expect(msg).toContain("Tried: fails (exit 1)");
    expect(msg).toContain("npx playwright install chromium");
    expect(msg).toContain("apt-get install -y chromium");
    expect(msg).toContain("CHROMIUM_PATH=/path/to/chromium npm test");
  });
});

describe.runIf(posix)("default provisioning steps", () => {
  const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n';
  const UBUNTU = "ID=ubuntu\nID_LIKE=debian\n";
  const FEDORA = "ID=fedora\n";

  /** The command runner: Playwright's installer (process.execPath + cli.js) faked, the rest run for real. */
  function runner(calls: string[][], playwright: (args: string[]) => number) {
    return (cmd: string, args: string[], env: Record<string, string | undefined>) => {
      if (cmd === process.execPath) {
        calls.push(["playwright", ...args.slice(1)]);
        return playwright(args.slice(1));
      }
      calls.push([path.basename(cmd), ...args]);
      return runCommand(cmd, args, env);
    };
  }

  /**
   * A fake apt-get on PATH (a Node script, so it needs nothing else on the fake PATH) that logs its
   * arguments to apt.log and "installs" chromium into usr/bin, also on PATH.
   */
  function fakeAptGet(failFirstInstall = false) {
    fs.mkdirSync(bin("usr/bin"), { recursive: true });
    const js = `
      const fs = require("node:fs");
      const args = process.argv.slice(2).join(" ");
      fs.appendFileSync(${JSON.stringify(bin("apt.log"))}, args + "\\n");
      const installs = fs.readFileSync(${JSON.stringify(bin("apt.log"))}, "utf8").split("\\n").filter((l) => l.includes("install")).length;
      if (${failFirstInstall} && installs === 1) process.exit(100);
      if (/install .*chromium/.test(args)) fs.writeFileSync(${JSON.stringify(bin("usr/bin/chromium"))}, "#!/bin/sh\\n", { mode: 0o755 });
    `;
    fakeExe("sbin/apt-get", js, 0o755, process.execPath);
  }

  const names = (d: Deps) =>
    defaultProvisioners(d as Required<Omit<Deps, "provisioners">>)
      .filter((s) => s.applies())
      .map((s) => s.name);

  it("apply: Playwright's installer everywhere; Debian's package only as root on Debian/Ubuntu with apt-get on PATH", () => {
    fakeAptGet();
    const PATH = [bin("sbin"), bin("usr/bin")];
    const base = {
      env: { PATH: PATH.join(path.delimiter) },
      platform: "linux" as const,
      isExecutable: (f: string) => fs.existsSync(f) && fs.statSync(f).isFile(),
    };
    const both = ["Playwright's installer", "Debian's chromium package"];
    expect(names({ ...deps({ PATH }), ...base, isRoot: true, osRelease: () => DEBIAN })).toEqual(both);
    expect(names({ ...deps({ PATH }), ...base, isRoot: true, osRelease: () => UBUNTU })).toEqual(both);
    expect(names({ ...deps({ PATH }), ...base, isRoot: false, osRelease: () => DEBIAN })).toEqual([
      "Playwright's installer",
    ]);
    expect(names({ ...deps({ PATH }), ...base, isRoot: true, osRelease: () => FEDORA })).toEqual([
      "Playwright's installer",
    ]);
    expect(
      names({
        ...deps({ PATH: [bin("usr/bin")] }),
        ...base,
        env: { PATH: bin("usr/bin") },
        isRoot: true,
        osRelease: () => DEBIAN,
      }),
    ).toEqual(["Playwright's installer"]);
    expect(names({ ...deps({ PATH }), ...base, platform: "darwin", isRoot: true, osRelease: () => DEBIAN })).toEqual([
      "Playwright's installer",
    ]);
    expect(
      names({ ...deps({ PATH }), ...base, playwrightPath: () => undefined, isRoot: true, osRelease: () => DEBIAN }),
    ).toEqual(["Debian's chromium package"]);
  });

  it("where Playwright can download: its installer, then its libraries as root with apt-get", () => {
    fakeAptGet();
    const calls: string[][] = [];
    const cache = path.join(dir, "ms-playwright/chromium-1255/chrome-linux64/chrome");
    const d = deps({
      PATH: [bin("sbin"), bin("usr/bin")],
      platform: "linux",
      isRoot: true,
      osRelease: () => DEBIAN,
      run: runner(calls, (args) => (args[0] === "install" ? (fakeExe(path.relative(dir, cache)), 0) : 0)),
    });
    delete d.provisioners; // the defaults
    expect(ensureChromium(d)).toEqual({ path: cache, source: "Playwright's installer" });
    expect(calls).toEqual([
      ["playwright", "install", "chromium"],
      ["playwright", "install-deps", "chromium"],
    ]);
    expect(d.logs[0]).toBe("no Chromium found; installing Playwright's Chromium (npx playwright install chromium)…");
    expect(fs.existsSync(bin("apt.log"))).toBe(false);
  });

  it("where it cannot, as root on Debian: apt-get install -y chromium, found even with the system lookup skipped", () => {
    fakeAptGet();
    const calls: string[][] = [];
    const d = deps({
      PATH: [bin("sbin"), bin("usr/bin")],
      env: { CODESLICE_CHROMIUM_SKIP_SYSTEM: "1" },
      platform: "linux",
      isRoot: true,
      osRelease: () => DEBIAN,
      run: runner(calls, () => 1),
    });
    delete d.provisioners;
    expect(ensureChromium(d)).toEqual({ path: bin("usr/bin/chromium"), source: "Debian's chromium package" });
    expect(calls.map((c) => c.slice(0, 3).join(" "))).toEqual([
      "playwright install chromium",
      "apt-get -o DPkg::Lock::Timeout=300",
    ]);
    expect(calls[1]).toEqual(["apt-get", "-o", "DPkg::Lock::Timeout=300", "install", "-y", "chromium"]);
    expect(d.logs).toContain("no Chromium found; installing Debian's chromium package (apt-get install -y chromium)…");
    expect(d.logs.at(-1)).toBe(`using ${bin("usr/bin/chromium")} (Debian's chromium package)`);
  });

  it("apt-get update and a retry when the first install fails (no package lists yet)", () => {
    fakeAptGet(true);
    const d = deps({
      PATH: [bin("sbin"), bin("usr/bin")],
      platform: "linux",
      isRoot: true,
      osRelease: () => DEBIAN,
      run: runner([], () => 1),
    });
    delete d.provisioners;
    expect(ensureChromium(d).path).toBe(bin("usr/bin/chromium"));
    expect(fs.readFileSync(bin("apt.log"), "utf8").split("\n").filter(Boolean)).toEqual([
      "-o DPkg::Lock::Timeout=300 install -y chromium",
      "-o DPkg::Lock::Timeout=300 update",
      "-o DPkg::Lock::Timeout=300 install -y chromium",
    ]);
  });

  it("not root: only Playwright's installer, and when it fails, the message", () => {
    fakeAptGet();
    const calls: string[][] = [];
    const d = deps({
      PATH: [bin("sbin"), bin("usr/bin")],
      platform: "linux",
      isRoot: false,
      osRelease: () => DEBIAN,
      run: runner(calls, () => 1),
    });
    delete d.provisioners;
    expect(() => ensureChromium(d)).toThrow(
      /no Chromium found[\s\S]*Tried: Playwright's installer \(exit 1\)[\s\S]*CHROMIUM_PATH=/,
    );
    expect(calls).toEqual([["playwright", "install", "chromium"]]);
    expect(fs.existsSync(bin("apt.log"))).toBe(false);
  });
});
