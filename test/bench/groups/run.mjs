#!/usr/bin/env node
// Repository groups: the FastAPI full-stack template's backend and frontend as two repositories (routes and their frontend callers against a hand-made list), and one MCP session over django + the template (warm p50 of route_map, grep, search).
//
// Builds its corpora from a pinned commit of github.com/fastapi/full-stack-fastapi-template
// (--template: a clone URL or a local git directory holding that commit) into --out (default
// /work/corpora/groups25, never inside this repository):
//   template-backend/, template-frontend/   backend/ and frontend/ each committed as its own git repository
//   template/                               the whole template at that commit, one repository
//   django/                                 Debian's django (apt-get install -y python3-django), committed
// Then:
//   * routes   `codeslice routes --root api=template-backend --root web=template-frontend --json`
//              against test/bench/groups/template-contract.json (made by reading the template's code):
//              every backend route listed; for each route the frontend calls, its frontend call sites
//              exactly (path:line and the method they are in)
//   * impact   `impact` of every backend handler in the group: the frontend call site it crosses to
//   * latency  one `codeslice mcp --root django=… --root template=…` session over stdio (the SDK's
//              Client): after a warm-up round, --rounds rounds of route_map, grep and search
//              (alternating repo), p50 / p95 per tool
// The machines are shared: the load average at start and end is recorded next to the figures.
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- groups [--template DIR|URL] [--out DIR] [--rounds N]
// Output: a table on stdout and test/bench/results/groups.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../../..");
const cli = path.join(repoRoot, "dist", "cli", "main.js");
const contract = JSON.parse(fs.readFileSync(path.join(here, "template-contract.json"), "utf8"));
const COMMIT = contract.commit;
const DJANGO = "/usr/lib/python3/dist-packages/django";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const TEMPLATE = opt("template", "https://github.com/fastapi/full-stack-fastapi-template.git");
const OUT = path.resolve(opt("out", "/work/corpora/groups25"));
const ROUNDS = Number(opt("rounds", "30"));
if (path.relative(repoRoot, OUT).split(path.sep)[0] !== "..")
  throw new Error(`--out ${OUT} is inside this repository; corpora live outside it`);

