/** `codeslice lsp`: the language server over stdio, for editors (Neovim, Helix, VS Code, Zed…). */
import { defineCommand } from "../command.ts";
import { integerFlag, projectFlags, rootArg, textFlag } from "../flags.ts";
import { createHostPlatform } from "../platform.ts";

/** `codeslice lsp`. */
export const lspCommand = defineCommand({
  name: "lsp",
  summary: "Serve definitions, references, hovers, symbols, call hierarchy and code lenses to an editor over LSP stdio",
  args: [rootArg],
  ownArgs: true,
  flags: {
    root: textFlag("root", "DIR", "Project folder", {
      default: "the root folder the editor opens, else the current folder",
    }),
    cacheDir: projectFlags.cacheDir,
    logLevel: textFlag("log-level", "L", "debug, info, warn, error or silent; logs go to stderr", { default: "warn" }),
    jobs: integerFlag("jobs", "N", 1, 64, "Threads that parse; the server keeps parsing off the thread that answers", {
      default: "the cores minus one, at least 2, at most 8",
    }),
  },
  help: `A Language Server Protocol server on stdin/stdout over the same index as the other
commands: go to definition, find references, hover (signature and docstring), document and
workspace symbols, call hierarchy, code lenses (callers and tests counts), and the custom
requests codeslice/context (target, budget → the bundle an agent gets) and codeslice/impact.
Answers read open documents' unsaved text. Edges carry their resolution and confidence in
\`data\`. The first index starts when the client connects, with $/progress when the client
supports it. The project is --root DIR (or a positional folder), else the client's root
folder, else the working directory. Editor setup: docs/editors.md.`,
  examples: [
    "codeslice lsp                       # started by the editor in the project",
    "codeslice lsp --root ~/src/shop --log-level info",
  ],
  async run({ argv, version }) {
    // Loaded only here, so the other commands never pay for the protocol packages.
    const { runLspStdio } = await import("../../lsp/stdio.ts");
    return runLspStdio(argv, { version, createPlatform: createHostPlatform });
  },
});
