// The five accuracy corpora: real third-party code nobody on the project wrote, each prepared as its
// own git repository (so codeslice's git-aware scan sees exactly the committed files).
//   requests, click, rich  Debian's python3-* packages, copied to <corpora>/<p>/<p> without __pycache__
//                          (the package folder is kept so absolute imports resolve)
//   rxjs 7.8.2, zod 4.6.7   `src/` of the npm tarballs (zod without tests/, benchmarks/ and *.test.ts),
//                          plus a tsconfig.json the TypeScript checker accepts (tsconfig/<name>.json)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { copyWithoutPycache, gitCommitAll } from "../lib/bench-utils.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const DIST_PACKAGES = "/usr/lib/python3/dist-packages";

export const CORPORA = [
  { name: "requests", language: "python", debian: "python3-requests" },
  { name: "click", language: "python", debian: "python3-click" },
  { name: "rich", language: "python", debian: "python3-rich" },
  { name: "rxjs", language: "typescript", npm: "rxjs@7.8.2" },
  { name: "zod", language: "typescript", npm: "zod@4.6.7" },
];

const sh = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/** The corpus' committed tree id, or null when it is not a clean git repository. */
export function corpusTree(dir) {
  try {
    if (sh("git", ["status", "--porcelain"], dir) !== "") return null;
    return sh("git", ["rev-parse", "HEAD^{tree}"], dir);
  } catch {
    return null;
  }
}

/** Python corpora need the Debian packages; returns the apt command to run, or null when all are there. */
export function missingDebianPackages(specs) {
  const missing = specs.filter((c) => c.debian && !fs.existsSync(path.join(DIST_PACKAGES, c.name)));
  return missing.length ? `apt-get install -y ${missing.map((c) => c.debian).join(" ")}` : null;
}

/** Makes `<corporaDir>/<name>` if it is not already a committed git repo; returns its path. */
export function prepareCorpus(spec, corporaDir) {
  const dir = path.join(corporaDir, spec.name);
  if (fs.existsSync(path.join(dir, ".git")) && corpusTree(dir)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  console.error(`preparing corpus ${spec.name} in ${dir}`);
  if (spec.debian) {
    copyWithoutPycache(path.join(DIST_PACKAGES, spec.name), path.join(dir, spec.name));
    const version = sh("dpkg-query", ["-W", "-f=${Version}", spec.debian]);
    gitCommitAll(dir, `${spec.name} ${version} from Debian`);
    return dir;
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-corpus-"));
  try {
    const tgz = sh("npm", ["pack", spec.npm, "--silent"], tmp).split("\n").pop();
    sh("tar", ["xzf", tgz], tmp);
    const pkg = path.join(tmp, "package");
    fs.renameSync(path.join(pkg, "src"), path.join(dir, "src"));
    for (const license of ["LICENSE", "LICENSE.txt"]) {
      if (fs.existsSync(path.join(pkg, license))) fs.copyFileSync(path.join(pkg, license), path.join(dir, license));
    }
    const version = spec.npm.split("@").pop();
    if (spec.name === "rxjs") {
      // the tarball's own src/tsconfig*.json point outside src/; the corpus has one tsconfig at its root
      for (const f of fs.readdirSync(path.join(dir, "src")))
        if (/^tsconfig.*\.json$/.test(f)) fs.rmSync(path.join(dir, "src", f));
      fs.rmSync(path.join(dir, "src/Rx.global.js"), { force: true });
      fs.writeFileSync(
        path.join(dir, "package.json"),
        `${JSON.stringify({ name: "rxjs-corpus", version, private: true })}\n`,
      );
    } else if (spec.name === "zod") {
      removeTests(path.join(dir, "src"));
      fs.writeFileSync(
        path.join(dir, "package.json"),
        `${JSON.stringify({ name: "zod-corpus", version, private: true, type: "module" })}\n`,
      );
    }
    fs.copyFileSync(path.join(here, "tsconfig", `${spec.name}.json`), path.join(dir, "tsconfig.json"));
    gitCommitAll(dir, `${spec.npm} src from npm`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

function removeTests(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name === "tests" || e.name === "benchmarks") fs.rmSync(p, { recursive: true, force: true });
      else removeTests(p);
    } else if (e.name.endsWith(".test.ts")) fs.rmSync(p);
  }
}
