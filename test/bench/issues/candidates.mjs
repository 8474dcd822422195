#!/usr/bin/env node
// Step 1 of building the issue-report cases: fix commits that name the issue they fix.
// For each repository of config.json, every commit reachable from the pinned head whose message
// says `fix #N` / `fixes #N` / `closes #N` / `resolves #N` (or the same with the issue's URL) is
// taken with its first parent; the gold is computed with the shared localize tool's own diff →
// definition mapping (CPython ast / TypeScript compiler API). Kept: 1–4 non-test source files
// changed (the tool's rules, plus date-fns style `test.ts` files), at least one existing at the
// parent, at least one function or method whose code changed. One candidate per issue: a commit on
// the first-parent line (squash or PR merge: the whole fix) before a commit on a side branch, then
// the newest. Writes $CODESLICE_CORPORA/issues/candidates.json (no issue text: that comes from
// step 2, see README.md).
//
// usage: node test/bench/issues/candidates.mjs [--repos a,b]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, writeJson } from "../lib/bench-utils.mjs";
import { corporaDir, die } from "../localize/lib.mjs";
import { loadTool } from "./tool.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const config = JSON.parse(fs.readFileSync(path.join(here, "config.json"), "utf8"));
const { flags } = parseArgs(process.argv.slice(2));
const names = flags.repos ? String(flags.repos).split(",") : Object.keys(config.repos);
const base = path.join(corporaDir(), "issues");
const T = await loadTool();
const git = (dir, args) =>
  execFileSync("git", ["-C", dir, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", "pipe", "pipe"],
  });

export const isTestPath = (p, common) =>
  common.isTest(p) ||
  /(^|\/)(test|tests|spec|benchmark|bench)\.(ts|tsx|js|py)$/.test(p) ||
  /(^|\/)(benchmarks?|examples?|docs?|scripts|typings-tests?)\//.test(p);

function issueRefs(msg, slug) {
  const out = new Set();
  const verb = String.raw`(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?)(?:\s+(?:issue|bug))?:?\s+`;
  for (const m of msg.matchAll(new RegExp(String.raw`\b${verb}#(\d+)`, "gi"))) out.add(+m[1]);
  const url = slug.replace(/[./]/g, (c) => `\\${c}`);
  for (const m of msg.matchAll(new RegExp(String.raw`\b${verb}https?://github\.com/${url}/issues/(\d+)`, "gi")))
    out.add(+m[1]);
  // a list after the verb: "fixes #12, #13 and #14"
  for (const m of msg.matchAll(new RegExp(String.raw`\b${verb}#\d+((?:\s*(?:,|and|&)\s*#\d+)+)`, "gi")))
    for (const n of m[1].matchAll(/#(\d+)/g)) out.add(+n[1]);
  return [...out];
}

const all = [];
const stats = {};
for (const name of names) {
  const spec = config.repos[name];
  if (!spec) die(`--repos ${name}: not in config.json`);
  const dir = path.join(base, "repos", name);
  const slug = spec.url.replace(/^https:\/\/github\.com\//, "");
  const fp = new Set(git(dir, ["rev-list", "--first-parent", spec.head]).trim().split("\n"));
  const log = git(dir, ["log", "--format=%H%x00%P%x00%cs%x00%B%x01", spec.head])
    .split("\x01")
    .map((s) => s.replace(/^\n/, ""))
    .filter(Boolean);
  const byIssue = new Map();
  const reasons = {};
  const rej = (w) => {
    reasons[w] = (reasons[w] || 0) + 1;
  };
  for (const rec of log) {
    const [commit, parents, date, msg] = rec.split("\0");
    const ps = parents.trim().split(" ").filter(Boolean);
    if (!ps.length || ps.length > 2) continue;
    const refs = issueRefs(msg, slug);
    if (!refs.length) continue;
    if (ps.length === 2 && !/^merge pull request/i.test(msg)) {
      rej("merge of a branch");
      continue;
    }
    const parent = ps[0];
    const status = git(dir, ["diff", "--name-status", "-M", "--no-color", parent, commit])
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("\t"));
    const src = [];
    for (const [st, a, b] of status) {
      const np = b || a;
      if (!T.common.isGoldSource(a) && !T.common.isGoldSource(np)) continue;
      if (isTestPath(a, T.common) || isTestPath(np, T.common)) continue;
      src.push({ st: st[0], oldPath: a, newPath: np });
    }
    if (!src.length) {
      rej("no non-test source file");
      continue;
    }
    if (src.length > 4) {
      rej("> 4 non-test source files");
      continue;
    }
    const atParent = src.filter((f) => f.st !== "A" && f.st !== "C");
    if (!atParent.length) {
      rej("only new files");
      continue;
    }
    const functions = [],
      others = [];
    for (const f of atParent) {
      if (f.st === "D") continue;
      const hunks = T.hunksOf(dir, parent, commit, f.newPath, f.oldPath);
      const d = T.defsFor(f.oldPath, { parent: T.show(dir, parent, f.oldPath), child: T.show(dir, commit, f.newPath) });
      if (!d.parent.ok) continue;
      for (const c of T.changedDefs(hunks, d.parent.defs, d.child.ok ? d.child.defs : [])) {
        const e = { path: f.oldPath, name: c.qual, kind: c.kind, start: c.start, end: c.end };
        (c.kind === "function" || c.kind === "method" ? functions : others).push(e);
      }
    }
    if (!functions.length) {
      rej("no function/method body changed");
      continue;
    }
    const cand = {
      repo: name,
      issue: refs[0],
      issues: refs,
      commit,
      parent,
      date,
      first_parent_line: fp.has(commit),
      merge: ps.length === 2,
      subject: msg.split("\n")[0].trim(),
      files: atParent.map((f) => f.oldPath),
      new_files: src.filter((f) => f.st === "A" || f.st === "C").map((f) => f.newPath),
      functions,
      other_defs: others,
    };
    for (const n of refs) {
      const prev = byIssue.get(n);
      // log order is newest first: keep the first seen unless a first-parent-line commit comes later
      if (!prev || (!prev.first_parent_line && cand.first_parent_line)) byIssue.set(n, { ...cand, issue: n });
    }
  }
  const cands = [...byIssue.values()].sort((a, b) => b.date.localeCompare(a.date));
  stats[name] = { candidates: cands.length, rejected: reasons };
  console.error(`${name}: ${cands.length} candidates ${JSON.stringify(reasons)}`);
  all.push(...cands);
}
const out = path.join(base, "candidates.json");
const prev = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, "utf8")) : { candidates: [] };
const keep = prev.candidates.filter((c) => !names.includes(c.repo));
writeJson(out, {
  built: new Date().toISOString(),
  stats: { ...(prev.stats || {}), ...stats },
  candidates: [...keep, ...all],
});
console.error(`wrote ${out}`);
