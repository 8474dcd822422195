// Runs the compiler-grade indexer on one corpus: scip-python (Pyright) or scip-typescript (tsc).
// Outputs are cached by the corpus' git tree id and the indexer version, since one run takes
// seconds to tens of seconds and the result only changes when the corpus does.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { benchCache } from "../lib/bench-utils.mjs";
import { corpusTree } from "./corpora.mjs";
import { TOOL_VERSIONS, toolBin } from "./tools.mjs";

/** @returns {Promise<{ file: string, seconds: number | null, cached: boolean }>} */
export async function scipIndex(spec, corpusDir, { fresh = false } = {}) {
  const tool = spec.language === "python" ? "scip-python" : "scip-typescript";
  const version = TOOL_VERSIONS[`@sourcegraph/${tool}`];
  const tree = corpusTree(corpusDir);
  const dir = path.join(benchCache, "scip");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(
    dir,
    tree ? `${spec.name}-${tree.slice(0, 12)}-${tool}-${version}.scip` : `${spec.name}-uncommitted.scip`,
  );
  if (!fresh && tree && fs.existsSync(file)) return { file, seconds: null, cached: true };

  const args = [toolBin(tool), "index"];
  if (spec.language === "python") {
    // `--environment` with an empty list stops scip-python from running `pip list`: only the corpus is resolved
    const env = path.join(dir, "empty-environment.json");
    fs.writeFileSync(env, "[]\n");
    args.push("--quiet", "--project-name", spec.name, "--project-version", "0", "--environment", env);
  } else {
    args.push("--no-progress-bar");
  }
  const tmp = `${file}.tmp-${process.pid}`;
  args.push("--output", tmp);
  const t0 = process.hrtime.bigint();
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: corpusDir, stdio: ["ignore", "ignore", "pipe"] });
    const err = [];
    child.stderr.on("data", (b) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`${tool} failed on ${corpusDir} (exit ${code})\n${Buffer.concat(err).toString().slice(-2000)}`),
          ),
    );
  });
  fs.renameSync(tmp, file);
  return { file, seconds: Number(process.hrtime.bigint() - t0) / 1e9, cached: false };
}
