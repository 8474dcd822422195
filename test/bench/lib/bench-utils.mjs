// Shared helpers for the benchmarks in test/bench: machine description, timed child runs
// (wall time from the parent's clock, peak RSS from GNU time or an in-process wrapper),
// summary statistics and markdown tables. Node built-ins only: the benchmarks never add
// project dependencies.
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// Every benchmark measures a CLI call as it runs in-process (the engine started by the call), as
// their figures always have, and leaves no warm server behind: the warm CLI is off for the CLI
// processes they start. warm-cli-bench.mjs turns it back on for its own runs.
process.env.CODESLICE_NO_SERVER ??= "1";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository this benchmark lives in. */
export const repoRoot = path.resolve(here, "../../..");
/** The package folder the benchmarks run codeslice from: the repository, or its frozen copy. */
export let packageRoot = repoRoot;
/** The built CLI (`node scripts/build.mjs` writes it). */
export let cliPath = path.join(repoRoot, "dist/cli/main.js");
/** Where results are written; they are committed as evidence. */
export const resultsDir = path.resolve(here, "../results");
/** Cache folder for things the benchmarks download or prepare (tools, corpora, SCIP indexes). */
export const benchCache = process.env.CODESLICE_BENCH_CACHE || path.join(os.homedir(), ".cache/codeslice-bench");

