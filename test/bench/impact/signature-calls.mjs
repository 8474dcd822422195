#!/usr/bin/env node
// Candidates for the hand-checked set of signature changes (signature-calls.json): for real commits
// of the impact benchmark's repositories that change a definition's parameters, the commit's new
// version of each changed production file is written over its parent's tree — the callers left as
// they were, as when someone changes a signature and asks what breaks — and `codeslice changes`
// (working tree against HEAD) checks every call of the changed signature. Prints each signature
// change with call sites, what the answer lists as breaking, and the call sites the commit itself
// updated (what really broke); the verdicts in signature-calls.json are by hand, from the code.
//
// Usage: node test/bench/impact/signature-calls.mjs [--repos a,b] [--scan N] [--limit N]
// Needs the clones the impact benchmark makes ($CODESLICE_BENCH_CACHE/impact/<name>).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { benchCache, ensureBuilt, runCli } from "../lib/bench-utils.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (name, dflt) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const config = JSON.parse(fs.readFileSync(path.join(here, "repos.json"), "utf8"));
const only = opt("repos", "") ? opt("repos", "").split(",") : undefined;
const scan = Number(opt("scan", "400"));
const limit = Number(opt("limit", "12"));
const TEST =
  /(^|\/)(tests?|__tests__|spec|specs|e2e|[^/]*[-_]tests)\/|(^|\/)test_[^/]*\.py$|_test\.[a-z]+$|\.(test|spec)\.[a-z]+$|(^|\/)conftest\.py$/;
const SOURCE = /\.(py|ts|tsx)$/;
// A definition header on a removed and on an added line, with the same name.
const HEADER =
  /^[-+]\s*(?:export\s+)?(?:async\s+)?(?:def|function)\s+([A-Za-z_$][\w$]*)\s*[(<]|^[-+]\s*(?:public\s+|private\s+|protected\s+|static\s+|async\s+)*([A-Za-z_$][\w$]*)\s*\(.*\)\s*(?::[^=]*)?\{\s*$/;

const git = (dir, args) =>
  execFileSync("git", ["-C", dir, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", "pipe", "pipe"],
  });

/** Production files of `commit` whose diff removes and adds a header of the same name. */
function signatureFiles(dir, commit) {
  const text = git(dir, ["diff", "-U0", "--no-color", `${commit}~1`, commit]);
  const out = new Map();
  let file;
  const seen = { "-": new Set(), "+": new Set() };
  const flush = () => {
    if (file && SOURCE.test(file) && !TEST.test(file)) {
      const both = [...seen["+"]].filter((n) => seen["-"].has(n));
      if (both.length) out.set(file, both);
    }
  };
  for (const line of text.split("\n")) {
    if (line.startsWith("diff --git ")) {
      flush();
      file = line.split(" b/").pop();
      seen["-"] = new Set();
      seen["+"] = new Set();
    } else if ((line[0] === "-" || line[0] === "+") && !line.startsWith("---") && !line.startsWith("+++")) {
      const m = HEADER.exec(line);
      const name = m?.[1] ?? m?.[2];
      if (name && !["if", "for", "while", "switch", "catch", "function"].includes(name)) seen[line[0]].add(name);
    }
  }
  flush();
  return out;
}

/** The lines of call sites the commit changed outside the signature files (what it had to update). */
function updatedCalls(dir, commit, names, skip) {
  const text = git(dir, ["diff", "-U0", "--no-color", `${commit}~1`, commit]);
  const out = [];
  let file;
  let oldLine = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("diff --git ")) file = line.split(" b/").pop();
    else if (line.startsWith("@@ ")) oldLine = Number(/^@@ -(\d+)/.exec(line)[1]);
    else if (line[0] === "-" && !line.startsWith("---")) {
      if (!skip.has(file) && names.some((n) => new RegExp(`\\b${n}\\s*\\(`).test(line))) out.push(`${file}:${oldLine}`);
      oldLine++;
    }
  }
  return out;
}

ensureBuilt();
const found = [];
for (const repo of config.repos.filter((r) => !only || only.includes(r.name))) {
  const clone = path.join(benchCache, "impact", repo.name);
  const work = path.join(benchCache, "impact", "signature-work", repo.name);
  if (!fs.existsSync(path.join(work, ".git"))) execFileSync("git", ["clone", "--quiet", "--no-checkout", clone, work]);
  let n = 0;
  for (const commit of git(clone, ["rev-list", "--first-parent", "--no-merges", `--max-count=${scan}`, repo.head])
    .trim()
    .split("\n")) {
    if (n >= limit) break;
    const files = signatureFiles(clone, commit);
    if (!files.size) continue;
    git(work, ["checkout", "--quiet", "--force", "--detach", `${commit}~1`]);
    git(work, ["clean", "-fdxq", "-e", ".codeslice"]);
    for (const f of files.keys()) {
      try {
        fs.writeFileSync(path.join(work, f), git(clone, ["show", `${commit}:${f}`]));
      } catch {
        // the file went away: nothing to overlay
      }
    }
    let answer;
    try {
      answer = JSON.parse((await runCli(["changes", "--json", "--quiet", "--budget", "4000", "--root", work])).stdout);
    } catch (error) {
      console.error(`${repo.name} ${commit.slice(0, 12)}: ${String(error.message).split("\n")[0]}`);
      continue;
    }
    const signatures = answer.symbols.filter((s) => s.change === "signature" && !s.test);
    if (!answer.callSites.checked && !answer.callSites.breaking.length) continue;
    n++;
    const names = signatures.map((s) => s.name.split(".").pop());
    const entry = {
      repo: repo.name,
      commit: commit.slice(0, 12),
      subject: git(clone, ["log", "-1", "--format=%s", commit]).trim(),
      signatures: signatures.map((s) => ({ symbol: s.qualified, old: s.signature?.old, new: s.signature?.new })),
      checked: answer.callSites.checked,
      undecided: answer.callSites.undecided,
      breaking: answer.callSites.breaking.map((b) => ({
        site: `${b.path}:${b.line}`,
        caller: b.caller,
        callee: b.callee,
        call: b.call,
        reason: b.reason,
        confidence: b.confidence,
      })),
      updated_by_commit: updatedCalls(clone, commit, names, new Set(files.keys())),
    };
    found.push(entry);
    console.log(JSON.stringify(entry));
  }
}
console.error(`${found.length} signature changes with call sites`);
