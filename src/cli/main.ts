#!/usr/bin/env node
/** The `codeslice` command line: runs argv against the command table in commands/index.ts. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { COMMANDS } from "./commands/index.ts";
import { runCli } from "./dispatch.ts";
import { EXIT, reportError } from "./output.ts";

// Never throws at load: under Deno without --allow-read, main() must still run to name the missing flag.
const VERSION = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
})();

// A reader that stops early (`codeslice map | head`) closes the pipe: that is the reader's choice,
// not a failure, so stop quietly as other command-line tools do instead of crashing on EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? EXIT.ok);
    throw error;
  });
}

runCli(process.argv.slice(2), COMMANDS, { version: VERSION, entry: fileURLToPath(import.meta.url) }).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.exitCode = reportError(error, false);
  },
);
