/**
 * Runs one engine call in a child process and reports its answer (or error) with the child's peak
 * RSS, for fault tests that bound memory: `node engine-child.mjs ROOT CACHE METHOD ARGS_JSON`.
 * It loads the built dist/, as the CLI does.
 */
import { createEngine } from "../../dist/index.js";
import { createNodePlatform } from "../../dist/platform/node/index.js";

const [root, cacheDir, method, args] = process.argv.slice(2);
const report = (value) => {
  process.stdout.write(JSON.stringify({ ...value, maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024) }));
};
try {
  const engine = createEngine(await createNodePlatform({ root, cacheDir }));
  const answer = await engine[method](...JSON.parse(args));
  report({ ok: true, answer });
  engine.close();
} catch (error) {
  report({ ok: false, code: error?.code, message: String(error?.message), data: error?.data });
}