const git = (cwd, ...a) => execFileSync("git", a, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const COMMIT_ENV = {
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};

/** A folder committed as a fresh git repository, unless it already is one. */
function commitFolder(dir) {
  if (fs.existsSync(path.join(dir, ".git"))) return;
  execFileSync("git", ["init", "-q"], { cwd: dir });
  execFileSync("git", ["add", "-A"], { cwd: dir });
  execFileSync("git", ["commit", "-qm", "corpus"], { cwd: dir, env: { ...process.env, ...COMMIT_ENV } });
}

function buildCorpora() {
  fs.mkdirSync(OUT, { recursive: true });
  const src = path.join(OUT, `template-src-${COMMIT.slice(0, 12)}`);
  if (!fs.existsSync(src)) {
    execFileSync("git", ["clone", "-q", "--no-checkout", TEMPLATE, src]);
    git(src, "checkout", "-q", COMMIT);
  }
  if (git(src, "rev-parse", "HEAD").trim() !== COMMIT) throw new Error(`${src} is not at ${COMMIT}`);
  for (const [part, dir] of [
    ["backend", "template-backend"],
    ["frontend", "template-frontend"],
    [".", "template"],
  ]) {
    const dest = path.join(OUT, dir);
    if (!fs.existsSync(dest)) {
      fs.mkdirSync(dest);
      execFileSync(
        "sh",
        [
          "-c",
          `git archive ${COMMIT} ${part === "." ? "" : part} | tar -x -C "${dest}"${part === "." ? "" : ` --strip-components=1`}`,
        ],
        { cwd: src },
      );
    }
    commitFolder(dest);
  }
  const django = path.join(OUT, "django");
  if (!fs.existsSync(django)) {
    if (!fs.existsSync(DJANGO)) throw new Error(`${DJANGO} is missing: apt-get install -y python3-django`);
    fs.cpSync(DJANGO, django, { recursive: true, filter: (p) => !p.includes("__pycache__") });
  }
  commitFolder(django);
}

const norm = (p) =>
  p
    .replace(/\/+$/, "")
    .split("/")
    .map((s) => (/^\{.*\}$/.test(s) ? "*" : s))
    .join("/");
const key = (method, p) => `${method} ${norm(p)}`;

function routesCheck() {
  const api = path.join(OUT, "template-backend");
  const web = path.join(OUT, "template-frontend");
  const started = performance.now();
  const out = execFileSync(
    process.execPath,
    [cli, "routes", "--root", `api=${api}`, "--root", `web=${web}`, "--json", "--budget", "20000", "--no-server"],
    { encoding: "utf8", maxBuffer: 64 << 20 },
  );
  const ms = performance.now() - started;
  const answer = JSON.parse(out);
  const got = new Map(answer.routes.filter((r) => r.repo === "api").map((r) => [key(r.method, r.path), r]));
  const listed = contract.routes.filter((r) => got.has(key(r.method, r.path)));
  const called = contract.routes.filter((r) => r.calls.length);
  const rows = [];
  let exact = 0;
  for (const r of called) {
    const found = got.get(key(r.method, r.path));
    const sites = (found?.clients ?? [])
      .filter((c) => c.repo === "web")
      .map((c) => `${c.path}:${c.line} ${c.caller}`)
      .sort();
    const want = [...r.calls].sort();
    const ok = JSON.stringify(sites) === JSON.stringify(want);
    if (ok) exact++;
    else rows.push({ route: `${r.method} ${r.path}`, want, got: sites });
  }
  const extra = [...got.keys()].filter((k) => !contract.routes.some((r) => key(r.method, r.path) === k));
  return {
    ms: Math.round(ms),
    backendRoutes: contract.routes.length,
    listed: listed.length,
    extraRoutes: extra,
    frontendCalled: called.length,
    exactCallSites: exact,
    share: exact / called.length,
    misses: rows,
  };
}

function impactCheck() {
  const api = path.join(OUT, "template-backend");
  const web = path.join(OUT, "template-frontend");
  const answer = JSON.parse(
    execFileSync(process.execPath, [cli, "routes", "--root", api, "--json", "--budget", "20000", "--no-server"], {
      encoding: "utf8",
      maxBuffer: 64 << 20,
    }),
  );
  let crossed = 0;
  const misses = [];
  for (const r of answer.routes.filter((x) => x.handler && !x.test)) {
    const want = contract.routes.find((c) => key(c.method, c.path) === key(r.method, r.path));
    const out = JSON.parse(
      execFileSync(
        process.execPath,
        [cli, "impact", r.handler, "--root", `api=${api}`, "--root", `web=${web}`, "--json", "--no-server"],
        { encoding: "utf8", maxBuffer: 64 << 20 },
      ),
    );
    const wantSites = (want?.calls ?? []).map((c) => `web:${c.split(" ")[0]}`);
    if (wantSites.every((s) => out.crossRepoCallers.includes(s))) crossed++;
    else misses.push({ handler: r.handler, want: wantSites, got: out.crossRepoCallers });
  }
  return { handlers: answer.routes.filter((x) => x.handler && !x.test).length, crossed, misses };
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function latency() {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      cli,
      "mcp",
      "--root",
      `django=${path.join(OUT, "django")}`,
      "--root",
      `template=${path.join(OUT, "template")}`,
    ],
    stderr: "pipe",
    cwd: os.tmpdir(),
  });
  const client = new Client({ name: "groups-bench", version: "1.0.0" });
  await client.connect(transport);
  const call = async (name, a) => {
    const t = performance.now();
    const r = await client.callTool({ name, arguments: a }, undefined, { timeout: 600_000 });
    const ms = performance.now() - t;
    if (r.isError) throw new Error(`${name} ${JSON.stringify(a)}: ${r.content[0]?.text}`);
    return ms;
  };
  const coldStart = performance.now();
  await call("repos", {});
  const cold = performance.now() - coldStart;
  const calls = {
    route_map: (i) => [{}, { prefix: "/api/v1/items" }, { method: "GET" }][i % 3],
    grep: (i) =>
      [
        { pattern: "def get_queryset", repo: "django" },
        { pattern: "API_V1_STR", repo: "template" },
        { pattern: "class \\w+Form\\(", repo: "django" },
        { pattern: "useQuery", repo: "template" },
      ][i % 4],
    search: (i) =>
      [
        { query: "queryset filter", repo: "django" },
        { query: "create item", repo: "template" },
        { query: "password reset token", repo: "django" },
        { query: "login access token", repo: "template" },
      ][i % 4],
  };
  // Warm-up: the search index, grep's kept texts and the contracts are built on first use.
  for (const [name, make] of Object.entries(calls)) for (let i = 0; i < 4; i++) await call(name, make(i));
  const times = Object.fromEntries(Object.keys(calls).map((n) => [n, []]));
  for (let i = 0; i < ROUNDS; i++)
    for (const [name, make] of Object.entries(calls)) times[name].push(await call(name, make(i)));
  await client.close();
  return {
    coldIndexMs: Math.round(cold),
    rounds: ROUNDS,
    ...Object.fromEntries(
      Object.entries(times).map(([n, xs]) => [
        n,
        { p50: +pct(xs, 50).toFixed(1), p95: +pct(xs, 95).toFixed(1), max: +Math.max(...xs).toFixed(1) },
      ]),
    ),
  };
}

const loadStart = os.loadavg()[0];
buildCorpora();
const routes = routesCheck();
const impact = impactCheck();
const lat = await latency();
const result = {
  commit: COMMIT,
  machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model}`,
  load: { start: +loadStart.toFixed(2), end: +os.loadavg()[0].toFixed(2) },
  routes,
  impact,
  latency: lat,
};
fs.mkdirSync(path.join(here, "..", "results"), { recursive: true });
fs.writeFileSync(path.join(here, "..", "results", "groups.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(`| measure | figure |\n| --- | --- |`);
console.log(
  `| backend routes listed | ${routes.listed}/${routes.backendRoutes} (extra: ${routes.extraRoutes.length}) |`,
);
console.log(
  `| frontend-called routes with exactly the hand-listed call sites | ${routes.exactCallSites}/${routes.frontendCalled} (${(100 * routes.share).toFixed(1)}%) |`,
);
console.log(`| impact of a handler crosses to its frontend call sites | ${impact.crossed}/${impact.handlers} |`);
for (const n of ["route_map", "grep", "search"])
  console.log(
    `| ${n} warm over django + template (ms) | p50 ${lat[n].p50}, p95 ${lat[n].p95}, max ${lat[n].max} (${ROUNDS} rounds) |`,
  );
console.log(`| first call (index both, cache as found) | ${lat.coldIndexMs} ms |`);
console.log(`load average ${result.load.start} → ${result.load.end}; ${result.machine}`);
if (routes.misses.length) console.log("misses:", JSON.stringify(routes.misses, null, 1));
if (impact.misses.length) console.log("impact misses:", JSON.stringify(impact.misses, null, 1));
