/**
 * `codeslice dataflow`: statement-level data flow in one function or route handler: does user input reach a SQL,
 * process, file-write or HTML call; where a variable's value comes from and goes.
 */
import { LIMITS } from "../../index.ts";
import { defineCommand } from "../command.ts";
import { engineFlags, integerFlag, textFlag } from "../flags.ts";
import { EXIT, writeJson, writeOut } from "../output.ts";
import { withEngine } from "../with-engine.ts";

/** `codeslice dataflow`. */
export const dataflowCommand = defineCommand({
  name: "dataflow",
  summary:
    "Data flow in one function or route handler: does user input reach SQL, a process, a file write or HTML; " +
    "where a value comes from and goes",
  args: [
    {
      name: "target",
      what: "a function or route",
      maxChars: { limit: LIMITS.targetChars, noun: "argument" },
      help: 'A function or method (pkg.mod.func, Class.method) or a route "METHOD /path" (an inline handler too)',
    },
  ],
  flags: {
    var: textFlag("var", "NAME", "Where this variable's value comes from (at --line) and where it goes"),
    line: integerFlag(
      "line",
      "N",
      1,
      10_000_000,
      "The line to ask about: with --var, the value there; alone, the values read on that line",
    ),
    ...engineFlags,
  },
  help: `Reads one function from its syntax tree, on demand (Python, TypeScript, JavaScript), and
answers from its statements, citing path:line for each step:
(no flag)       which SQL, process/eval, file-write and HTML-response calls user input reaches
                (a route handler's parameters, request.form/json/args, req.body/query/params,
                c.req.json()/param()/query(), …), here or in a project function it passes the
                input to (one call deep), each with the chain of assignments that carries it.
--var X         where X's value comes from (the bindings reaching --line, back to parameters,
                request data or calls) and where it goes (calls, sinks, returns; one call deep).
--line N        where the values read on line N come from, and the sinks on that line.
Steps it cannot follow (a call the code graph cannot resolve, getattr, a call two levels deep)
are listed as unknown. Statements are read in source order: a value a loop carries back to an
earlier line is not followed.`,
  examples: [
    'codeslice dataflow "POST /users"',
    "codeslice dataflow app.views.search --var name --line 12",
    'codeslice dataflow "GET /orders/:id" --json',
  ],
  async run({ args: [target], flags }) {
    return withEngine(flags, async (engine, progress) => {
      const answer = await engine.dataflow(target!, {
        onProgress: progress.onProgress,
        ...(flags.var !== undefined ? { variable: flags.var } : {}),
        ...(flags.line !== undefined ? { line: flags.line } : {}),
      });
      progress.done();
      if (flags.json) writeJson(answer);
      else writeOut(answer.text);
      return EXIT.ok;
    });
  },
});
