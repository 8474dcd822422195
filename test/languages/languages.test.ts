/**
 * One generic runner for every language: each file under fixtures/<language>/ is real source
 * annotated in comments, and the extracted record must agree with the annotations.
 *
 * Annotations sit in a comment on the line they describe; several are separated by " ; ":
 *   def: <kind> <Qualified.name> [bases=A,B] [implements=I] [doc=prefix…] [exported=true|false] [decorators=N]
 *   call: [receiver.]name [argc=N]    new: [receiver.]Name [argc=N]    ref: TypeName
 *     (argc: the call passes N arguments, as far as the record says)
 *   import: <kind> <module> [name] [as alias]
 * Definitions and imports must match exactly (nothing missing, nothing extra). Calls and type refs
 * must be present; a file containing the annotation `exact: calls` must also have no other calls.
 */
import { describe, expect, it } from "vitest";
import { fixtureFiles } from "../support/fixtures.ts";
import { memoryEngine } from "../support/platform.ts";

const fixtures = await fixtureFiles("languages/fixtures");
const ANNOTATION = /(?:#|\/\/|\/\*|--|;;|%)\s*((?:def|call|new|ref|import|exact):.*?)\s*(?:\*\/)?\s*$/;

interface Expected {
  defs: string[];
  defAttrs: { line: number; key: string; attrs: Record<string, string> }[];
  calls: string[];
  refs: string[];
  imports: string[];
  exactCalls: boolean;
}

function readAnnotations(text: string): Expected {
  const out: Expected = { defs: [], defAttrs: [], calls: [], refs: [], imports: [], exactCalls: false };
  text.split("\n").forEach((lineText, i) => {
    const line = i + 1;
    const m = ANNOTATION.exec(lineText);
    if (!m) return;
    for (const part of m[1]!.split(" ; ")) {
      const [tag, ...rest] = part.trim().split(/\s+/);
      const args = rest.join(" ");
      switch (tag) {
        case "def:": {
          const [kind, qualified, ...attrParts] = rest;
          const key = `${line} ${kind} ${qualified}`;
          out.defs.push(key);
          const attrs: Record<string, string> = {};
          for (const a of attrParts.join(" ").match(/\w+=(?:"[^"]*"|\S+)/g) ?? []) {
            const eq = a.indexOf("=");
            attrs[a.slice(0, eq)] = a.slice(eq + 1).replace(/^"|"$/g, "");
          }
          if (Object.keys(attrs).length) out.defAttrs.push({ line, key, attrs });
          break;
        }
        case "call:":
          out.calls.push(`${line} call ${args}`);
          break;
        case "new:":
          out.calls.push(`${line} new ${args}`);
          break;
        case "ref:":
          out.refs.push(`${line} ${args}`);
          break;
        case "import:":
          out.imports.push(`${line} ${args}`);
          break;
        case "exact:":
          if (args === "calls") out.exactCalls = true;
          break;
      }
    }
  });
  return out;
}

const languages = [...new Set(Object.keys(fixtures).map((p) => p.slice(0, p.indexOf("/"))))];

for (const language of languages) {
  describe(`language fixtures: ${language}`, () => {
    for (const file of Object.keys(fixtures)
      .filter((p) => p.startsWith(`${language}/`))
      .map((p) => p.slice(language.length + 1))) {
      it(file, async () => {
        const text = fixtures[`${language}/${file}`]!;
        const expected = readAnnotations(text);
        const { engine } = memoryEngine({ [file]: text });
        const [record] = await engine.records();
        expect(record, `${file} was not indexed`).toBeDefined();
        const r = record!;
        const defs = r.definitions.map((d) => `${d.nameLine} ${d.kind} ${d.qualified}`);
        expect(defs.sort()).toEqual(expected.defs.sort());
        for (const { line, key, attrs } of expected.defAttrs) {
          const d = r.definitions.find((x) => `${x.nameLine} ${x.kind} ${x.qualified}` === key);
          expect(d, key).toBeDefined();
          if (attrs.bases !== undefined)
            expect(d!.bases ?? [], `bases at line ${line}`).toEqual(attrs.bases.split(",").filter(Boolean));
          if (attrs.implements !== undefined)
            expect(d!.implements ?? [], `implements at line ${line}`).toEqual(
              attrs.implements.split(",").filter(Boolean),
            );
          if (attrs.doc !== undefined)
            expect(d!.doc ?? "", `doc at line ${line}`).toContain(attrs.doc.replace(/_/g, " "));
          if (attrs.exported !== undefined)
            expect(String(d!.exported), `exported at line ${line}`).toBe(attrs.exported);
          if (attrs.decorators !== undefined)
            expect(d!.decorators?.length ?? 0, `decorators at line ${line}`).toBe(Number(attrs.decorators));
          if (attrs.returns !== undefined) expect(d!.returns, `returns at line ${line}`).toBe(attrs.returns);
        }
        const imports = r.imports.map(
          (i) =>
            `${i.line} ${i.kind} ${i.module}${i.name !== undefined ? ` ${i.name}` : ""}${i.alias !== undefined ? ` as ${i.alias}` : ""}`,
        );
        expect(imports.sort()).toEqual(expected.imports.sort());
        const calls = r.calls.map(
          (c) => `${c.line} ${c.kind} ${c.receiver !== undefined ? `${c.receiver}.` : ""}${c.name}`,
        );
        const withArgc = r.calls.map((c, i) => `${calls[i]} argc=${c.argc ?? "?"}`);
        const plain = (c: string) => c.replace(/ argc=\S+$/, "");
        if (expected.exactCalls) expect(calls.sort()).toEqual(expected.calls.map(plain).sort());
        else for (const c of expected.calls) expect(calls, `missing ${c}`).toContain(plain(c));
        for (const c of expected.calls.filter((x) => / argc=/.test(x)))
          expect(withArgc, `argument count of ${c}`).toContain(c);
        const refs = r.typeRefs.map((t) => `${t.line} ${t.name}`);
        for (const t of expected.refs) expect(refs, `missing type ref ${t}`).toContain(t);
      });
    }
  });
}
