/**
 * The command table: every `codeslice` command, in the order help lists them. A new command is a
 * file here exporting `defineCommand({ name, summary, args, flags, help, examples, run })`, its
 * import and its entry below; dispatch, did-you-mean, `--help`, docs/cli.md and the README table
 * follow from it (`npm run docs:cli` rewrites the two documents).
 */
import type { Command } from "../command.ts";
import { callersCommand } from "./callers.ts";
import { calleesCommand } from "./callees.ts";
import { changesCommand } from "./changes.ts";
import { checkCommand } from "./check.ts";
import { contextCommand } from "./context.ts";
import { dataflowCommand } from "./dataflow.ts";
import { graphCommand } from "./graph.ts";
import { grepCommand } from "./grep.ts";
import { impactCommand } from "./impact.ts";
import { importersCommand } from "./importers.ts";
import { indexCommand } from "./index-command.ts";
import { locateCommand } from "./locate.ts";
import { mapCommand } from "./map.ts";
import { lspCommand } from "./lsp.ts";
import { mcpCommand } from "./mcp.ts";
import { packCommand } from "./pack.ts";
import { queryCommand } from "./query.ts";
import { routesCommand } from "./routes.ts";
import { renameCommand } from "./rename.ts";
import { scipCommand } from "./scip.ts";
import { searchCommand } from "./search.ts";
import { signatureCommand } from "./signature.ts";
import { stopCommand } from "./stop.ts";
import { testsCommand } from "./tests.ts";
import { traceCommand } from "./trace.ts";

/** Every command, in the order `codeslice --help`, docs/cli.md and the README list them. */
export const COMMANDS: readonly Command[] = [
  indexCommand,
  mapCommand,
  contextCommand,
  packCommand,
  locateCommand,
  searchCommand,
  grepCommand,
  callersCommand,
  calleesCommand,
  importersCommand,
  testsCommand,
  impactCommand,
  traceCommand,
  dataflowCommand,
  queryCommand,
  routesCommand,
  signatureCommand,
  changesCommand,
  checkCommand,
  renameCommand,
  graphCommand,
  scipCommand,
  mcpCommand,
  stopCommand,
  lspCommand,
];
