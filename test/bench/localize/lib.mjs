// Helpers of the localization benchmark wrapper (run.mjs) and its miss analysis (misses.mjs):
// where the corpora and the shared tool live, the tool's scratch copy, a commit's files read
// straight from git, and a lexical scanner that tells code from comments, strings and docstrings.
import { execFileSync, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { benchCache, repoRoot } from "../lib/bench-utils.mjs";

export const corporaDir = () => path.resolve(process.env.CODESLICE_CORPORA || path.join(repoRoot, "..", "corpora"));
export const localizeDir = () => path.join(corporaDir(), "localize");
export const rawDir = () => path.join(localizeDir(), "results");

export function die(msg) {
  console.error(msg);
  process.exit(1);
}

/**
 * The shared tool ($LOCALIZE_TOOL, default ../shared/tools/localize next to the checkout), copied to
 * a scratch folder named by a hash of its files and npm-installed there once (the shared folder is
 * read-only). Returns { dir, source, hash }.
 */
export function prepareTool() {
  const source = path.resolve(process.env.LOCALIZE_TOOL || path.join(repoRoot, "..", "shared", "tools", "localize"));
  if (!fs.existsSync(path.join(source, "run.mjs")))
    die(`No localize tool at ${source}: set LOCALIZE_TOOL to the shared tools/localize folder`);
  const files = fs
    .readdirSync(source)
    .filter((f) => fs.statSync(path.join(source, f)).isFile())
    .sort();
  const h = crypto.createHash("sha256");
  for (const f of files)
    h.update(f)
      .update("\0")
      .update(fs.readFileSync(path.join(source, f)));
  const hash = h.digest("hex").slice(0, 12);
  const dir = path.join(benchCache, `localize-tool-${hash}`);
  if (
    !fs.existsSync(path.join(dir, "node_modules", "gpt-tokenizer")) ||
    !fs.existsSync(path.join(dir, "node_modules", "typescript"))
  ) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    for (const f of files) {
      fs.copyFileSync(path.join(source, f), path.join(dir, f));
      fs.chmodSync(path.join(dir, f), 0o644);
    }
    console.error(`installing the localize tool into ${dir}`);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--silent"], { cwd: dir, stdio: "inherit" });
  }
  return { dir, source, hash };
}

/** Imports one of the tool's modules (common.mjs, tsdefs.mjs) from its scratch copy. */
export const importTool = (tool, file) => import(pathToFileURL(path.join(tool.dir, file)).href);

/**
 * The files of `commit` the tool's baselines would read (its isIndexable rule, regular files up to
 * 1 MiB without NUL bytes), straight from git: [{ path, text, lines }].
 */
