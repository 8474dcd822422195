/**
 * Golden answers: what the CLI prints for a small shop project (test/golden/shop.txt), one file per
 * question under test/golden/answers/, compared byte for byte. A change in an answer's wording,
 * order, citations or token counts fails here and shows up in review as a diff of those files.
 *
 *   UPDATE_GOLDEN=1 npx vitest run test/golden     rewrites the files from what the CLI prints now
 *
 * Each answer is made the way a user makes it: the built CLI in a fresh git repository of the
 * fixture, with its own cache. `changes` answers for an edit made after the commit.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt, repoRoot, runCli, tempDirs } from "../support/cli.ts";
import { parseFixture } from "../support/platform.ts";

const here = path.join(repoRoot, "test", "golden");
const answers = path.join(here, "answers");
const update = process.env.UPDATE_GOLDEN === "1";

/** The questions: a name (the answer's file) and the CLI arguments. */
const QUESTIONS: readonly { name: string; args: string[]; stdin?: string }[] = [
  { name: "map", args: ["map", "--budget", "1200"] },
  { name: "context-symbol", args: ["context", "Cart.total", "--budget", "900"] },
  { name: "context-route", args: ["context", "GET /carts/{cart_id}/total", "--budget", "900"] },
  {
    name: "context-words",
    args: ["context", "the cart total is wrong when a product is added twice", "--budget", "900"],
  },
  { name: "callers", args: ["callers", "price_of"] },
  { name: "impact", args: ["impact", "Price.add"] },
  { name: "tests", args: ["tests", "Cart.add"] },
  { name: "signature", args: ["signature", "Cart"] },
  { name: "trace", args: ["trace", "GET /carts/{cart_id}/total", "price_of"] },
  {
    name: "locate",
    args: ["locate", "-", "--limit", "3"],
    stdin: [
      "Adding a discount code crashes the cart total",
      "",
      "```",
      "Traceback (most recent call last):",
      '  File "/home/me/repro.py", line 4, in <module>',
      "    print(cart.total())",
      "KeyError: 'unknown product code: SAVE10'",
      "```",
    ].join("\n"),
  },
];

const dirs = tempDirs("codeslice-golden-");
let root = "";
let cache = "";

/** Runs one question in the fixture repository; stdout and the exit code, as a user sees them. */
function ask(args: string[], stdin?: string): string {
  if (stdin === undefined) {
    const r = runCli([...args, "--root", root, "--cache-dir", cache], { cwd: root });
    return `$ codeslice ${args.join(" ")}\n# exit ${r.status}\n${r.stdout}`;
  }
  try {
    const out = execFileSync(
      process.execPath,
      [path.join(repoRoot, "dist", "cli", "main.js"), ...args, "--root", root, "--cache-dir", cache],
      { cwd: root, input: stdin, encoding: "utf8" },
    );
    return `$ codeslice ${args.join(" ")} < report.txt\n# exit 0\n${out}`;
  } catch (error) {
    const e = error as { status: number; stdout: string };
    return `$ codeslice ${args.join(" ")} < report.txt\n# exit ${e.status}\n${e.stdout}`;
  }
}

/** Compares `actual` with the golden file `name` (or writes it under UPDATE_GOLDEN=1). */
function golden(name: string, actual: string): void {
  const file = path.join(answers, `${name}.txt`);
  if (update) {
    fs.mkdirSync(answers, { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  expect(
    fs.existsSync(file),
    `${path.relative(repoRoot, file)} is missing: run UPDATE_GOLDEN=1 npx vitest run test/golden`,
  ).toBe(true);
  const expected = fs.readFileSync(file, "utf8");
  if (actual === expected) return;
  const a = actual.split("\n");
  const e = expected.split("\n");
  const line = a.findIndex((l, i) => l !== e[i]);
  const at = line < 0 ? Math.min(a.length, e.length) : line;
  expect.fail(
    `${name}: the answer differs from ${path.relative(repoRoot, file)} at line ${at + 1}\n  golden: ${JSON.stringify(e[at])}\n  now:    ${JSON.stringify(a[at])}\n` +
      "If the change is intended, run UPDATE_GOLDEN=1 npx vitest run test/golden and commit the files.",
  );
}

beforeAll(() => {
  ensureCliBuilt();
  root = dirs.make();
  cache = path.join(dirs.make(), "cache");
  for (const [rel, text] of Object.entries(parseFixture(fs.readFileSync(path.join(here, "shop.txt"), "utf8")))) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text.endsWith("\n") ? text : `${text}\n`);
  }
  // A fixed author, date and branch: the commit's hash and name appear in the `changes` answer.
  const env = { ...process.env, GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" };
  const git = (...args: string[]) =>
    execFileSync(
      "git",
      [
        "-c",
        "user.email=golden@example.com",
        "-c",
        "user.name=golden",
        "-c",
        "commit.gpgsign=false",
        "-c",
        "init.defaultBranch=main",
        ...args,
      ],
      { cwd: root, stdio: "ignore", env },
    );
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "shop");
}, 120_000);

afterAll(() => dirs.cleanup());

describe("golden answers (test/golden/answers/*.txt)", () => {
  for (const q of QUESTIONS) {
    it(q.name, () => golden(q.name, ask(q.args, q.stdin)), 60_000);
  }

  it("changes (a working-tree edit: a new parameter with a default)", () => {
    const file = path.join(root, "shop", "cart.py");
    const before = fs.readFileSync(file, "utf8");
    try {
      fs.writeFileSync(
        file,
        before
          .replace("def total(self) -> Price:", "def total(self, discount: int = 0) -> Price:")
          .replace(
            "        return total\n",
            "        if discount:\n            total = Price(total.amount - discount, total.currency)\n        return total\n",
          ),
      );
      golden("changes", ask(["changes", "--budget", "1500"]));
    } finally {
      fs.writeFileSync(file, before);
    }
  }, 60_000);
});
