/**
 * A long-running engine in a child process, as a server holds one (watching the tree), for fault
 * tests that kill it between calls: `node watching-child.mjs ROOT CACHE SAVE_DELAY_MS`. Reads one
 * JSON request per stdin line, `{"method": "callers", "args": ["x"]}`, and writes one JSON line per
 * answer (`{ok, answer}` or `{ok: false, code, message}`). It loads the built dist/, as the CLI does.
 */
import { createInterface } from "node:readline";
import { createEngine } from "../../dist/index.js";
import { createNodePlatform } from "../../dist/platform/node/index.js";

const [root, cacheDir, saveDelayMs] = process.argv.slice(2);
const engine = createEngine(await createNodePlatform({ root, cacheDir }), {
  watch: true,
  saveDelayMs: Number(saveDelayMs),
});
for await (const line of createInterface({ input: process.stdin })) {
  const { method, args = [] } = JSON.parse(line);
  try {
    process.stdout.write(`${JSON.stringify({ ok: true, answer: await engine[method](...args) })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ ok: false, code: error?.code, message: String(error?.message) })}\n`);
  }
}
engine.close();
