/**
 * Hostile group files and group arguments (issue 25: a group file is input from outside). Each is
 * refused with `invalid_argument` or `outside_root`, with nothing written anywhere: not in the
 * cache folder given, not beside the group file, not outside it. A repository name becomes a cache
 * folder, so a name like `../x` must be refused before any platform is made for it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isEngineError, MAX_GROUP_REPOS } from "../../src/index.ts";
import { createNodePlatform } from "../../src/platform/node/index.ts";
import { MAX_GROUP_FILE_BYTES, openGroup, readGroupFile, type GroupEntry } from "../../src/mcp/group-file.ts";
import { tempDirs } from "../support/cli.ts";

const temps = tempDirs("codeslice-group-file-");
afterAll(() => temps.cleanup());

/** Every path below `dir`, sorted: what a refused call must leave as it was. */
function listing(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map(String).sort();
}

/** A folder holding two small repositories and a group file with `content`. */
function groupFolder(content: string | Buffer): { dir: string; file: string } {
  const dir = temps.project({ "api/app.py": "def f():\n    return 1\n", "web/app.ts": "export const g = () => 1;\n" });
  const file = path.join(dir, "codeslice.group.json");
  fs.writeFileSync(file, content);
  return { dir, file };
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isEngineError(error) ? error.code : `not an engine error: ${String(error)}`;
  }
  return undefined;
}

describe("hostile group files are refused and write nothing", () => {
  const cases: [string, string | Buffer, string][] = [
    ["not JSON", "{ repos: [", "invalid_argument"],
    ["binary bytes", Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x7b]), "invalid_argument"],
    ["no repos", JSON.stringify({ repos: [] }), "invalid_argument"],
    ["repos is not a list", JSON.stringify({ repos: { name: "api", root: "api" } }), "invalid_argument"],
    ["an entry of the wrong types", JSON.stringify({ repos: [{ name: 1, root: ["api"] }] }), "invalid_argument"],
    ["a null entry", JSON.stringify({ repos: [null] }), "invalid_argument"],
    ["a root outside the file's folder", JSON.stringify({ repos: [{ name: "api", root: "../.." }] }), "outside_root"],
    ["an absolute root elsewhere", JSON.stringify({ repos: [{ name: "api", root: "/etc" }] }), "outside_root"],
    [
      "an index outside",
      JSON.stringify({ repos: [{ name: "api", root: "api", index: "../x.csidx" }] }),
      "outside_root",
    ],
    [
      "a file over the size bound",
      JSON.stringify({ repos: [{ name: "api", root: "api" }], pad: "x".repeat(MAX_GROUP_FILE_BYTES) }),
      "invalid_argument",
    ],
  ];
  for (const [label, content, code] of cases) {
    it(label, () => {
      const { dir, file } = groupFolder(content);
      const before = listing(dir);
      expect(codeOf(() => readGroupFile(file))).toBe(code);
      expect(listing(dir)).toEqual(before);
    });
  }

  it("a root reached through a symbolic link that leaves the folder", () => {
    const { dir, file } = groupFolder(JSON.stringify({ repos: [{ name: "api", root: "link" }] }));
    fs.symlinkSync(temps.make(), path.join(dir, "link"));
    expect(codeOf(() => readGroupFile(file))).toBe("outside_root");
  });
});

describe("group names and sizes are checked before anything is opened", () => {
  /** Opens `entries` with a cache folder inside a fresh folder; returns the refusal's code and what that folder holds after. */
  const refused = async (entries: GroupEntry[]) => {
    const base = temps.make();
    const cacheDir = path.join(base, "cache");
    fs.mkdirSync(cacheDir);
    let code: string | undefined;
    try {
      const opened = await openGroup(entries, (o) => createNodePlatform(o), { cacheDir });
      opened.close();
    } catch (error) {
      code = isEngineError(error) ? error.code : String(error);
    }
    return { code, after: listing(base) };
  };
  const { dir } = groupFolder("{}");
  const api = path.join(dir, "api");

  it("a name that climbs out of the cache folder", async () => {
    expect(await refused([{ name: "../escaped", root: api }])).toEqual({ code: "invalid_argument", after: ["cache"] });
  });
  it("a prototype key, a colon, an empty name, a name twice", async () => {
    for (const entries of [
      [{ name: "__proto__", root: api }],
      [{ name: "a:b", root: api }],
      [{ name: "", root: api }],
      [
        { name: "api", root: api },
        { name: "api", root: api },
      ],
    ]) {
      expect(await refused(entries)).toEqual({ code: "invalid_argument", after: ["cache"] });
    }
  });
  it(`more than ${MAX_GROUP_REPOS} repositories`, async () => {
    const many = Array.from({ length: MAX_GROUP_REPOS + 1 }, (_, i) => ({ name: `r${i}`, root: api }));
    expect(await refused(many)).toEqual({ code: "invalid_argument", after: ["cache"] });
  });
});
