/**
 * kill -9 in the middle of work. A cold `codeslice index` of a ~1,000-file generated project is
 * killed at several points (after a fixed time, after a number of records reached the disk, and
 * while the snapshot is being written); the MCP server is killed in the middle of a refresh after
 * an edit of 300 files; a watching engine is killed after it answered a one-file edit, before it
 * wrote the snapshot it keeps for after the answer. Afterwards a new run answers exactly as an uninterrupted run, without a
 * stack trace, and nothing outside the cache folder changed.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bigProject } from "./big-project.ts";
import { removeTemps, STACK_FRAME, tempDir, treeOf, writeProject } from "./fixture.ts";
import { callTool, openServer } from "./mcp.ts";
import { cli, cliPath, ensureBuilt, pool } from "./run.ts";
import { SCHEMA_VERSION } from "../../src/core/engine/snapshot.ts";
import { packedCount } from "../support/packs.ts";

/** A watching engine in a child process (see the file). */
const childPath = fileURLToPath(new URL("./watching-child.mjs", import.meta.url));

/** The cache's version folder (v<schema>). */
const V = `v${SCHEMA_VERSION}`;

/** The answers compared: the whole graph and one callers list. */
const QUERIES: string[][] = [["graph"], ["callers", "Widget200.draw"]];

let base: string;
let root: string;
let clean: string;
let expected: unknown[];

async function answersOf(projectRoot: string, cacheDir: string): Promise<{ values: unknown[]; problems: string[] }> {
  const problems: string[] = [];
  const values: unknown[] = [];
  // One after the other: the first does whatever indexing is left, the others read its result.
  for (const q of QUERIES) {
    const r = await cli([...q, "--root", projectRoot, "--cache-dir", cacheDir, "--json", "--quiet"]);
    if (r.status !== 0 || /unexpected error/.test(r.stderr) || STACK_FRAME.test(r.stderr))
      problems.push(`${q.join(" ")}: exit ${r.status} ${r.stderr.slice(0, 1000)}`);
    try {
      values.push(JSON.parse(r.stdout));
    } catch {
      problems.push(`${q.join(" ")}: stdout is not JSON: ${r.stdout.slice(0, 200)}`);
    }
  }
  return { values, problems };
}

/** Records that reached the disk (in whole packs), and leftover temp files, in a cache folder. */
function cacheFiles(cacheDir: string): { records: number; temps: string[] } {
  const records = packedCount(path.join(cacheDir, V, "records"));
  const temps: string[] = [];
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else if (e.name.endsWith(".tmp")) temps.push(path.join(dir, e.name));
    }
  };
  walk(cacheDir);
  return { records, temps };
}

beforeAll(async () => {
  ensureBuilt();
  base = tempDir("codeslice-kill-");
  root = path.join(base, "project");
  clean = path.join(base, "clean-cache");
  writeProject(root, bigProject());
  const index = await cli(["index", "--root", root, "--cache-dir", clean, "--quiet"]);
  expect(index.status, index.stderr).toBe(0);
  const { values, problems } = await answersOf(root, clean);
  expect(problems).toEqual([]);
  expected = values;
  uniqueRecords = cacheFiles(clean).records;
}, 180_000);

afterAll(removeTemps);