const GNU_TIME = "/usr/bin/time";
export const hasGnuTime = (() => {
  try {
    execFileSync(GNU_TIME, ["-f", "%M", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** os/cpu/memory/node: what a reader needs to compare figures across machines. */
export function machine() {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model?.trim() ?? "unknown",
    cpus: cpus.length,
    memory_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    // the machines are shared: a load average near or above the CPU count means inflated timings
    load_average_1_5_15: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

let frozenRevision;
/**
 * The code under test: git commit, whether src/ differed from it, and when dist/ was built
 * (taken when ensureBuilt() froze the build).
 */
export function codesliceRevision() {
  if (frozenRevision) return frozenRevision;
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim();
    const dirty =
      execFileSync("git", ["status", "--porcelain", "--", "src"], { cwd: repoRoot, encoding: "utf8" }).trim() !== "";
    return dirty ? `${commit}+dirty-src` : commit;
  } catch {
    return "unknown";
  }
}

/**
 * Checks that dist/ is built, then runs every measurement from a frozen copy of it (dist/, wasm/,
 * package.json, with node_modules linked): a rebuild in the working tree during a long benchmark
 * (several people share these machines) would otherwise mix two builds or fail half-way.
 */
export function ensureBuilt() {
  if (!fs.existsSync(cliPath)) {
    console.error(
      `${path.relative(process.cwd(), cliPath)} is missing: run \`node scripts/build.mjs\` (or \`npm run build\`) first.`,
    );
    process.exit(1);
  }
  const builtAt = fs.statSync(cliPath).mtime.toISOString().slice(0, 19).replace("T", " ");
  frozenRevision = `${codesliceRevision()} (dist built ${builtAt} UTC)`;
  const frozen = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-bench-build-"));
  process.on("exit", () => fs.rmSync(frozen, { recursive: true, force: true }));
  for (const item of ["dist", "wasm", "package.json"])
    fs.cpSync(path.join(repoRoot, item), path.join(frozen, item), { recursive: true });
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(frozen, "node_modules"), "dir");
  packageRoot = frozen;
  cliPath = path.join(frozen, "dist/cli/main.js");
  execFileSync(process.execPath, [cliPath, "--version"], { stdio: "ignore" }); // a half-written build fails here, not mid-run
}

/**
 * Runs `node <cli> ...args` once. stdout goes to `stdoutFile` (a file, not a pipe, so a slow
 * reader never stalls the child and the wall time is the CLI's own). Returns wall seconds and,
 * when measurable, peak RSS in MB and CPU seconds (user + sys; with GNU time only). CPU time
 * moves less than wall time when other work shares the machine. With `mainCpu`, also the CPU
 * seconds of the main (engine) thread alone (Linux; null elsewhere). `cli`: another build's
 * dist/cli/main.js (default: this checkout's).
 */
export async function runCli(args, { stdoutFile, measureRss = true, mainCpu = false, cli = cliPath } = {}) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-run-"));
  const out = stdoutFile ?? path.join(tmp, "stdout");
  const rssFile = path.join(tmp, "rss");
  const mainCpuFile = path.join(tmp, "main-cpu");
  // mainCpu: also the engine (main) thread's own CPU seconds, written on exit by a preload
  const node = mainCpu
    ? [process.execPath, "--import", pathToFileURL(path.join(here, "main-cpu-preload.mjs")).href]
    : [process.execPath];
  let cmd = node[0];
  let argv = [...node.slice(1), cli, ...args];
  if (measureRss && hasGnuTime) {
    cmd = GNU_TIME;
    argv = ["-f", "%M %U %S", "-o", rssFile, ...node, cli, ...args];
  } else if (measureRss) {
    // No GNU time: run the CLI inside a wrapper that records its own maxRSS on exit.
    argv = [...node.slice(1), path.join(here, "rss-wrapper.mjs"), rssFile, cli, ...args];
  }
  const fd = fs.openSync(out, "w");
  const stderr = [];
  const t0 = process.hrtime.bigint();
  const code = await new Promise((resolve, reject) => {
    const env = mainCpu ? { ...process.env, CODESLICE_BENCH_MAIN_CPU: mainCpuFile } : process.env;
    const child = spawn(cmd, argv, { stdio: ["ignore", fd, "pipe"], env });
    child.stderr.on("data", (b) => stderr.push(b));
    child.on("error", reject);
    child.on("close", (c) => resolve(c));
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  fs.closeSync(fd);
  let rssMb = null,
    cpu = null;
  if (measureRss && fs.existsSync(rssFile)) {
    // GNU time: "maxrss_kb user_s sys_s" on the last line; the wrapper: "maxrss_kb"
    const [kb, user, sys] = fs.readFileSync(rssFile, "utf8").trim().split("\n").pop().split(/\s+/).map(Number);
    if (Number.isFinite(kb)) rssMb = kb / 1024;
    if (Number.isFinite(user) && Number.isFinite(sys)) cpu = user + sys;
  }
  const engineCpu = mainCpu && fs.existsSync(mainCpuFile) ? Number(fs.readFileSync(mainCpuFile, "utf8")) : null;
  const stdout = stdoutFile ? null : fs.readFileSync(out, "utf8");
  fs.rmSync(tmp, { recursive: true, force: true });
  if (code !== 0) {
    throw new Error(
      `codeslice ${args.join(" ")} exited with ${code}\n${Buffer.concat(stderr).toString().slice(-2000)}`,
    );
  }
  return { wall, cpu, rssMb, mainCpu: engineCpu, stdout };
}

/** median / min / max of a list of numbers. */
export function stats(values) {
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  const median = n === 0 ? NaN : n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return { median, min: v[0], max: v[n - 1], runs: n, values };
}

/** A markdown table from a header row and data rows. */
export function mdTable(header, rows) {
  const line = (cells) => `| ${cells.map((c) => String(c).replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

export const fmt = (x, digits = 3) => (x == null || Number.isNaN(x) ? "–" : Number(x).toFixed(digits));

/** Tiny argv parser: `--flag value`, `--flag` (boolean when listed), positionals. */
export function parseArgs(argv, booleans = []) {
  const flags = {};
  const positionals = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--")) {
      const [k, v] = a.slice(2).split("=", 2);
      if (v !== undefined) flags[k] = v;
      else if (booleans.includes(k)) flags[k] = true;
      else flags[k] = argv[++i];
    } else positionals.push(a);
  }
  return { flags, positionals };
}

export function writeJson(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(data, null, 1) + "\n");
}

/** `git init && git add -A && git commit` with a fixed identity (corpora are throwaway repos). */
export function gitCommitAll(dir, message) {
  const git = (...a) => execFileSync("git", a, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.email=bench@codeslice.invalid", "-c", "user.name=codeslice-bench", "commit", "-qm", message);
}

/** Copies a directory tree, leaving out `__pycache__` folders. */
export function copyWithoutPycache(from, to) {
  fs.cpSync(from, to, { recursive: true, filter: (src) => path.basename(src) !== "__pycache__" });
}

export const DJANGO_SOURCE = "/usr/lib/python3/dist-packages/django";

/** Installed version of a Debian package, or null. */
export function debianVersion(pkg) {
  try {
    return execFileSync("dpkg-query", ["-W", "-f=${Version}", pkg], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

/**
 * The corpus a benchmark runs on: the folder given as its first argument (named by `--name` or
 * its base name), else Debian's django prepared under `scratch` (see prepareDjango).
 */
export function benchCorpus(positionals, flags, scratch) {
  if (positionals[0]) {
    const corpus = path.resolve(positionals[0]);
    return { corpus, corpusName: flags.name ?? path.basename(corpus) };
  }
  const { corpus, version } = prepareDjango(path.join(scratch, "django-repo"));
  return { corpus, corpusName: flags.name ?? "django", version };
}

/**
 * The default corpus of the speed benchmarks: Debian's python3-django copied into `<dir>/django`
 * without __pycache__ and committed to a fresh git repo. Exits with the apt-get command when the
 * package is missing.
 */
export function prepareDjango(dir) {
  if (!fs.existsSync(DJANGO_SOURCE)) {
    console.error(`${DJANGO_SOURCE} is missing. Install the default corpus with:\n  apt-get install -y python3-django`);
    process.exit(1);
  }
  const version = debianVersion("python3-django");
  copyWithoutPycache(DJANGO_SOURCE, path.join(dir, "django"));
  gitCommitAll(dir, `django ${version} from Debian`);
  return { corpus: dir, version };
}

/** Files under `root` (dot-named entries left out) whose path `accept` takes, sorted, as absolute paths. */
export function sourceFiles(root, accept) {
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith(".")) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && accept(p)) files.push(p);
    }
  };
  walk(root);
  return files.sort();
}

/**
 * The files a cold index parses, as parse-floor lists them: `git ls-files` of `root`, each in the
 * language `languagesForProject` gives it, not skipped by name, in `langs` when given, read as text,
 * one file per distinct (language, text).
 */
export function indexedFiles(root, { languagesForProject, skipByName, langs }) {
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 })
    .split("\0")
    .filter(Boolean);
  const languageOf = languagesForProject(tracked);
  const seen = new Set();
  const out = [];
  for (const file of tracked) {
    const spec = languageOf(file);
    if (!spec || skipByName(file) !== undefined || (langs && !langs.has(spec.id))) continue;
    let text;
    try {
      text = fs.readFileSync(path.join(root, file), "utf8");
    } catch {
      continue;
    }
    const key = `${spec.id}\0${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file, spec, text });
  }
  return out;
}
