#!/usr/bin/env node
// Compares codeslice's git object reader (src/core/git, through its FileSystem port) with
// isomorphic-git (reading node:fs directly with a shared `cache`, its best case) on the reads
// `changes` makes:
//   import      loading the module
//   revs        resolving HEAD~20 (walks 20 commits)
//   commits     for the 20 newest first-parent commits: the tree diff against the parent
//               (equal subtrees skipped, same algorithm on both sides) and every changed blob,
//               both versions, i.e. what `changes --base <parent> --head <commit>` reads
//   flatten     every path of HEAD's tree (what the working-tree comparison reads)
// Each measurement runs in a fresh process (module loading and the first read of a pack count),
// three times; the median CPU time (user + system) is reported, since these machines are shared
// and wall time under load says little. Also checks that both readers return the same bytes, and
// whether isomorphic-git bundles for a browser without a `Buffer` polyfill (the core may not use one).
//
// Usage: node test/bench/git-reader-bench.mjs [--repos DIR1,DIR2] [--runs N]
// Repositories: full clones (default: the impact benchmark's clones, see test/bench/impact/README.md).
// isomorphic-git is installed into the benchmark cache, never into the project.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { benchCache, codesliceRevision, ensureBuilt, machine, packageRoot, resultsDir } from "./lib/bench-utils.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const runs = Number(opt("runs", "3"));
const impactClones = path.join(benchCache, "impact");
const repos = (opt("repos", "") || ["zod", "click", "starlette", "ky"].map((r) => path.join(impactClones, r)).join(","))
  .split(",")
  .filter((d) => fs.existsSync(d));
if (!repos.length) {
  console.error("no repositories: run `npm run bench -- impact --fetch-only` first, or pass --repos DIR1,DIR2");
  process.exit(2);
}
ensureBuilt();

const ISO_VERSION = "1.44.19";
const isoDir = path.join(benchCache, "tools", `isomorphic-git-${ISO_VERSION}`);
if (!fs.existsSync(path.join(isoDir, "node_modules/isomorphic-git"))) {
  fs.mkdirSync(isoDir, { recursive: true });
  fs.writeFileSync(path.join(isoDir, "package.json"), JSON.stringify({ private: true }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", `isomorphic-git@${ISO_VERSION}`], {
    cwd: isoDir,
    stdio: "inherit",
  });
}