export function readTree(gitDir, commit, isIndexable) {
  const entries = [];
  const ls = execFileSync("git", ["-C", gitDir, "ls-tree", "-r", "-l", "-z", commit], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  for (const rec of ls.split("\0")) {
    const m = rec.match(/^(\d+) (\w+) ([0-9a-f]+)\s+(-|\d+)\t(.+)$/s);
    if (!m || m[2] !== "blob" || m[1] === "120000" || !isIndexable(m[5]) || Number(m[4]) > 1048576) continue;
    entries.push({ sha: m[3], size: Number(m[4]), path: m[5] });
  }
  const r = spawnSync("git", ["-C", gitDir, "cat-file", "--batch"], {
    input: entries.map((e) => e.sha).join("\n") + "\n",
    maxBuffer: 1 << 30,
  });
  const buf = r.stdout;
  const files = [];
  let pos = 0;
  for (const e of entries) {
    const nl = buf.indexOf(10, pos);
    const size = Number(buf.toString("utf8", pos, nl).split(" ")[2]);
    const body = buf.subarray(nl + 1, nl + 1 + size);
    pos = nl + 1 + size + 1;
    if (body.includes(0)) continue;
    const text = body.toString("utf8");
    files.push({ path: e.path, text, lines: text.split("\n") });
  }
  return files;
}

// ---------------------------------------------------------------- lexical classes

/** Character classes of a source text. */
export const CODE = 0,
  COMMENT = 1,
  STRING = 2,
  DOC = 3;
export const CLASS_NAMES = ["code", "comment", "string", "doc"];

/**
 * Per character of `text`: code, comment, string or doc (a Python docstring: a triple-quoted string
 * that opens a block or the module; a `/** … *\/` comment in TS/JS). A lexer, not a parser: regex
 * literals count as code and template substitutions as string.
 */
export function classify(text, language) {
  const out = new Uint8Array(text.length);
  const n = text.length;
  let i = 0;
  const fill = (a, b, k) => out.fill(k, a, b);
  if (language === "python") {
    let lastCode = ":"; // last non-space code character before the current position (module start counts as a block)
    while (i < n) {
      const c = text[i];
      if (c === "#") {
        const e = text.indexOf("\n", i);
        const z = e < 0 ? n : e;
        fill(i, z, COMMENT);
        i = z;
        continue;
      }
      const pm = /^[rRbBuUfF]{0,2}("""|'''|"|')/.exec(text.slice(i, i + 5));
      if (pm && (i === 0 || !/[\w]/.test(text[i - 1]))) {
        const q = pm[1];
        const a = i;
        let j = i + pm[0].length;
        if (q.length === 3) {
          while (j < n && text.slice(j, j + 3) !== q) j += text[j] === "\\" ? 2 : 1;
          j = Math.min(n, j + 3);
          // a docstring: the first thing on its line, after a line ending a block header (or file start)
          const lineStart = text.lastIndexOf("\n", a - 1) + 1;
          const first = /^\s*$/.test(text.slice(lineStart, a));
          fill(a, j, first && lastCode === ":" ? DOC : STRING);
        } else {
          while (j < n && text[j] !== q && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
          j = Math.min(n, j + 1);
          fill(a, j, STRING);
        }
        lastCode = "s";
        i = j;
        continue;
      }
      if (!/\s/.test(c)) lastCode = c;
      i++;
    }
    return out;
  }
  while (i < n) {
    const c = text[i],
      d = text[i + 1];
    if (c === "/" && d === "/") {
      const e = text.indexOf("\n", i);
      const z = e < 0 ? n : e;
      fill(i, z, COMMENT);
      i = z;
    } else if (c === "/" && d === "*") {
      const e = text.indexOf("*/", i + 2);
      const z = e < 0 ? n : e + 2;
      fill(i, z, text[i + 2] === "*" && text[i + 3] !== "/" ? DOC : COMMENT);
      i = z;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < n && text[j] !== c && (c === "`" || text[j] !== "\n")) j += text[j] === "\\" ? 2 : 1;
      j = Math.min(n, j + 1);
      fill(i, j, STRING);
      i = j;
    } else i++;
  }
  return out;
}

/** The text of line `ln` (1-based) split into runs of one class: [{ cls, text }]. */
export function lineRuns(file, ln) {
  const start = file.lineStarts[ln - 1],
    end = ln < file.lineStarts.length ? file.lineStarts[ln] - 1 : file.text.length;
  const runs = [];
  for (let i = start; i < end; i++) {
    const k = file.classes[i];
    if (runs.length && runs[runs.length - 1].cls === k) runs[runs.length - 1].text += file.text[i];
    else runs.push({ cls: k, text: file.text[i] });
  }
  return runs;
}

/** Adds lineStarts and character classes to a file from readTree. */
export function prepareFile(file) {
  if (file.classes) return file;
  const language = file.path.endsWith(".py") || file.path.endsWith(".pyi") ? "python" : "js";
  file.classes = classify(file.text, language);
  file.lineStarts = [0];
  for (let i = 0; i < file.text.length; i++) if (file.text[i] === "\n") file.lineStarts.push(i + 1);
  file.language = language;
  return file;
}
