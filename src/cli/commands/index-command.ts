/**
 * `codeslice index`: builds or refreshes the index, optionally loading or writing a portable artifact. (Not index.ts:
 * that name is the registry's.)
 */
import { renderIndexSummary } from "../render.ts";
import { defineCommand } from "../command.ts";
import { readBinary, refuseProjectFile, writeBinary } from "../files.ts";
import { engineFlags, rootArg, switchFlag, textFlag } from "../flags.ts";
import { EXIT, UsageError, writeOut } from "../output.ts";
import { withEngine } from "../with-engine.ts";

/** One line about an index artifact: its size and what it holds. */
function artifactLine(a: { bytes: number; files: number; records: number }): string {
  return (
    `${a.records.toLocaleString("en-US")} records for ${a.files.toLocaleString("en-US")} files, ` +
    `${(a.bytes / 1048576).toFixed(1)} MB`
  );
}

/** `codeslice index`. */
export const indexCommand = defineCommand({
  name: "index",
  summary: "Index the project (incremental) and print a summary",
  args: [rootArg],
  flags: {
    export: textFlag(
      "export",
      "FILE",
      'After indexing, write the index as one portable, versioned, SHA-256-checksummed file ("-": stdout) ' +
        "another machine can load",
    ),
    import: textFlag(
      "import",
      "FILE",
      'Before indexing, load such a file ("-": stdin), made anywhere; refused whole (exit 1) if it is not an ' +
        "artifact, cut short, damaged or from another version",
    ),
    force: switchFlag(
      "force",
      "Write the file even over one of the project's own (a source file of the index, a file git tracks)",
    ),
    ...engineFlags,
  },
  help: `Scans the project (git-aware: tracked files plus untracked files git would not ignore),
parses supported files with tree-sitter and stores per-file records in the cache folder. The
project is <root> or --root DIR (the same folder; two different ones are refused), else the
current folder.
A second run re-parses only files whose content changed. Prints files by language, symbols,
skipped files with reasons, and the time taken. --jobs N parses on N threads; the index is
the same for every N.

--export writes the records and the file list, paths relative to the root: build it once (in
CI), load it anywhere. --import replaces the index in the cache folder with such a file; the
project may sit under another path. Every part is checked first and nothing is written
unless all of it holds. The index that follows reads each file once and parses only files
that differ.`,
  examples: [
    "codeslice index",
    "codeslice index ../api --jobs 4",
    "codeslice index --export index.csa",
    "codeslice index --import index.csa --json",
  ],
  async run({ flags }) {
    if (flags.export !== undefined && flags.import !== undefined)
      throw new UsageError("--export and --import do not go together: import on one machine, export on another");
    const artifact = flags.import !== undefined ? readBinary(flags.import, "index artifact") : undefined;
    return withEngine(flags, async (engine, progress) => {
      const imported = artifact ? await engine.importIndex(artifact) : undefined;
      // (nothing else is answered in this process: the records go to the store only, see keepRecords)
      const summary = await engine.index({ onProgress: progress.onProgress, keepRecords: false });
      progress.done();
      const artifactOut = flags.export !== undefined ? await engine.exportIndex() : undefined;
      if (artifactOut) await refuseProjectFile(flags.export!, flags.root ?? process.cwd(), engine, flags.force);
      if (artifactOut) writeBinary(flags.export!, [artifactOut.bytes]);
      const exported = artifactOut?.summary;
      // With the artifact on stdout, the summary goes to stderr.
      const say = flags.export === "-" ? (text: string) => process.stderr.write(`${text}\n`) : writeOut;
      const notes = [
        ...(imported ? [`Imported ${flags.import === "-" ? "stdin" : flags.import}: ${artifactLine(imported)}`] : []),
        ...(exported
          ? [`Exported ${flags.export === "-" ? "to stdout" : flags.export}: ${artifactLine(exported)}`]
          : []),
      ];
      if (flags.json)
        say(
          JSON.stringify(
            {
              ...summary,
              ...(imported ? { imported } : {}),
              ...(exported ? { exported: { file: flags.export, ...exported } } : {}),
            },
            null,
            2,
          ),
        );
      else say([renderIndexSummary(summary), ...notes].join("\n"));
      return EXIT.ok;
    });
  },
});
