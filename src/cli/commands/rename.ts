/** `codeslice rename`: a rename previewed as a plan of edits, applied with the plan's token. */
import { cite, LIMITS, type RenameEdit, type RenamePlan } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { engineFlags, switchFlag, textFlag } from "../flags.ts";
import { EXIT, writeJson, writeOut } from "../output.ts";
import { withEngine } from "../with-engine.ts";

/** `codeslice rename`. */
export const renameCommand = defineCommand({
  name: "rename",
  summary:
    "Rename a symbol everywhere the graph resolves it: a preview of every edit, applied with --apply <plan-token>",
  args: [
    {
      name: "symbol",
      what: "a symbol",
      maxChars: { limit: LIMITS.targetChars, noun: "argument" },
      help: "The function, class, method or module-level name to rename",
    },
    { name: "new-name", what: "a new name", maxChars: { limit: 200, noun: "argument" }, help: "Its new name" },
  ],
  flags: {
    apply: textFlag(
      "apply",
      "TOKEN",
      "Write the plan the preview with this token showed (all files or none, only if none changed since)",
    ),
    mentions: switchFlag("mentions", "With --apply, also rewrite the mentions in strings, docstrings and comments"),
    ...engineFlags,
  },
  help: `Without --apply, writes nothing: prints every edit the rename makes (path:line:col, why:
definition, call, reference, import, re-export, attribute, override), the mentions in strings
and comments apart (not written unless --mentions), the occurrences the graph could not resolve
apart (never written: check them by hand), and a plan token. With --apply TOKEN it writes that
plan's edits, only if every file still has the content the preview saw, all files or none
(temporary files moved over the originals; on a failure the files written are restored), and
prints what it wrote; a token applies once. Overrides and implementations of a renamed method
are renamed with it. Refuses an invalid identifier, a keyword, a name that collides with one in
a scope the rename reaches, a symbol defined outside the project. Python, TypeScript and
JavaScript.`,
  examples: [
    "codeslice rename pkg.util.helper assist",
    "codeslice rename Session.send send_request --json",
    "codeslice rename Session.send send_request --apply 3f1c…",
  ],
  async run({ args: [symbol, newName], flags }) {
    return withEngine(flags, async (engine, progress) => {
      if (flags.apply !== undefined) {
        const { createNodePlanFiles } = await import("../../platform/node/index.ts");
        const report = await engine.applyRename(flags.apply, createNodePlanFiles(flags.root ?? process.cwd()), {
          mentions: flags.mentions === true,
          newName: newName!,
        });
        progress.done();
        if (flags.json) writeJson(report);
        else
          writeOut(
            `Wrote ${report.edits} ` +
              (`edit${report.edits === 1 ? "" : "s"}` +
                (`${report.mentions ? ` and ${report.mentions} mention${report.mentions === 1 ? "" : "s"}` : ""} ` +
                  (`in ${report.written.length} file${report.written.length === 1 ? "" : "s"}:\n` +
                    `${report.written.map((w) => `  ${w.path} (${w.edits + w.mentions})`).join("\n")}`))),
          );
        return EXIT.ok;
      }
      const plan = await engine.rename(symbol!, newName!, { onProgress: progress.onProgress });
      progress.done();
      if (flags.json) writeJson(plan);
      else writeOut(renderPlan(plan, symbol!));
      return EXIT.ok;
    });
  },
});

function editLine(e: RenameEdit): string {
  return `  ${e.path}:${e.line}:${e.col + 1}  ${e.why}${e.note ? ` (${e.note})` : ""}`;
}

/** The preview as text: edits by file, mentions, uncertain sites, notes and the command that applies it. */
function renderPlan(plan: RenamePlan, symbol: string): string {
  const out = [
    `## rename ${cite(plan.symbol.path, plan.symbol.line)} ${plan.symbol.qualified}: ${plan.oldName} → ${plan.newName}`,
  ];
  out.push(
    `${plan.edits.length} edit${plan.edits.length === 1 ? "" : "s"} in ` +
      `${new Set(plan.edits.map((e) => e.path)).size} file(s):`,
  );
  out.push(...plan.edits.map(editLine));
  if (plan.mentions.length)
    out.push(
      `Mentions in strings and comments (${plan.mentions.length}; written only with --mentions):`,
      ...plan.mentions.map(editLine),
    );
  if (plan.uncertain.length)
    out.push(
      `Not edited, could not be resolved (${plan.uncertain.length}; check by hand):`,
      ...plan.uncertain.map((u) => `  ${u.path}:${u.line}:${u.col + 1}  ${u.reason}`),
    );
  out.push(...plan.notes.map((n) => `Note: ${n}`));
  out.push(
    `planToken: ${plan.planToken}`,
    `Apply: codeslice rename ${quote(symbol)} ${plan.newName} --apply ${plan.planToken}`,
  );
  return out.join("\n");
}

function quote(arg: string): string {
  return /^[\w.:/#-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}
