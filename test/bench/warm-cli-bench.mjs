#!/usr/bin/env node
// Warm CLI benchmark: `signature`, `callers`, `context --budget 4000` and `search` as separate CLI
// processes answered through the project's warm server, against the same calls with --no-server.
//
// Per corpus: the server is stopped, each command runs once in-process (--no-server) for its
// reference bytes (stdout, stderr, exit code), then one warm-up call starts the server and the
// script waits until the server answers. Then, round by round, each command runs through the
// server and in-process, in turn (so load from other work on the shared machine falls on both
// alike). Every run is a fresh `node dist/cli/main.js …` under GNU time: wall from this script's
// clock, CPU seconds (user + sys) of the calling process alone (the server is another process).
// Every served run must print the reference bytes and exit code, and `codeslice stop` at the end
// must report that the server answered every served run (none fell back to in-process). Also
// timed: `node -e 0`, the floor any Node CLI process pays on this machine at this load.
//
// Rerun:
//   node scripts/build.mjs && npm run bench -- warm-cli [--runs N] [--django DIR] [--hono DIR]
// Corpora (docs/benchmarks.md): django, Debian's python3-django copied and committed;
// hono, github.com/honojs/hono cloned at 28a9c128912de19f3fb28b00ae289c9b93f6f392.
// Defaults: /work/corpora/warm/django and /work/corpora/warm/hono. Each is indexed in place (its
// .codeslice cache). Output: markdown on stdout and test/bench/results/warm-cli.json.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  cliPath as repoCli,
  ensureBuilt,
  fmt,
  hasGnuTime,
  machine,
  mdTable,
  parseArgs,
  resultsDir,
  stats,
  writeJson,
} from "./lib/bench-utils.mjs";
import * as utils from "./lib/bench-utils.mjs";

const { flags } = parseArgs(process.argv.slice(2), ["help"]);
if (flags.help) {
  console.log("usage: node test/bench/warm-cli-bench.mjs [--runs N] [--django DIR] [--hono DIR]");
  process.exit(0);
}
if (!hasGnuTime) {
  console.error("needs GNU time (apt-get install -y time) for the calling process's CPU seconds");
  process.exit(2);
}
const RUNS = Number(flags.runs ?? 9);
const CORPORA = [
  {
    name: "django",
    dir: flags.django ?? "/work/corpora/warm/django",
    commands: [
      ["signature", "Model.save"],
      ["callers", "Model.save"],
      ["context", "Model.save", "--budget", "4000"],
      ["search", "queryset filter"],
    ],
  },
  {
    name: "hono",
    dir: flags.hono ?? "/work/corpora/warm/hono",
    commands: [
      ["signature", "src/hono-base.ts#Hono"],
      ["callers", "Context.json"],
      ["context", "compose", "--budget", "4000"],
      ["search", "router match"],
    ],
  },
];
ensureBuilt();
void repoCli;
const cli = utils.cliPath;
// The server must be on for this run whatever the caller's shell says.
const env = { ...process.env };
delete env.CODESLICE_NO_SERVER;
delete env.CI;
delete env.CODESLICE_DEBUG;
delete env.CODESLICE_SERVER_IDLE_MS;

/** One process under GNU time: wall seconds, CPU seconds, stdout, stderr, exit code. */
function run(argv, cwd) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-warm-"));
  const timeFile = path.join(tmp, "time");
  return new Promise((resolve, reject) => {
    const out = [];
    const err = [];
    const t0 = process.hrtime.bigint();
    const child = spawn("/usr/bin/time", ["-f", "%U %S", "-o", timeFile, ...argv], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      const [user, sys] = fs.readFileSync(timeFile, "utf8").trim().split("\n").pop().split(/\s+/).map(Number);
      fs.rmSync(tmp, { recursive: true, force: true });
      resolve({ wall, cpu: user + sys, code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) });
    });
  });
}

const same = (a, b) => a.code === b.code && a.stdout.equals(b.stdout) && a.stderr.equals(b.stderr);
const socketOf = (dir) => path.join(fs.realpathSync(dir), ".codeslice", ".cli.sock");

