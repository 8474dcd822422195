/** `codeslice stop`: stops the project's warm CLI server. */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { defineCommand } from "../command.ts";
import { projectFlags, rootArg } from "../flags.ts";
import { EXIT, writeOut } from "../output.ts";
import { askServer } from "../warm-client.ts";
import { DEFAULT_IDLE_MS, PID_SUFFIX, socketLocation } from "../warm-socket.ts";

/** `codeslice stop`. */
export const stopCommand = defineCommand({
  name: "stop",
  summary: "Stop the project's warm server (later calls start it again)",
  args: [rootArg],
  flags: { root: projectFlags.root, cacheDir: projectFlags.cacheDir },
  help: `The first call of a command that reads the index (all but index, graph, scip, changes,
rename, mcp, lsp and stop) on a project answers as usual, then starts a small background
server for that project; later calls hand their command line to it and print its answer, the same
bytes and exit code, without loading the engine again (0.06 CPU-seconds for the calling process on
django instead of about one). The server checks the tree for edits before each answer. It stops
after ${DEFAULT_IDLE_MS / 60_000} minutes without a call (CODESLICE_SERVER_IDLE_MS sets another time in ms), when a
codeslice of another version calls, when the project folder goes away, and on \`codeslice stop\`.
Its socket is <cache>/.cli.sock, mode 0600, and its process id is in .cli.sock.pid next to it.
A socket owned by another user or open to others is never used; the call then answers
in-process.

--no-server or CODESLICE_NO_SERVER=1 answers in-process and starts no server; it is off by
default when CI is set (CODESLICE_SERVER=1 turns it on there), under Deno and on Windows.`,
  examples: ["codeslice stop", "codeslice stop --root ~/src/shop"],
  async run({ flags }) {
    let root: string;
    try {
      root = fs.realpathSync(nodePath.resolve(flags.root ?? "."));
    } catch {
      writeOut(`No codeslice server runs for ${nodePath.resolve(flags.root ?? ".")}: the folder does not exist.`);
      return EXIT.ok;
    }
    const cacheDir =
      flags.cacheDir !== undefined ? nodePath.resolve(flags.cacheDir) : nodePath.join(root, ".codeslice");
    const location = socketLocation(root, cacheDir);
    const outcome = await askServer(location, { version: "", stop: true });
    if (outcome.answered) {
      const served = Buffer.concat(outcome.stdout).toString("utf8");
      writeOut(
        `Stopped the codeslice server for ${root} (it answered ${served} ${served === "1" ? "call" : "calls"}).`,
      );
      return EXIT.ok;
    }
    if (outcome.reason === "refused") {
      // A socket of ours no process answers on: the server died without cleaning up.
      fs.rmSync(location.path, { force: true });
      fs.rmSync(location.path + PID_SUFFIX, { force: true });
      writeOut(`No codeslice server runs for ${root}; removed its stale socket ${location.path}.`);
      return EXIT.ok;
    }
    if (outcome.reason === "missing") {
      writeOut(`No codeslice server runs for ${root}.`);
      return EXIT.ok;
    }
    process.stderr.write(
      `codeslice: not stopping ${location.path}: ${refusalWords(outcome.reason)}\nhint: remove it if it is not ` +
        `yours to keep; calls answer in-process meanwhile.\n`,
    );
    return EXIT.failure;
  },
});

function refusalWords(reason: string): string {
  switch (reason) {
    case "not_a_socket":
      return "it is not a socket";
    case "foreign_owner":
      return "it belongs to another user";
    case "open_mode":
      return "its mode lets other users connect (codeslice makes it 0600)";
    case "open_folder":
      return "its folder is not private to this user (mode 0700)";
    default:
      return `the server did not answer (${reason})`;
  }
}
