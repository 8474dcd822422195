/**
 * The README is a door and docs/ holds the rest (issue 23): the README stays at most 250 lines, and
 * every relative link in README.md and docs/*.md leads to a file that exists, and its `#anchor` to a
 * heading in that file (GitHub's slugs). Links inside code blocks and code spans are not links.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const README_MAX_LINES = 250;
/**
 * Files another change generates that the docs already link to: a link to one passes while it does
 * not exist, and once it exists it is checked like any other (and the entry must go).
 */
const PENDING = new Set<string>([]);

/** README.md and every Markdown file directly in docs/, as paths relative to the root. */
function documents(): string[] {
  const docs = fs
    .readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs.sort()];
}

/** The lines of a Markdown text with fenced code blocks blanked (so line numbers stay). */
function unfenced(text: string): string[] {
  let fence: string | undefined;
  return text.split("\n").map((line) => {
    const mark = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence !== undefined) {
      if (mark && mark[1]![0] === fence[0] && mark[1]!.length >= fence.length && mark[2]!.trim() === "")
        fence = undefined;
      return "";
    }
    if (mark) fence = mark[1]!;
    return mark ? "" : line;
  });
}

/** Every link target in a Markdown text, with its line: inline `[x](target)` and `[x]: target`. */
function links(text: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  unfenced(text).forEach((full, i) => {
    const line = full.replace(/(`+)(?:(?!\1).)+\1/g, ""); // code spans are not links
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      found.push({ line: i + 1, target: m[1]! });
    const ref = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (ref) found.push({ line: i + 1, target: ref[1]! });
  });
  return found;
}

/** GitHub's anchor for each heading of a Markdown text (duplicates numbered -1, -2, …). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of unfenced(text)) {
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const slug = h[1]!
      .replace(/<[^>]+>/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** What is wrong with one link of `from` (a root-relative path), or undefined when it resolves. */
function problem(from: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:, …: not checked here
  const hash = target.indexOf("#");
  const file = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = file === "" ? path.join(root, from) : path.resolve(path.dirname(path.join(root, from)), file);
  if (!resolved.startsWith(root + path.sep) && resolved !== root) return `leads outside the repository (${file})`;
  if (!fs.existsSync(resolved))
    return PENDING.has(path.relative(root, resolved)) ? undefined : `no such file: ${path.relative(root, resolved)}`;
  if (anchor === undefined || anchor === "") return undefined;
  if (fs.statSync(resolved).isDirectory() || !resolved.endsWith(".md"))
    return `#${anchor} on a file that is not Markdown`;
  const headings = anchors(fs.readFileSync(resolved, "utf8"));
  return headings.has(anchor) ? undefined : `no heading #${anchor} in ${path.relative(root, resolved)}`;
}

describe("the README and docs/", () => {
  it(`README.md is at most ${README_MAX_LINES} lines`, () => {
    const lines = fs.readFileSync(path.join(root, "README.md"), "utf8").replace(/\n$/, "").split("\n").length;
    expect(lines, `README.md has ${lines} lines; move the detail to docs/`).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("every relative link resolves to a file, and every #anchor to a heading in it", () => {
    const dead: string[] = [];
    let checked = 0;
    for (const doc of documents()) {
      for (const { line, target } of links(fs.readFileSync(path.join(root, doc), "utf8"))) {
        checked += 1;
        const why = problem(doc, target);
        if (why) dead.push(`${doc}:${line}: (${target}) ${why}`);
      }
    }
    expect(dead, `dead links:\n${dead.join("\n")}`).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it("a pending file that exists is checked like any other, so it leaves the pending list", () => {
    const arrived = [...PENDING].filter((f) => fs.existsSync(path.join(root, f)));
    expect(arrived, `now generated, remove from PENDING in test/docs.test.ts: ${arrived.join(", ")}`).toEqual([]);
  });

  it("the anchor rule is GitHub's", () => {
    const text =
      "# A `code` title\n## The parse pool in Chromium (`bench:browser`, jobs 1, 2 and the default)\n## Twice\n## Twice\n````text\n```py\n# not a heading\n```\n## still code\n````\n";
    expect([...anchors(text)]).toEqual([
      "a-code-title",
      "the-parse-pool-in-chromium-benchbrowser-jobs-1-2-and-the-default",
      "twice",
      "twice-1",
    ]);
  });
});
