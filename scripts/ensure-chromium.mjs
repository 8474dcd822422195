#!/usr/bin/env node
// Finds the Chromium the browser tests launch, and provisions one when there is none.
//
// Lookup, in order:
//   1. CHROMIUM_PATH (explicit: used as given, an error if it is not an executable file);
//   2. Playwright's own browser cache (playwright-core's `chromium.executablePath()`, if it exists);
//   3. a system one on PATH: chromium, chromium-browser, google-chrome, google-chrome-stable.
// When none is present, provisioning, in order, the first that yields an executable wins:
//   a. Playwright's installer (`npx playwright install chromium`; here run as playwright-core's
//      cli.js), which works where cdn.playwright.dev is reachable; as root with apt-get it then
//      adds the system libraries (`playwright install-deps chromium`);
//   b. Debian's package (`apt-get install -y chromium`) when running as root on Debian/Ubuntu
//      with apt-get on PATH (`apt-get update` and a retry if the first attempt fails);
//   otherwise it stops with a message saying what to install and how to set CHROMIUM_PATH.
// What it does goes to stderr ("codeslice tests: …").
//
// Usage:
//   node scripts/ensure-chromium.mjs                  prints the executable's path on stdout
//   node scripts/ensure-chromium.mjs <cmd> [args…]    runs <cmd> with CHROMIUM_PATH set to it
//                                                     (`npm test` runs the browser suite this way)
// From code: `ensureChromium()` returns { path, source }; every dependency (environment, file
// checks, Playwright's cache path, the provisioning steps, the log) can be passed in, which is how
// test/scripts/ensure-chromium.test.ts checks the order without touching the machine.
//
// CODESLICE_CHROMIUM_SKIP_SYSTEM=1 hides the system Chromium from the lookup (step 3), to exercise
// provisioning on a machine that has one; a package that provisioning installs is still found.
import { spawnSync } from "node:child_process";
import { accessSync, constants, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const PREFIX = "codeslice tests:";
/** Names a system Chromium goes by, in the order they are preferred. */
export const SYSTEM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
/** Long enough for a ~170 MB download or an apt install on a slow line. */
const INSTALL_TIMEOUT_MS = 20 * 60_000;

/** True for an existing regular file this process may execute. */
export function isExecutableFile(file, platform = process.platform) {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== "win32") accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where playwright-core keeps (or would keep) its Chromium; undefined without playwright-core. */
export function playwrightChromiumPath() {
  try {
    return require("playwright-core").chromium.executablePath() || undefined;
  } catch {
    return undefined; // playwright-core absent, or a platform it has no build for
  }
}

/** First of `names` found in the directories of env.PATH (names in order, then PATH order). */
export function whichFirst(names, { env, platform, isExecutable }) {
  const dirs = (env.PATH ?? env.Path ?? "").split(platform === "win32" ? ";" : ":").filter(Boolean);
  const exts = platform === "win32" ? [".exe", ""] : [""];
  for (const name of names) {
    for (const dir of dirs) {
      for (const ext of exts) {
        const file = path.join(dir, name + ext);
        if (isExecutable(file)) return { path: file, name };
      }
    }
  }
  return undefined;
}

function resolveDeps(deps = {}) {
  const env = deps.env ?? process.env;
  const platform = deps.platform ?? process.platform;
  const d = {
    env,
    platform,
    isExecutable: deps.isExecutable ?? ((f) => isExecutableFile(f, platform)),
    playwrightPath: deps.playwrightPath ?? playwrightChromiumPath,
    log: deps.log ?? ((msg) => process.stderr.write(`${PREFIX} ${msg}\n`)),
    isRoot: deps.isRoot ?? process.getuid?.() === 0,
    osRelease: deps.osRelease ?? readOsRelease,
    run: deps.run ?? runCommand,
  };
  return d;
}

/**
 * The lookup alone: { path, source } or undefined. Throws when CHROMIUM_PATH is set but is not an
 * executable file (an explicit choice is not silently replaced by another browser).
 */
export function findChromium(deps = {}) {
  return lookup(resolveDeps(deps));
}

function lookup(d) {
  const explicit = d.env.CHROMIUM_PATH;
  if (explicit) {
    if (!d.isExecutable(explicit))
      throw new ChromiumError(
        `CHROMIUM_PATH=${explicit} is not an executable file; point it at a Chromium or Chrome executable, or unset it to look one up.`,
      );
    return { path: explicit, source: "CHROMIUM_PATH" };
  }
  const cached = d.playwrightPath();
  if (cached && d.isExecutable(cached)) return { path: cached, source: "Playwright's browser cache" };
  if (!truthy(d.env.CODESLICE_CHROMIUM_SKIP_SYSTEM)) {
    const sys = whichFirst(SYSTEM_NAMES, d);
    if (sys) return { path: sys.path, source: `${sys.name} on PATH` };
  }
  return undefined;
}

/**
 * The lookup, then provisioning when it finds nothing. Returns { path, source }; throws a
 * ChromiumError whose message says what to install when nothing could be provisioned.
 */
export function ensureChromium(deps = {}) {
  const d = resolveDeps(deps);
  const found = lookup(d);
  if (found) return found;
  const tried = [];
  for (const step of deps.provisioners ?? defaultProvisioners(d)) {
    if (!step.applies()) continue;
    d.log(`no Chromium found; ${step.describe}…`);
    let result;
    try {
      result = step.run();
    } catch (e) {
      result = { error: e instanceof Error ? e.message : String(e) };
    }
    if (result?.path && d.isExecutable(result.path)) {
      d.log(`using ${result.path} (${step.name})`);
      return { path: result.path, source: step.name };
    }
    const why = result?.error ?? "no executable afterwards";
    d.log(`${step.name} did not provide a Chromium (${why})`);
    tried.push(`${step.name} (${why})`);
  }
  throw new ChromiumError(notFoundMessage(d, tried));
}

export class ChromiumError extends Error {
  name = "ChromiumError";
}

function notFoundMessage(d, tried) {
  const cache = d.playwrightPath();
  const skipped = truthy(d.env.CODESLICE_CHROMIUM_SKIP_SYSTEM) ? " (skipped: CODESLICE_CHROMIUM_SKIP_SYSTEM)" : "";
  return [
    `no Chromium found. Looked at CHROMIUM_PATH (unset), Playwright's browser cache${cache ? ` (${cache})` : ""} and ${SYSTEM_NAMES.join(", ")} on PATH${skipped}.`,
    tried.length
      ? `Tried: ${tried.join("; ")}.`
      : "Nothing could be installed automatically here (Playwright's installer needs playwright-core; apt-get needs root on Debian/Ubuntu).",
    "Install one, then run the tests again:",
    "  npx playwright install chromium            (Playwright's build, where cdn.playwright.dev is reachable)",
    "  sudo apt-get install -y chromium           (Debian; on other systems, their chromium or google-chrome package)",
    "or point CHROMIUM_PATH at a Chromium or Chrome executable:",
    "  CHROMIUM_PATH=/path/to/chromium npm test",
  ].join("\n");
}

/** The default provisioning steps, in order; each says whether it applies here. */
export function defaultProvisioners(d) {
  const debianLike = () => /^(ID|ID_LIKE)=.*\b(debian|ubuntu)\b/m.test(d.osRelease() ?? "");
  const aptGet = () => whichFirst(["apt-get"], d)?.path;
  const canApt = () => d.platform === "linux" && d.isRoot && Boolean(aptGet()) && debianLike();
  let cli;
  try {
    cli = path.join(path.dirname(require.resolve("playwright-core/package.json")), "cli.js");
  } catch {
    cli = undefined;
  }
  const aptEnv = { ...d.env, DEBIAN_FRONTEND: "noninteractive" };
  // Wait for another apt/dpkg run to finish rather than fail at once (machines shared by several jobs).
  const aptInstall = () => d.run(aptGet(), ["-o", "DPkg::Lock::Timeout=300", "install", "-y", "chromium"], aptEnv);
  return [
    {
      name: "Playwright's installer",
      describe: "installing Playwright's Chromium (npx playwright install chromium)",
      applies: () => Boolean(cli) && Boolean(d.playwrightPath()),
      run() {
        const status = d.run(process.execPath, [cli, "install", "chromium"], d.env);
        if (status !== 0) return { error: `exit ${status}` };
        const file = d.playwrightPath();
        if (file && d.isExecutable(file) && canApt()) {
          // A downloaded Chromium also needs the system's shared libraries (libnss3 and others).
          d.log("adding the libraries Playwright's Chromium needs (npx playwright install-deps chromium)…");
          const deps = d.run(process.execPath, [cli, "install-deps", "chromium"], d.env);
          if (deps !== 0) d.log(`playwright install-deps exited ${deps}; the browser may not start`);
        }
        return { path: file };
      },
    },
    {
      name: "Debian's chromium package",
      describe: "installing Debian's chromium package (apt-get install -y chromium)",
      applies: canApt,
      run() {
        let status = aptInstall();
        if (status !== 0) {
          // A fresh image often has no package lists yet.
          d.log("apt-get install failed; refreshing the package lists (apt-get update) and retrying…");
          d.run(aptGet(), ["-o", "DPkg::Lock::Timeout=300", "update"], aptEnv);
          status = aptInstall();
        }
        if (status !== 0) return { error: `apt-get exit ${status}` };
        // Found on PATH whatever CODESLICE_CHROMIUM_SKIP_SYSTEM says: this is the one just installed.
        return { path: whichFirst(["chromium", "chromium-browser"], d)?.path };
      },
    },
  ];
}

function readOsRelease() {
  try {
    return readFileSync("/etc/os-release", "utf8");
  } catch {
    return undefined;
  }
}

/** Runs a command with its output on stderr (stdout is reserved for the path); returns the exit status. */
export function runCommand(cmd, args, env) {
  const r = spawnSync(cmd, args, { env, stdio: ["ignore", 2, 2], timeout: INSTALL_TIMEOUT_MS });
  if (r.error) return `${r.error.message}`;
  return r.status ?? `signal ${r.signal}`;
}

function truthy(v) {
  return v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false";
}

// ---------------------------------------------------------------------------------------------
// Command line.

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let found;
  try {
    found = ensureChromium();
  } catch (e) {
    if (!(e instanceof ChromiumError)) throw e;
    process.stderr.write(`${PREFIX} ${e.message}\n`);
    process.exit(1);
  }
  const [cmd, ...args] = process.argv.slice(2);
  process.stderr.write(`${PREFIX} Chromium ${found.path} (${found.source})\n`);
  if (!cmd) {
    process.stdout.write(`${found.path}\n`);
  } else {
    const r = spawnSync(cmd, args, {
      stdio: "inherit",
      env: { ...process.env, CHROMIUM_PATH: found.path },
      shell: process.platform === "win32", // npm's .bin shims are .cmd files there
    });
    if (r.error) {
      process.stderr.write(`${PREFIX} could not run ${cmd}: ${r.error.message}\n`);
      process.exit(1);
    }
    process.exit(r.status ?? 1);
  }
}
