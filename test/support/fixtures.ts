/**
 * Fixture text for the shared test files, wherever they run: under Vite (Vitest in Node and in
 * Chromium) the files are bundled by `import.meta.glob`, since a browser cannot list a folder;
 * elsewhere (Deno with the Vitest shim) they are read from disk next to the tests.
 */

/** The fixture folders the shared tests read, relative to test/. */
export type FixtureDir = "languages/fixtures" | "graph/fixtures" | "slice/fixtures";

interface ImportMetaWithGlob {
  glob(pattern: string | string[], options: { query: string; import: string; eager: true }): Record<string, string>;
}

/** Every fixture under test/, keyed "languages/fixtures/python/x.py", or undefined outside Vite. */
function bundled(): Record<string, string> | undefined {
  try {
    // Vite rewrites this call into an object literal at transform time; without Vite there is no
    // `import.meta.glob` and the call throws.
    const found = (import.meta as unknown as ImportMetaWithGlob).glob(
      ["../languages/fixtures/**/*", "../graph/fixtures/**/*", "../slice/fixtures/**/*"],
      { query: "?raw", import: "default", eager: true },
    );
    return Object.fromEntries(Object.entries(found).map(([k, v]) => [k.replace(/^\.\.\//, ""), v]));
  } catch {
    return undefined;
  }
}

/** Reads `dir` from disk through node:fs (Node, and Deno's Node compatibility). */
async function fromDisk(dir: FixtureDir): Promise<Record<string, string>> {
  // A computed specifier keeps Vite's browser build from trying to resolve node:fs.
  const fsModule = "node:fs";
  const { readdirSync, readFileSync, statSync } = (await import(
    /* @vite-ignore */ fsModule
  )) as typeof import("node:fs");
  const base = new URL(`../${dir}/`, import.meta.url);
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(new URL(rel, base))) {
      if (name.startsWith(".")) continue;
      const child = `${rel}${name}`;
      if (statSync(new URL(child, base)).isDirectory()) walk(`${child}/`);
      else out[`${dir}/${child}`] = readFileSync(new URL(child, base), "utf8");
    }
  };
  walk("");
  return out;
}

/**
 * The files under test/<dir>/ as `{ "relative/path": text }`, sorted by path. Dot files are
 * left out, as a folder listing in the tests used to.
 */
export async function fixtureFiles(dir: FixtureDir): Promise<Record<string, string>> {
  const all = bundled() ?? (await fromDisk(dir));
  const prefix = `${dir}/`;
  const entries = Object.entries(all)
    .filter(
      ([k]) =>
        k.startsWith(prefix) &&
        !k
          .slice(prefix.length)
          .split("/")
          .some((s) => s.startsWith(".")),
    )
    .map(([k, v]) => [k.slice(prefix.length), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}
