#!/usr/bin/env node
/**
 * The `codeslice` command line. A thin start: a call the project's warm server can answer
 * (warm-client.ts) is sent there and its answer printed, without loading the engine; every other
 * call runs the command table in this process (full-cli.ts), as it always has, and a call that
 * found no server starts one for the next call once it has answered.
 */
import { askServer, planWarm, shouldStartServer, startServer, writeAnswer, type WarmOutcome } from "./warm-client.ts";
import { builtin, SERVE_WORD } from "./warm-socket.ts";

const { readFileSync, statSync } = builtin("node:fs");
const { fileURLToPath } = builtin("node:url");

// Never throws at load: under Deno without --allow-read, main() must still run to name the missing flag.
const VERSION = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string })
      .version;
  } catch {
    return "unknown";
  }
})();
const ENTRY = fileURLToPath(import.meta.url);
/**
 * What a caller and a server compare: the version, and the time this file was written, so a
 * rebuilt or reinstalled codeslice of the same version does not talk to a server of the old code.
 */
const BUILD = (() => {
  try {
    return `${VERSION}+${statSync(ENTRY).mtimeMs}`;
  } catch {
    return VERSION;
  }
})();

// A reader that stops early (`codeslice map | head`) closes the pipe: that is the reader's choice,
// not a failure, so stop quietly as other command-line tools do instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === SERVE_WORD) {
    const { serveWarm } = await import("./warm-server.ts");
    return serveWarm(argv.slice(1), { version: VERSION, entry: ENTRY }, BUILD);
  }
  let plan: ReturnType<typeof planWarm>;
  try {
    plan =
      (globalThis as { Deno?: unknown }).Deno === undefined ? planWarm(argv, process.env, process.cwd()) : undefined;
  } catch {
    plan = undefined; // whatever this host refuses here, the call still runs in-process
  }
  let outcome: WarmOutcome | undefined;
  if (plan) {
    outcome = await askServer(plan.location, { version: BUILD, argv: plan.argv, cwd: plan.cwd });
    if (outcome.answered) {
      await writeAnswer(outcome);
      return outcome.code;
    }
  }
  const { runFullCli } = await import("./full-cli.ts");
  const code = await runFullCli(argv, { version: VERSION, entry: ENTRY });
  // The first call answers as it always has, then starts the server: never slower than before by
  // more than the spawn.
  if (plan && code === 0 && shouldStartServer(outcome)) startServer(plan, ENTRY);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`codeslice: internal error: ${String((error as Error)?.message ?? error).split("\n")[0]}\n`);
    process.exitCode = 1;
  },
);
