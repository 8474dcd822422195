/**
 * The whole command line in this process: the command table, the engine and everything it loads.
 * main.ts imports it only when the warm CLI's server does not answer the call.
 */
import { COMMANDS } from "./commands/index.ts";
import { runCli, type CliHost } from "./dispatch.ts";
import { reportError } from "./output.ts";
import { useBuild } from "./with-engine.ts";

/** Runs `argv` against the command table in this process; resolves to the exit code. */
export async function runFullCli(argv: readonly string[], host: CliHost): Promise<number> {
  useBuild(host);
  try {
    return await runCli(argv, COMMANDS, host);
  } catch (error) {
    return reportError(error, false);
  }
}