async function benchCorpus({ name, dir, commands }) {
  if (!fs.existsSync(dir)) throw new Error(`${dir} is missing: see the header of this script for how to make it`);
  await run([process.execPath, cli, "stop"], dir);
  await run([process.execPath, cli, "index", "--no-server", "--quiet"], dir);
  const reference = [];
  for (const argv of commands) reference.push(await run([process.execPath, cli, ...argv, "--no-server"], dir));
  // The warm-up call: answered in-process, it starts the server; wait until the server answers.
  await run([process.execPath, cli, ...commands[0]], dir);
  for (let i = 0; i < 600 && !fs.existsSync(socketOf(dir)); i++) await new Promise((r) => setTimeout(r, 100));
  const warm = await run([process.execPath, cli, ...commands[0]], dir);
  if (!same(warm, reference[0])) throw new Error(`${name}: the warm-up answer differs from --no-server`);
  let served = 1;
  const rows = commands.map((argv) => ({
    command: argv.join(" "),
    server: { wall: [], cpu: [] },
    inProcess: { wall: [], cpu: [] },
    identical: true,
  }));
  const floor = { wall: [], cpu: [] };
  for (let round = 0; round < RUNS; round++) {
    for (const [i, argv] of commands.entries()) {
      const viaServer = await run([process.execPath, cli, ...argv], dir);
      served++;
      const inProcess = await run([process.execPath, cli, ...argv, "--no-server"], dir);
      rows[i].server.wall.push(viaServer.wall);
      rows[i].server.cpu.push(viaServer.cpu);
      rows[i].inProcess.wall.push(inProcess.wall);
      rows[i].inProcess.cpu.push(inProcess.cpu);
      if (!same(viaServer, reference[i]) || !same(inProcess, reference[i])) rows[i].identical = false;
    }
    const bare = await run([process.execPath, "-e", "0"], dir);
    floor.wall.push(bare.wall);
    floor.cpu.push(bare.cpu);
  }
  const stopped = (await run([process.execPath, cli, "stop"], dir)).stdout.toString();
  const answered = Number(/answered (\d+)/.exec(stopped)?.[1] ?? NaN);
  return { name, dir, rows, floor, served, answered, allServed: answered === served };
}

const load = [os.loadavg()[0]];
const results = [];
for (const corpus of CORPORA) results.push(await benchCorpus(corpus));
load.push(os.loadavg()[0]);

const md = [];
for (const r of results) {
  md.push(`### ${r.name} (${RUNS} runs each; the server answered ${r.answered} of ${r.served} served calls)`);
  md.push(
    mdTable(
      [
        "command",
        "warm wall p50 s",
        "warm CPU p50 s",
        "in-process wall p50 s",
        "in-process CPU p50 s",
        "bytes identical to --no-server",
      ],
      [
        ...r.rows.map((row) => [
          row.command,
          fmt(stats(row.server.wall).median),
          fmt(stats(row.server.cpu).median, 2),
          fmt(stats(row.inProcess.wall).median),
          fmt(stats(row.inProcess.cpu).median, 2),
          row.identical ? "yes" : "NO",
        ]),
        ["`node -e 0` (floor)", fmt(stats(r.floor.wall).median), fmt(stats(r.floor.cpu).median, 2), "", "", ""],
      ],
    ),
  );
}
md.push(
  `load average (1 min) at start and end: ${load.map((x) => x.toFixed(2)).join(", ")}; ${os.cpus().length} cores`,
);
console.log(md.join("\n\n"));
const summary = (v) => ({ ...stats(v), values: v.map((x) => Math.round(x * 1000) / 1000) });
writeJson(path.join(resultsDir, "warm-cli.json"), {
  machine: machine(),
  revision: utils.codesliceRevision(),
  runs: RUNS,
  load_1min_start_end: load,
  corpora: results.map((r) => ({
    name: r.name,
    served: r.served,
    answered_by_server: r.answered,
    floor_node_e_0: { wall: summary(r.floor.wall), cpu: summary(r.floor.cpu) },
    commands: r.rows.map((row) => ({
      command: row.command,
      identical: row.identical,
      server: { wall: summary(row.server.wall), cpu: summary(row.server.cpu) },
      in_process: { wall: summary(row.inProcess.wall), cpu: summary(row.inProcess.cpu) },
    })),
  })),
});
if (results.some((r) => !r.allServed || r.rows.some((row) => !row.identical))) process.exitCode = 1;
