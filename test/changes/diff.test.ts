/**
 * Line diffs and unified diffs, as data: hunks must rebuild the new text from the old one and be
 * minimal (checked against a textbook LCS on random inputs); parsed diffs must keep paths,
 * statuses and hunks, and apply forwards and backwards.
 */
import { describe, expect, it } from "vitest";
import { diffLines, splitLines, type Hunk } from "../../src/core/changes/line-diff.ts";
import { applyHunks, fromLines, parseUnifiedDiff, toLines } from "../../src/core/changes/unified-diff.ts";

/** Applies hunks to `a`, as a unified diff would. */
function rebuild(a: string[], b: string[], hunks: Hunk[]): string[] {
  const out: string[] = [];
  let i = 0;
  for (const h of hunks) {
    const upTo = h.oldLines > 0 ? h.oldStart - 1 : h.oldStart;
    out.push(...a.slice(i, upTo));
    i = upTo + h.oldLines;
    out.push(
      ...b.slice(
        h.newLines > 0 ? h.newStart - 1 : h.newStart,
        (h.newLines > 0 ? h.newStart - 1 : h.newStart) + h.newLines,
      ),
    );
  }
  out.push(...a.slice(i));
  return out;
}

function lcs(a: string[], b: string[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
  return dp[a.length]![b.length]!;
}

/** A small deterministic random generator (tests must not flake). */
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

describe("diffLines", () => {
  it("rebuilds the new side and changes no more lines than the longest common subsequence allows", () => {
    const r = rng(7);
    for (let n = 0; n < 300; n++) {
      const a = Array.from({ length: Math.floor(r() * 30) }, () => "abcde"[Math.floor(r() * 5)]!);
      const b = a.filter(() => r() > 0.2).flatMap((x) => (r() > 0.8 ? [x, "xyz"[Math.floor(r() * 3)]!] : [x]));
      const hunks = diffLines(a, b);
      expect(rebuild(a, b, hunks)).toEqual(b);
      const changed = hunks.reduce((s, h) => s + h.oldLines + h.newLines, 0);
      expect(changed).toBe(a.length + b.length - 2 * lcs(a, b));
    }
  });

  it("numbers hunks like git diff -U0 (pure insertions and deletions name the line before)", () => {
    expect(diffLines(["a", "b", "c"], ["a", "x", "b", "c"])).toEqual([
      { oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 },
    ]);
    expect(diffLines(["a", "b", "c"], ["a", "c"])).toEqual([{ oldStart: 2, oldLines: 1, newStart: 1, newLines: 0 }]);
    expect(diffLines([], ["a"])).toEqual([{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }]);
    expect(diffLines(["a", "b"], ["a", "c"])).toEqual([{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }]);
  });

  it("stays fast and correct on a rewrite far past the Myers cap", () => {
    const a = Array.from({ length: 6000 }, (_, i) => `line ${i}`);
    const b = a.map((l, i) => (i % 2 ? `${l} changed` : l));
    const started = performance.now();
    const hunks = diffLines(a, b);
    expect(rebuild(a, b, hunks)).toEqual(b);
    expect(hunks.length).toBe(3000);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("splitLines: a final newline ends the last line", () => {
    expect(splitLines("a\nb\n")).toEqual(["a", "b"]);
    expect(splitLines("a\nb")).toEqual(["a", "b"]);
    expect(splitLines("")).toEqual([]);
  });
});

const GIT_DIFF = `From 1234 Mon Sep 17 00:00:00 2001
Subject: [PATCH] rename and edit

diff --git a/src/old name.py b/src/new.py
similarity index 90%
rename from src/old name.py
rename to src/new.py
index 1111111..2222222 100644
--- a/src/old name.py
+++ b/src/new.py
@@ -1,3 +1,3 @@
 def f():
-    return 1
+    return 2

diff --git a/logo.png b/logo.png
index 3333333..4444444 100644
Binary files a/logo.png and b/logo.png differ
diff --git a/gone.py b/gone.py
deleted file mode 100644
index 5555555..0000000
--- a/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-x = 1
diff --git a/new.ts b/new.ts
new file mode 100644
index 0000000..6666666
--- /dev/null
+++ b/new.ts
@@ -0,0 +1 @@
+export const y = 2;
\\ No newline at end of file
diff --git "a/caf\\303\\251.py" "b/caf\\303\\251.py"
--- "a/caf\\303\\251.py"
+++ "b/caf\\303\\251.py"
@@ -1 +1 @@
-a
+b
`;

describe("parseUnifiedDiff", () => {
  it("reads git's renames, binary markers, deletions, additions, quoted paths and mail headers", () => {
    const patches = parseUnifiedDiff(GIT_DIFF);
    expect(patches.map((p) => [p.status, p.oldPath, p.newPath, p.binary, p.hunks.length])).toEqual([
      ["renamed", "src/old name.py", "src/new.py", false, 1],
      ["modified", "logo.png", "logo.png", true, 0],
      ["deleted", "gone.py", undefined, false, 1],
      ["added", undefined, "new.ts", false, 1],
      ["modified", "café.py", "café.py", false, 1],
    ]);
    expect(patches[0]).toMatchObject({ oldBlob: "1111111", newBlob: "2222222" });
    expect(patches[3]!.hunks[0]!.newNoNewline).toBe(true);
  });

  it("reads diff -u output (no prefixes, timestamps) and a context line whose space was stripped", () => {
    const text =
      "--- lib/a.py\t2024-01-01 10:00:00.000000000 +0100\n+++ lib/a.py\t2024-01-02 10:00:00.000000000 +0100\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n";
    const [p] = parseUnifiedDiff(text);
    expect(p).toMatchObject({ oldPath: "lib/a.py", newPath: "lib/a.py", status: "modified" });
    expect(p!.hunks[0]!.lines).toEqual([" a", " ", "-b", "+c"]);
  });

  it("refuses text without file changes and hunks cut short", () => {
    expect(() => parseUnifiedDiff("hello\n")).toThrow(expect.objectContaining({ code: "invalid_diff" }));
    expect(() => parseUnifiedDiff("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n")).toThrow(
      expect.objectContaining({ code: "invalid_diff" }),
    );
  });
});

describe("applyHunks", () => {
  const [patch] = parseUnifiedDiff("--- a/x\n+++ b/x\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n");
  it("applies forwards, finds a hunk that moved, and reports where a hunk does not match", () => {
    const ok = applyHunks(toLines("a\nb\nc\nd\ne\n"), patch!.hunks, false);
    expect(ok.ok && fromLines(ok.result)).toBe("a\nb\nC\nd\ne\n");
    const moved = applyHunks(toLines("new\nlines\na\nb\nc\nd\n"), patch!.hunks, false);
    expect(moved.ok && fromLines(moved.result)).toBe("new\nlines\na\nb\nC\nd\n");
    const bad = applyHunks(toLines("a\nb\nX\nd\n"), patch!.hunks, false);
    expect(bad.ok).toBe(false);
  });

  it("applies backwards: the '+' lines must be there", () => {
    const back = applyHunks(toLines("a\nb\nC\nd\ne\n"), patch!.hunks, true);
    expect(back.ok && fromLines(back.result)).toBe("a\nb\nc\nd\ne\n");
    expect(applyHunks(toLines("a\nb\nc\nd\ne\n"), patch!.hunks, true).ok).toBe(false);
  });
});
