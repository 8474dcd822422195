/**
 * C#'s conditional compilation, read before parsing (`LanguageSpec.sourceForParse`): the grammar parses every branch
 * of `#if … #else … #endif` as one body, so a method whose header differs by target framework, or a class whose base
 * does, breaks the tree (Newtonsoft.Json: 42 of 945 files indexed only in part). The default is fixed and needs no
 * build configuration: the `#if` branch of each group is kept, its `#elif` and `#else` branches are blanked, and so
 * are the group's directive lines. The first branch is the one code is written for first; of the rules tried on
 * Newtonsoft.Json it kept the most declarations whole (every condition false, as with no symbol defined, kept 10%
 * fewer; the last branch, 35% fewer).
 */

/** One `#if` group: the line of each branch's directive (`#if`, `#elif`, `#else`) and of its `#endif`. */
interface Group {
  branches: number[];
  end: number;
}

const DIRECTIVE = /^[ \t]*#[ \t]*(if|elif|else|endif)\b/;

/** A line blanked: every character but line breaks and tabs made a space, so lengths, lines and columns stay. */
const blankLine = (line: string): string => line.replace(/[^\t\r]/g, " ");

/** The complete `#if` groups of a file's lines (an `#if` never closed, or an `#endif` never opened, is left alone). */
function groupsOf(lines: readonly string[]): Group[] {
  const open: Group[] = [];
  const done: Group[] = [];
  lines.forEach((line, i) => {
    if (!line.includes("#")) return;
    const kw = DIRECTIVE.exec(line)?.[1];
    if (kw === "if") open.push({ branches: [i], end: -1 });
    else if (kw === undefined || open.length === 0) return;
    else if (kw === "endif") {
      const g = open.pop()!;
      g.end = i;
      done.push(g);
    } else open.at(-1)!.branches.push(i);
  });
  return done;
}

/**
 * `text` with the branches not taken blanked (spaces in place of every other character, so every position is the
 * original's), and the directive lines of each group: the `#if` branch is taken. A preprocessor line that ends the
 * file without a line break is blanked too: the grammar wants the break (`#pragma warning restore 618` as the last
 * line is a MISSING token there).
 */
export function blankInactiveBranches(text: string): string {
  if (!text.includes("#")) return text;
  const lines = text.split("\n");
  let changed = false;
  for (const g of groupsOf(lines)) {
    for (let b = 1; b < g.branches.length; b++)
      for (let i = g.branches[b]! + 1; i < g.end; i++) lines[i] = blankLine(lines[i]!);
    for (const i of [...g.branches, g.end]) lines[i] = blankLine(lines[i]!);
    changed = true;
  }
  const last = lines.length - 1;
  if (/^[ \t]*#/.test(lines[last]!)) {
    lines[last] = blankLine(lines[last]!);
    changed = true;
  }
  return changed ? lines.join("\n") : text;
}
