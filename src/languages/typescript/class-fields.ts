/** TypeScript and JavaScript class field lines, as shape_check reads a class's fields (LanguageSpec.classFieldLine). */

/**
 * A TypeScript class field the interface form (`name?: Type;`) misses: behind modifiers (`public readonly code;`,
 * `private z: number;`), definitely assigned (`e!: number;`), `#private`, or with no annotation (`count = 0;`,
 * `code;`). Without a type it must end in `;` or hold an initializer, so a line inside a multi-line initializer (`a,`)
 * is no field.
 */
const TS_MODIFIERS = "(?:public|private|protected|static|declare|override|readonly|abstract|accessor)";
const TS_CLASS_FIELD = new RegExp(
  `^\\s+((?:${TS_MODIFIERS}\\s+)*)(#?[A-Za-z_$][\\w$]*)([!?]?)\\s*(?::\\s*([^;=]+?))?\\s*(=.*)?;?\\s*$`,
);
/** What TS_CLASS_FIELD matched as a field's name and type, or undefined when the line is not a field. */
export function classFieldLine(line: string): [string, string] | undefined {
  const m = TS_CLASS_FIELD.exec(line);
  if (!m) return undefined;
  const [, modifiers, name, , type, init] = m;
  if (type === undefined && init === undefined && !modifiers && !/;\s*$/.test(line)) return undefined;
  // `return;`, `break;` and the like are statements, not fields (a class body holds none, but an object type might).
  if (type === undefined && init === undefined && /^(?:return|break|continue|debugger|super|this)$/.test(name!))
    return undefined;
  return [name!, type ?? ""];
}