// The child: one reader, one operation, prints {cpuMs, wallMs, digest}.
const child = `
const [reader, op, dir, pkg, iso] = process.argv.slice(2);
const t0 = performance.now(); const c0 = process.cpuUsage();
const { createHash } = await import("node:crypto");
const digest = createHash("sha1");
let api;
if (reader === "codeslice") {
  const { createNodeFileSystem } = await import(pkg + "/dist/platform/node/node-file-system.js");
  const { openGitRepository } = await import(pkg + "/dist/core/git/repository.js");
  const repo = await openGitRepository(await createNodeFileSystem(dir));
  api = {
    resolve: (rev) => repo.resolve(rev),
    commit: async (oid) => { const c = await repo.readCommit(oid); return { tree: c.tree, parents: c.parents }; },
    tree: async (oid) => (await repo.readTree(oid)).map((e) => ({ name: e.name, mode: e.mode, oid: e.oid })),
    blob: (oid) => repo.readBlob(oid),
  };
} else {
  const git = (await import(iso + "/node_modules/isomorphic-git/index.js")).default;
  const fs = (await import("node:fs")).default;
  // One cache object shared by every call: without it isomorphic-git re-reads a pack's index per call.
  const cache = {};
  api = {
    resolve: async (rev) => {
      const m = /^(.*?)~(\\d+)$/.exec(rev);
      let oid = await git.resolveRef({ fs, dir, ref: m ? m[1] : rev, cache });
      for (let i = 0; i < (m ? Number(m[2]) : 0); i++) oid = (await git.readCommit({ fs, dir, oid, cache })).commit.parent[0];
      return oid;
    },
    commit: async (oid) => { const c = (await git.readCommit({ fs, dir, oid, cache })).commit; return { tree: c.tree, parents: c.parent }; },
    tree: async (oid) => (await git.readTree({ fs, dir, oid, cache })).tree.map((e) => ({ name: e.path, mode: e.mode.replace(/^0+/, ""), oid: e.oid })),
    blob: async (oid) => (await git.readBlob({ fs, dir, oid, cache })).blob,
  };
}
const isTree = (m) => m === "40000";
async function diff(a, b, out = []) {
  if (a === b) return out;
  const l = new Map((a ? await api.tree(a) : []).map((e) => [e.name, e]));
  const r = new Map((b ? await api.tree(b) : []).map((e) => [e.name, e]));
  for (const name of [...new Set([...l.keys(), ...r.keys()])].sort()) {
    const x = l.get(name), y = r.get(name);
    if (x && y && x.oid === y.oid) continue;
    if ((x && isTree(x.mode)) || (y && isTree(y.mode))) await diff(x && isTree(x.mode) ? x.oid : undefined, y && isTree(y.mode) ? y.oid : undefined, out);
    else out.push([x?.oid, y?.oid]);
  }
  return out;
}
async function flatten(oid, n = { files: 0, oids: [] }) {
  for (const e of await api.tree(oid)) { if (isTree(e.mode)) await flatten(e.oid, n); else { n.files++; n.oids.push(e.oid); } }
  return n;
}
let detail = {};
if (op === "revs") { digest.update(await api.resolve("HEAD~20")); }
else if (op === "commits") {
  let oid = await api.resolve("HEAD"); let blobs = 0, bytes = 0;
  for (let i = 0; i < 20; i++) {
    const c = await api.commit(oid); const p = c.parents[0]; if (!p) break;
    for (const [x, y] of await diff((await api.commit(p)).tree, c.tree)) for (const o of [x, y]) if (o) { const b = await api.blob(o); blobs++; bytes += b.length; digest.update(b); }
    oid = p;
  }
  detail = { blobs, bytes };
} else if (op === "flatten") { const f = await flatten((await api.commit(await api.resolve("HEAD"))).tree); digest.update(f.oids.sort().join()); detail = { files: f.files }; }
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ cpuMs: Math.round((c.user + c.system) / 1000), wallMs: Math.round(performance.now() - t0), digest: digest.digest("hex"), ...detail }));
`;
const childFile = path.join(fs.mkdtempSync(path.join(process.env.TMPDIR || "/tmp", "git-reader-")), "child.mjs");
fs.writeFileSync(childFile, child);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const dir of repos) {
  const name = path.basename(dir);
  for (const op of ["import", "revs", "commits", "flatten"]) {
    const row = { repo: name, op };
    for (const reader of ["codeslice", "isomorphic-git"]) {
      const samples = [];
      for (let i = 0; i < runs; i++) {
        const r = spawnSync(process.execPath, [childFile, reader, op, dir, packageRoot, isoDir], {
          encoding: "utf8",
          maxBuffer: 1 << 26,
        });
        if (r.status !== 0) throw new Error(`${reader} ${op} ${name}: ${r.stderr}`);
        samples.push(JSON.parse(r.stdout.trim().split("\n").pop()));
      }
      row[reader] = {
        cpuMs: median(samples.map((s) => s.cpuMs)),
        wallMs: median(samples.map((s) => s.wallMs)),
        digest: samples[0].digest,
        ...(samples[0].blobs !== undefined ? { blobs: samples[0].blobs, bytes: samples[0].bytes } : {}),
        ...(samples[0].files !== undefined ? { files: samples[0].files } : {}),
      };
    }
    row.sameResult = row.codeslice.digest === row["isomorphic-git"].digest;
    rows.push(row);
    console.log(
      `${name.padEnd(10)} ${op.padEnd(8)} codeslice ${String(row.codeslice.cpuMs).padStart(5)} ms CPU   isomorphic-git ${String(row["isomorphic-git"].cpuMs).padStart(5)} ms CPU   same result: ${row.sameResult}`,
    );
  }
}

// Does isomorphic-git bundle for a browser without polyfills? (esbuild, platform browser; then
// again with Node's `buffer` module left out, to see whether the code uses the `Buffer` global.)
let bundle = {};
{
  const { build } = await import(path.join(packageRoot, "node_modules/esbuild/lib/main.js"));
  const entry = path.join(isoDir, "node_modules/isomorphic-git/index.js");
  const attempt = async (external) => {
    try {
      const out = await build({
        entryPoints: [entry],
        bundle: true,
        platform: "browser",
        format: "esm",
        write: false,
        minify: true,
        logLevel: "silent",
        external,
      });
      const text = out.outputFiles[0].text;
      return { minifiedBytes: text.length, usesBufferGlobal: /\bBuffer\.(from|alloc|concat|isBuffer)\b/.test(text) };
    } catch (error) {
      return {
        error:
          (error.errors ?? [])
            .map((e) => `${e.text}${e.location ? ` (in ${path.relative(isoDir, e.location.file)})` : ""}`)
            .join("; ") || String(error.message).split("\n")[0],
      };
    }
  };
  bundle = { asIs: await attempt([]), withoutNodeBuffer: await attempt(["buffer"]) };
}
console.log("isomorphic-git browser bundle:", JSON.stringify(bundle));

const result = {
  benchmark: "git-reader",
  revision: codesliceRevision(),
  machine: machine(),
  isomorphicGit: ISO_VERSION,
  runs,
  rows,
  isomorphicGitBrowserBundle: bundle,
  date: new Date().toISOString(),
};
fs.mkdirSync(resultsDir, { recursive: true });
fs.writeFileSync(path.join(resultsDir, "git-reader.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), path.join(resultsDir, "git-reader.json"))}`);
