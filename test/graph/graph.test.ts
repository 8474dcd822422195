/**
 * Resolution rules, tested as data: each fixture under fixtures/ is a small multi-file project
 * (files separated by `#- path` or `//- path` lines) whose comments say what the graph must find:
 *
 *   -> <qualified callee> (<resolution>)   a call edge from this line (resolution optional)
 *   -> external <name>                      a call into code outside the project
 *   -> ambiguous                            an unresolved call whose name several definitions share
 *   -> nothing                              no edge from this line
 *   -> imports <path>                       an import edge from this file to <path>
 *   -> inherits <qualified base>            the class defined on this line extends/implements it
 *
 * Several annotations on one line are separated by " ; ". Edges are exact: every call edge and
 * import edge in the fixture must be annotated, so a wrong edge fails the test.
 */
import { describe, expect, it } from "vitest";
import { fixtureFiles } from "../support/fixtures.ts";
import { memoryEngine, parseFixture } from "../support/platform.ts";

const fixtures = await fixtureFiles("graph/fixtures");
const ANNOTATION = /(?:#|\/\/)\s*->\s*(.*)$/;

describe("graph resolution fixtures", () => {
  for (const name of Object.keys(fixtures).filter((f) => f.endsWith(".txt"))) {
    it(name.replace(/\.txt$/, ""), async () => {
      const files = parseFixture(fixtures[name]!);
      const { engine } = memoryEngine(files);
      const graph = await engine.codeGraph();
      const q = (id: number) => graph.symbols[id]!.qualified;

      const wantCalls: string[] = [];
      const wantExternal: string[] = [];
      const wantAmbiguous: string[] = [];
      const wantImports: string[] = [];
      const wantInherits: string[] = [];
      const nothing: string[] = [];
      for (const [path, text] of Object.entries(files)) {
        text.split("\n").forEach((lineText, i) => {
          const m = ANNOTATION.exec(lineText);
          if (!m) return;
          const line = i + 1;
          for (const part of m[1]!.split(" ; ")) {
            const a = part.trim().replace(/^->\s*/, "");
            let mm: RegExpExecArray | null;
            if (a === "nothing") nothing.push(`${path}:${line}`);
            else if (a === "ambiguous") wantAmbiguous.push(`${path}:${line}`);
            else if ((mm = /^external (\S+)$/.exec(a))) wantExternal.push(`${path}:${line} ${mm[1]}`);
            else if ((mm = /^imports (\S+)$/.exec(a))) wantImports.push(`${path} -> ${mm[1]}`);
            else if ((mm = /^inherits (\S+)$/.exec(a))) wantInherits.push(`${path}:${line} ${mm[1]}`);
            else if ((mm = /^(\S+)(?: \(([\w-]+)\))?$/.exec(a))) wantCalls.push(`${path}:${line} ${mm[1]}${mm[2] ? ` (${mm[2]})` : ""}`);
            else throw new Error(`bad annotation in ${path}:${line}: ${a}`);
          }
        });
      }

      const gotCalls = graph.calls.map((e) => `${e.file}:${e.line} ${q(e.callee)}`);
      const gotWithRes = graph.calls.map((e) => `${e.file}:${e.line} ${q(e.callee)} (${e.resolution})`);
      const expectedCalls = wantCalls.map((w) => w.replace(/ \([\w-]+\)$/, ""));
      expect([...new Set(gotCalls)].sort(), "call edges").toEqual([...new Set(expectedCalls)].sort());
      for (const w of wantCalls.filter((c) => c.endsWith(")"))) expect(gotWithRes, "resolution").toContain(w);
      for (const n of nothing) expect(gotCalls.filter((c) => c.startsWith(`${n} `)), `edges at ${n}`).toEqual([]);
      const gotExternal = graph.external.map((e) => `${e.file}:${e.line} ${e.target}`);
      for (const w of wantExternal) expect(gotExternal, "external calls").toContain(w);
      const gotAmbiguous = graph.ambiguous.map((a) => `${a.file}:${a.line}`);
      for (const w of wantAmbiguous) expect(gotAmbiguous, "ambiguous calls").toContain(w);
      expect(graph.imports.map((e) => `${e.from} -> ${e.to}`).sort(), "import edges").toEqual([...new Set(wantImports)].sort());
      const gotInherits = graph.inherits.map((e) => `${graph.symbols[e.child]!.file}:${graph.symbols[e.child]!.nameLine} ${q(e.base)}`);
      expect(gotInherits.sort(), "inherits").toEqual(wantInherits.sort());
    });
  }
});