interface KillPoint {
  label: string;
  /** Resolves when it is time to kill `child` (which writes into `cacheDir`). */
  when: (child: ChildProcess, cacheDir: string) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** Polls until `test()` holds or the process ended. */
async function until(child: ChildProcess, test: () => boolean): Promise<void> {
  while (child.exitCode === null && child.signalCode === null && !test()) await sleep(5);
}

/**
 * Stops the index in the middle of writing its snapshot. The store writes `v16/snapshot.json` to a
 * temp file `.snapshot.json.<pid>.<n>.tmp` (n counts the process's temp files: one per pack of 64
 * records before it, and the scan's listings), then renames it. Named pipes wait at those names, opened for reading here: the writer's
 * open succeeds, the first 64 KiB go into the pipe and the write blocks, and the kill lands inside
 * it. The pipe is then replaced by a regular file with the bytes that were written, as a killed
 * write leaves it.
 */
function inSnapshotWrite(recordsBefore: number): KillPoint["when"] {
  return async (child, dir) => {
    const v16 = path.join(dir, V);
    await until(child, () => fs.existsSync(path.join(v16, "records")));
    const packs = Math.ceil(recordsBefore / 64);
    const pipes = Array.from({ length: 7 }, (_, k) =>
      path.join(v16, `.snapshot.json.${child.pid}.${packs - 3 + k}.tmp`),
    );
    const made = spawnSync("mkfifo", pipes);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr}`);
    const fds = pipes.map((p) => fs.openSync(p, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK));
    const chunk = Buffer.alloc(65_536);
    const got = new Map<number, Buffer[]>();
    try {
      for (;;) {
        for (const [i, fd] of fds.entries()) {
          try {
            const n = fs.readSync(fd, chunk);
            if (n > 0) got.set(i, [...(got.get(i) ?? []), Buffer.from(chunk.subarray(0, n))]);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
          }
        }
        if (got.size > 0 || child.exitCode !== null || child.signalCode !== null) break;
        await sleep(2);
      }
      child.kill("SIGKILL"); // in the middle of the write: the pipe is full and nobody reads it
    } finally {
      for (const fd of fds) fs.closeSync(fd);
      for (const [i, p] of pipes.entries()) {
        fs.rmSync(p);
        if (got.has(i)) fs.writeFileSync(p, Buffer.concat(got.get(i)!));
      }
    }
  };
}

let uniqueRecords = 0;

const POINTS: KillPoint[] = [
  { label: "after 300 ms", when: () => sleep(300) },
  { label: "after 150 records were written", when: (child, dir) => until(child, () => cacheFiles(dir).records >= 150) },
  { label: "after 700 records were written", when: (child, dir) => until(child, () => cacheFiles(dir).records >= 700) },
  { label: "in the middle of the snapshot write", when: (child, dir) => inSnapshotWrite(uniqueRecords)(child, dir) },
];

describe("kill -9 during a cold index (CLI, ~1,000 files)", () => {
  it("a new run after each kill answers exactly as an uninterrupted run, and only the cache folder changed", async () => {
    const before = treeOf(root);
    const failures: string[] = [];
    const outcomes: string[] = [];
    await pool(POINTS, 2, async (point) => {
      const cacheDir = path.join(base, `cache-${point.label.replace(/\W+/g, "-")}`);
      const child = spawn(process.execPath, [cliPath, "index", "--root", root, "--cache-dir", cacheDir, "--quiet"], {
        stdio: "ignore",
      });
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      await point.when(child, cacheDir);
      const finishedFirst = child.exitCode !== null;
      child.kill("SIGKILL");
      await exited;
      const { records, temps } = cacheFiles(cacheDir);
      const snapshot = fs.existsSync(path.join(cacheDir, V, "snapshot.json"));
      outcomes.push(
        `${point.label}: ${finishedFirst ? "finished before the kill" : "killed"}, ${records} records, snapshot ${snapshot ? "written" : "missing"}, ${temps.length} temp files left`,
      );
      const { values, problems } = await answersOf(root, cacheDir);
      if (problems.length) failures.push(`${point.label}: ${problems.join("\n")}`);
      else if (JSON.stringify(values) !== JSON.stringify(expected))
        failures.push(`${point.label}: answers differ from the uninterrupted run`);
      // The cache is whole again: a further index has nothing to parse or repair.
      const again = await cli(["index", "--root", root, "--cache-dir", cacheDir, "--json", "--quiet"]);
      const summary = JSON.parse(again.stdout) as { parsed: number; repaired: number };
      if (summary.parsed !== 0 || summary.repaired !== 0)
        failures.push(`${point.label}: the next index still parsed ${summary.parsed} and repaired ${summary.repaired}`);
      outcomes.push(`  ${point.label}: ${cacheFiles(cacheDir).temps.length} temp files after the recovery runs`);
    });
    if (process.env.FAULT_VERBOSE) console.log(outcomes.join("\n"));
    expect(failures, `${failures.join("\n")}\n${outcomes.join("\n")}`).toEqual([]);
    // Every kill landed before the index was done; the last one inside the snapshot write.
    expect(
      outcomes.filter((o) => o.includes(": killed")),
      outcomes.join("\n"),
    ).toHaveLength(POINTS.length);
    expect(
      outcomes.filter((o) => o.includes("finished before")),
      outcomes.join("\n"),
    ).toEqual([]);
    expect(
      outcomes.find((o) => o.startsWith("in the middle of the snapshot write")),
      outcomes.join("\n"),
    ).toMatch(/snapshot missing, [1-9]\d* temp files? left/);
    expect(treeOf(root), "the project folder changed").toEqual(before);
  }, 300_000);
});

describe("kill -9 of the MCP server during a refresh", () => {
  it("after an edit of 300 files, a server killed mid-refresh leaves a cache that answers as an uninterrupted run", async () => {
    // A copy of the project and of its clean cache (mtimes kept, so the cache applies).
    const project = path.join(base, "mcp-project");
    const cacheDir = path.join(base, "mcp-cache");
    fs.cpSync(root, project, { recursive: true, preserveTimestamps: true });
    fs.cpSync(clean, cacheDir, { recursive: true });
    const s = await openServer(["--root", project, "--cache-dir", cacheDir, "--log-level", "warn"]);
    let killed = false;
    try {
      const first = await callTool(s.client, "callers", { symbol: "compute_10" });
      expect(first.isError, first.text).toBe(false);
      expect(first.freshness.parsed).toBe(0); // loaded from the cache
      // The server re-scans once right after its first index; a second call waits for that pass,
      // so the refresh below is the only one writing.
      expect((await callTool(s.client, "signature", { symbol: "Widget3" })).isError).toBe(false);
      // The edit: 150 Python and 150 TypeScript files gain a function calling into the file.
      for (let i = 0; i < 150; i++) {
        fs.appendFileSync(
          path.join(project, `app/pkg${i % 20}/mod${i}.py`),
          `\n\ndef extra_${i}(x: int) -> int:\n    return compute_${i}(x) + 1\n`,
        );
        fs.appendFileSync(
          path.join(project, `web/src/view${i}.ts`),
          `\nexport function extra${i}(p: Props${i}): string {\n  return render${i}(p);\n}\n`,
        );
      }
      const edited = treeOf(project);
      const snapshotBefore = fs.readFileSync(path.join(cacheDir, V, "snapshot.json"));
      const recordsBefore = cacheFiles(cacheDir).records;
      const pending = callTool(s.client, "callers", { symbol: "compute_10" }).then(
        () => "answered",
        () => "connection closed",
      );
      // Kill once the refresh has written a few of the new records, before it writes the snapshot.
      const deadline = Date.now() + 60_000;
      while (cacheFiles(cacheDir).records < recordsBefore + 20 && Date.now() < deadline) await sleep(3);
      process.kill(s.pid!, "SIGKILL");
      killed = true;
      const outcome = await pending;
      const snapshotRewritten = !fs.readFileSync(path.join(cacheDir, V, "snapshot.json")).equals(snapshotBefore);
      expect({ outcome, snapshotRewritten }, "the kill landed in the middle of the refresh").toEqual({
        outcome: "connection closed",
        snapshotRewritten: false,
      });
      expect(STACK_FRAME.test(s.stderr()), s.stderr()).toBe(false);

      // An uninterrupted run over the same edit: the clean cache, brought up to date in one go.
      const uninterrupted = path.join(base, "mcp-uninterrupted");
      fs.cpSync(clean, uninterrupted, { recursive: true });
      const reference = await answersOf(project, uninterrupted);
      expect(reference.problems).toEqual([]);
      const after = await answersOf(project, cacheDir);
      expect(after.problems).toEqual([]);
      expect(after.values).toEqual(reference.values);
      // And a new server on the killed cache answers the edited project without an error.
      const t = await openServer(["--root", project, "--cache-dir", cacheDir, "--log-level", "warn"]);
      try {
        const callers = await callTool(t.client, "callers", { symbol: "compute_10" });
        expect(callers.isError, callers.text).toBe(false);
        const names: string[] = callers.data.results.map((r: { qualified: string }) => r.qualified);
        expect(
          names.some((n) => n.endsWith(".extra_10")),
          names.join(", "),
        ).toBe(true);
      } finally {
        await t.close();
      }
      expect(treeOf(project), "the project changed beyond the edit").toEqual(edited);
    } finally {
      if (!killed) await s.close();
    }
  }, 300_000);
});

describe("kill -9 of a watching engine after it answered an edit, before it wrote the snapshot", () => {
  it("the snapshot on disk is the old one, and the cache answers the edited project as an uninterrupted run, with nothing to repair", async () => {
    const project = path.join(base, "answered-project");
    const cacheDir = path.join(base, "answered-cache");
    fs.cpSync(root, project, { recursive: true, preserveTimestamps: true });
    fs.cpSync(clean, cacheDir, { recursive: true });
    // The snapshot's write waits 10 minutes here, so that the kill lands before it whatever the load.
    const child = spawn(process.execPath, [childPath, project, cacheDir, "600000"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const ask = async (method: string, ...args: unknown[]) => {
      child.stdin!.write(`${JSON.stringify({ method, args })}\n`);
      const reply = JSON.parse((await lines.next()).value as string);
      expect(reply.ok, `${method}: ${JSON.stringify(reply)} ${stderr}`).toBe(true);
      return reply.answer;
    };
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      expect(await ask("refresh")).toMatchObject({ mode: "initial", parsed: 0 });
      await sleep(300); // the re-scan an engine makes once after its first index
      expect(await ask("refresh")).toMatchObject({ mode: "watch" });
      const snapshotBefore = fs.readFileSync(path.join(cacheDir, V, "snapshot.json"));
      fs.appendFileSync(
        path.join(project, "app/pkg10/mod10.py"),
        "\n\ndef extra_10(x: int) -> int:\n    return compute_10(x) + 1\n",
      );
      await sleep(50); // the watch event
      expect(await ask("refresh")).toMatchObject({ mode: "watch", parsed: 1 });
      const callers = await ask("callers", "compute_10");
      expect(JSON.stringify(callers)).toContain("extra_10");
      expect(fs.readFileSync(path.join(cacheDir, V, "snapshot.json")).equals(snapshotBefore)).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    // The next process finds the edited file changed against the old snapshot, and its record
    // (stored before the answer) by its content: nothing parsed again, nothing to repair.
    const next = await cli(["index", "--root", project, "--cache-dir", cacheDir, "--json", "--quiet"]);
    expect(JSON.parse(next.stdout)).toMatchObject({ parsed: 0, repaired: 0 });
    expect(cacheFiles(cacheDir).temps).toEqual([]);
    const uninterrupted = path.join(base, "answered-uninterrupted");
    fs.cpSync(clean, uninterrupted, { recursive: true });
    const reference = await answersOf(project, uninterrupted);
    expect(reference.problems).toEqual([]);
    const after = await answersOf(project, cacheDir);
    expect(after.problems).toEqual([]);
    expect(after.values).toEqual(reference.values);
  }, 300_000);
});
