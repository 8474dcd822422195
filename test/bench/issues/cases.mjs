#!/usr/bin/env node
// Step 3 of building the issue-report cases: joins the fix commits (candidates.json, step 1) with
// the issue texts transcribed from the search tool (issues.jsonl, step 2) into cases.json, all in
// $CODESLICE_CORPORA/issues/ (outside the repository: issue texts are third-party material).
// A case: one issue and the commit that fixed it; the target is the issue's title + "\n\n" + its
// description (the reporter's text only); the gold is the fix's non-test source files that exist
// at the parent and the functions it changed (line ranges at the parent). Each case is put in the
// `tune` or `test` split by a hash of its id. Cases listed in config.json "exclude" are left out.
//
// usage: node test/bench/issues/cases.mjs
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeJson } from "../lib/bench-utils.mjs";
import { corporaDir } from "../localize/lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const config = JSON.parse(fs.readFileSync(path.join(here, "config.json"), "utf8"));
const base = path.join(corporaDir(), "issues");

/** `tune` or `test`: the first byte of sha256(id), even or odd (about half each, stable). */
export const splitOf = (id) => (crypto.createHash("sha256").update(id).digest()[0] % 2 === 0 ? "tune" : "test");

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const cands = JSON.parse(fs.readFileSync(path.join(base, "candidates.json"), "utf8")).candidates;
  const issues = fs
    .readFileSync(path.join(base, "issues.jsonl"), "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const byKey = new Map(cands.map((c) => [`${c.repo}#${c.issue}`, c]));
  const cases = [],
    missing = [],
    sameFix = [];
  const seenCommit = new Set();
  for (const is of issues) {
    const c = byKey.get(`${is.repo}#${is.issue}`);
    if (!c || !config.repos[is.repo]) {
      missing.push(`${is.repo}#${is.issue}`);
      continue;
    }
    // one case per fix commit: a commit that closes several issues is kept once (the first issue stored)
    if (seenCommit.has(c.commit)) {
      sameFix.push(`${is.repo}#${is.issue}`);
      continue;
    }
    seenCommit.add(c.commit);
    const id = `${is.repo}-${is.issue}`;
    if (config.exclude?.[id]) continue;
    const body = is.body.trim();
    cases.push({
      id,
      repo: is.repo,
      issue: is.issue,
      url: `${config.repos[is.repo].url}/issues/${is.issue}`,
      split: splitOf(id),
      title: is.title,
      body,
      truncated: is.truncated,
      issue_date: is.date,
      query: body ? `${is.title}\n\n${body}` : is.title,
      commit: c.commit,
      parent: c.parent,
      date: c.date,
      fix_subject: c.subject,
      merge: c.merge,
      files: c.files,
      new_files: c.new_files,
      functions: c.functions,
      other_defs: c.other_defs,
    });
  }
  cases.sort((a, b) => a.repo.localeCompare(b.repo) || a.date.localeCompare(b.date) || a.issue - b.issue);
  const perRepo = {};
  for (const c of cases) perRepo[c.repo] = (perRepo[c.repo] || 0) + 1;
  writeJson(path.join(base, "cases.json"), {
    meta: {
      built: new Date().toISOString(),
      cases: cases.length,
      per_repo: perRepo,
      splits: {
        tune: cases.filter((c) => c.split === "tune").length,
        test: cases.filter((c) => c.split === "test").length,
      },
      repos: Object.fromEntries(
        Object.entries(config.repos).map(([n, r]) => [n, { path: path.join("repos", n), head: r.head, url: r.url }]),
      ),
    },
    cases,
  });
  console.error(
    `${cases.length} cases (${JSON.stringify(perRepo)}); ${missing.length} issue texts without a candidate${missing.length ? `: ${missing.join(", ")}` : ""}; ${sameFix.length} left out as a second issue of the same fix${sameFix.length ? `: ${sameFix.join(", ")}` : ""}`,
  );
}
