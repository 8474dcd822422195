/** `codeslice scip`: the code graph written as a SCIP index. */
import { defineCommand } from "../command.ts";
import { refuseProjectFile, writeBinary } from "../files.ts";
import { engineFlags, rootArg, switchFlag, textFlag } from "../flags.ts";
import { EXIT, UsageError, writeOut } from "../output.ts";
import { withEngine } from "../with-engine.ts";

/** `codeslice scip`. */
export const scipCommand = defineCommand({
  name: "scip",
  summary: "The code graph as a SCIP index (protobuf) for Sourcegraph and other code intelligence, to --out FILE",
  args: [rootArg],
  flags: {
    out: textFlag("out", "FILE", 'Where to write the index ("-": stdout); required'),
    project: textFlag("project", "NAME", "The project name in every symbol", { default: "the root folder's name" }),
    force: switchFlag(
      "force",
      "Write the file even over one of the project's own (a source file of the index, a file git tracks)",
    ),
    ...engineFlags,
  },
  help: `Writes the code graph as a SCIP index (github.com/sourcegraph/scip), the protobuf format
Sourcegraph and other code-intelligence services ingest: one document per indexed file with
its language, an occurrence for every definition, call site and import, and per symbol its
kind, docstring, signature and relationships (a class to the classes and interfaces it
extends or implements, an overriding method to the method it overrides). Symbols read
"codeslice . NAME . path/\`file.py\`/Class#method()." with NAME from --project. Indexes first
if needed. Prints the counts it wrote.`,
  examples: ["codeslice scip --out index.scip", "codeslice scip --out - --project shop | gzip > shop.scip.gz"],
  async run({ flags, version }) {
    if (!flags.out) throw new UsageError('scip needs --out FILE ("-" for stdout)');
    const out = flags.out;
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.scip({
        onProgress: progress.onProgress,
        toolVersion: version,
        ...(flags.project !== undefined ? { project: flags.project } : {}),
      });
      progress.done();
      await refuseProjectFile(out, flags.root ?? process.cwd(), engine, flags.force);
      writeBinary(out, answer.parts);
      const { parts: _parts, ...counts } = answer;
      const say = out === "-" ? (text: string) => process.stderr.write(`${text}\n`) : writeOut;
      if (flags.json) say(JSON.stringify({ file: out, ...counts }, null, 2));
      else
        say(
          `Wrote ${out === "-" ? "the SCIP index to stdout" : out}: ${counts.documents} documents, ` +
            (`${counts.definitions} definitions, ${counts.references} references, ${counts.symbols} symbols, ` +
              `${counts.relationships} relationships (${counts.bytes.toLocaleString("en-US")} bytes)`),
        );
      return EXIT.ok;
    });
  },
});
