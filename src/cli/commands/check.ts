/**
 * `codeslice check`: the project's structural rules (layers, forbidden imports, cycles, …) over the code graph; exit 1
 * on a finding, for CI.
 */
import * as nodeFs from "node:fs";
import { toSarif } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { choiceFlag, engineFlags, rootArg, textFlag } from "../flags.ts";
import { EXIT, UsageError, writeJson, writeOut } from "../output.ts";
import { withEngine } from "../with-engine.ts";

const FORMATS = ["text", "json", "sarif"] as const;

/** The config file `--config` names, parsed as JSON; a usage error when it cannot be read. */
function readConfigFile(file: string): unknown {
  let text: string;
  try {
    text = nodeFs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(
      `--config: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--config: ${file} is not JSON (${(e as Error).message})`);
  }
}

/** `codeslice check`. */
export const checkCommand = defineCommand({
  name: "check",
  summary:
    "Structural rules over the code graph (layers, forbidden imports, cycles, unused exports, deprecated calls, " +
    "file sizes); exit 1 on a finding",
  args: [rootArg],
  flags: {
    format: choiceFlag(
      "format",
      "F",
      FORMATS,
      "Output: text (path:line: rule: message), json, or sarif (SARIF 2.1.0, for code-scanning uploads)",
      { default: "text" },
    ),
    config: textFlag("config", "FILE", "Read the rules from this JSON file instead of the project's", {
      default: 'codeslice.check.json, package.json "codeslice", pyproject.toml [tool.codeslice]',
    }),
    ...engineFlags,
  },
  help: `Runs the rules of the project's check config over the code graph and prints one line per
finding, as linters do: path:line: rule: message. The config is the first of
codeslice.check.json, the "codeslice" key of package.json, or [tool.codeslice] in
pyproject.toml. Rules (each off unless the config turns it on):
layers      [{name, files: [globs], mayImport: [layers]}]: the first layer whose globs
            match a file holds it; an import into a layer mayImport does not list fails.
forbid      [{from: globs, to: globs, message?}]: imports from one set of files into another.
cycles      true or {ignore: [globs]}: files that import each other in a cycle.
noCallers   true or {ignore}: exported top-level functions and classes that nothing calls,
            imports by name, uses as a type or subclasses.
deprecated  true or {ignore}: calls into definitions decorated @deprecated, documented
            @deprecated (JSDoc), or whose body warns DeprecationWarning (not inside an if).
fileSize    {maxLines?, maxBytes?, ignore?}: files over the size.
Exit code 0 when nothing is found, 1 on a finding or an error, 2 on bad usage.`,
  examples: [
    "codeslice check",
    "codeslice check --format sarif > check.sarif",
    "codeslice check --config rules.json --json",
  ],
  async run({ flags, version }) {
    const format = flags.json ? "json" : (flags.format ?? "text");
    const config = flags.config !== undefined ? readConfigFile(flags.config) : undefined;
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.check({
        onProgress: progress.onProgress,
        ...(config !== undefined ? { config, configLabel: flags.config! } : {}),
      });
      progress.done();
      if (format === "sarif") writeJson(toSarif(answer, { version }));
      else if (format === "json") writeJson(answer);
      else writeOut(answer.text);
      return answer.findings.length ? EXIT.failure : EXIT.ok;
    });
  },
});
