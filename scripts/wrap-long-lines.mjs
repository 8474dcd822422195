#!/usr/bin/env node
// Wraps what a formatter leaves over the line limit: comments, and string and template literals.
// A formatter (Prettier, Biome) breaks code at the limit but never splits a comment or a literal, so
// a long message or JSDoc line stays long. This script does it, with the TypeScript parser:
//   - a `//` comment line, a JSDoc line (` * …`) or a one-line `/** … */` over the limit is wrapped
//     at word boundaries into several lines of the same kind and indentation (lines inside a ``` fence
//     are left as they are);
//   - a trailing `// …` after code moves to its own line above the code;
//   - a string or template literal that crosses the limit is split at a space inside its literal
//     text into `("left" + "right")`, which evaluates to the same string (the formatter drops the
//     parentheses where they are not needed); tagged templates, string types, import paths and
//     property names are left alone.
// Run the formatter after it (the split literals are placed by it), and repeat until nothing changes;
// `--check` lists the lines still over the limit and exits 1 when there are any.
//
//   node scripts/wrap-long-lines.mjs [--width 120] [--check] FILE_OR_DIR...
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const argv = process.argv.slice(2);
const widthAt = argv.indexOf("--width");
const WIDTH = widthAt >= 0 ? Number(argv[widthAt + 1]) : 120;
const CHECK = argv.includes("--check");
const targets = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--width");

/** Every .ts file under the arguments, generated ones (`*.gen.ts`) aside. */
function files(list) {
  const out = [];
  const walk = (p) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) for (const e of fs.readdirSync(p).sort()) walk(path.join(p, e));
    else if (/\.(ts|mts)$/.test(p) && !/\.gen\.ts$/.test(p) && !p.endsWith(".d.ts")) out.push(p);
  };
  for (const t of list) walk(t);
  return out;
}

/** Words of `text` in lines of at most `room` characters (a word longer than that gets a line of its own). */
function wrapWords(text, room) {
  const lines = [];
  let line = "";
  for (const word of text.split(/ +/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Comment lines over the limit, wrapped; trailing comments moved above their code. */
function wrapComments(text, sourceFile) {
  const lines = text.split("\n");
  const out = [];
  let inFence = false;
  const literalLines = literalLineSet(sourceFile);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trimStart();
    const indent = line.slice(0, line.length - trimmed.length);
    if (/^\*\s*```/.test(trimmed) || /^\/\/\s*```/.test(trimmed)) inFence = !inFence;
    if (line.length <= WIDTH || inFence || literalLines.has(i)) {
      out.push(line);
      continue;
    }
    let m;
    if ((m = /^\/\/( ?)(.*)$/.exec(trimmed)) && !trimmed.startsWith("///")) {
      for (const l of wrapWords(m[2], WIDTH - indent.length - 3)) out.push(`${indent}// ${l}`);
    } else if ((m = /^\/\*\*\s+(.*?)\s*\*\/$/.exec(trimmed))) {
      out.push(`${indent}/**`);
      for (const l of wrapWords(m[1], WIDTH - indent.length - 3)) out.push(`${indent} * ${l}`);
      out.push(`${indent} */`);
    } else if ((m = /^\*( +)(.*)$/.exec(trimmed)) && !trimmed.startsWith("*/")) {
      const pad = m[1].length > 1 ? m[1] : " "; // keep a list item's hanging indent
      for (const l of wrapWords(m[2], WIDTH - indent.length - 1 - pad.length)) out.push(`${indent}*${pad}${l}`);
    } else {
      const trailing = trailingComment(line);
      if (trailing !== undefined) {
        const code = line.slice(0, trailing).trimEnd();
        const comment = line.slice(trailing).replace(/^\/\/\s?/, "");
        for (const l of wrapWords(comment, WIDTH - indent.length - 3)) out.push(`${indent}// ${l}`);
        out.push(code);
      } else out.push(line);
    }
  }
  return out.join("\n");
}

/** Lines that lie inside a multi-line string or template literal (their text is data, not comments). */
function literalLineSet(sourceFile) {
  const set = new Set();
  const visit = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const a = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
      const b = sourceFile.getLineAndCharacterOfPosition(node.getEnd()).line;
      for (let l = a + 1; l <= b; l++) set.add(l);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return set;
}

/** The column where a trailing `//` comment starts on line `i`, if the line has code before it. */
function trailingComment(line) {
  // Scan the line's tokens for a comment range that starts on this line after code.
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, line);
  let kind;
  let sawCode = false;
  while ((kind = scanner.scan()) !== ts.SyntaxKind.EndOfFileToken) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia) return sawCode ? scanner.getTokenPos() : undefined;
    if (kind !== ts.SyntaxKind.WhitespaceTrivia && kind !== ts.SyntaxKind.NewLineTrivia) sawCode = true;
    // A template literal's `${` makes the line scanner lose its place; give up on such lines.
    if (kind === ts.SyntaxKind.TemplateHead || kind === ts.SyntaxKind.Unknown) return undefined;
  }
  return undefined;
}

const NO_SPLIT_PARENTS = new Set([
  ts.SyntaxKind.ImportDeclaration,
  ts.SyntaxKind.ExportDeclaration,
  ts.SyntaxKind.ExternalModuleReference,
  ts.SyntaxKind.LiteralType,
  ts.SyntaxKind.ModuleDeclaration,
  ts.SyntaxKind.TaggedTemplateExpression,
  ts.SyntaxKind.ImportType,
  ts.SyntaxKind.EnumMember,
]);

/** Literals that cross the limit, split at a space into a parenthesized concatenation. */
function splitLiterals(text, sourceFile) {
  const edits = [];
  const visit = (node) => {
    const isLiteral =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
    if (isLiteral && splittable(node)) {
      const start = node.getStart(sourceFile);
      const end = node.getEnd();
      const { line, character } = sourceFile.getLineAndCharacterOfPosition(start);
      const lineEnd = sourceFile.getLineEndOfPosition(start);
      const lineText = text.slice(sourceFile.getPositionOfLineAndCharacter(line, 0), lineEnd);
      const endAt = sourceFile.getLineAndCharacterOfPosition(end);
      if (lineText.length > WIDTH && endAt.line === line && endAt.character > WIDTH) {
        const cut = cutPoint(node, sourceFile, text, Math.max(WIDTH - character - 8, 24));
        if (cut !== undefined) edits.push({ start, end, cut });
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  let out = text;
  for (const { start, end, cut } of edits.sort((a, b) => b.start - a.start)) {
    const src = out.slice(start, end);
    const q = src[0];
    const left = `${src.slice(0, cut - start)}${q}`;
    const right = `${q}${src.slice(cut - start)}`;
    out = `${out.slice(0, start)}(${left} + ${right})${out.slice(end)}`;
  }
  return out;
}

function splittable(node) {
  const p = node.parent;
  if (!p || NO_SPLIT_PARENTS.has(p.kind)) return false;
  if (
    (ts.isPropertyAssignment(p) ||
      ts.isPropertyDeclaration(p) ||
      ts.isMethodDeclaration(p) ||
      ts.isPropertySignature(p)) &&
    p.name === node
  )
    return false;
  if (ts.isElementAccessExpression(p) && p.argumentExpression === node) return true;
  if (ts.isCallExpression(p) && p.expression.getText?.() === "require") return false;
  return true;
}

/**
 * A position inside the literal's own text (never inside `${…}`, never after a backslash) just
 * after a space, or (in a template) where a substitution starts or ends, as far right as `room`
 * characters from the literal's start allows.
 */
function cutPoint(node, sourceFile, text, room) {
  const start = node.getStart(sourceFile);
  const end = node.getEnd();
  const segments = [];
  if (ts.isTemplateExpression(node)) {
    segments.push([node.head.getStart(sourceFile) + 1, node.head.getEnd() - 2]);
    for (const span of node.templateSpans) {
      const lit = span.literal;
      const isTail = ts.isTemplateTail(lit);
      segments.push([lit.getStart(sourceFile) + 1, lit.getEnd() - (isTail ? 1 : 2)]);
    }
  } else segments.push([start + 1, end - 1]);
  let best;
  const take = (cut) => {
    if (cut - start > room || cut >= end - 1 || cut <= start + 8) return;
    if (best === undefined || cut > best) best = cut;
  };
  for (const [a, b] of segments) {
    // A template may also be cut where a substitution starts or ends: `a${x}b` → `a` + `${x}b`.
    if (ts.isTemplateExpression(node)) {
      if (a > start + 1) take(a);
      if (b < end - 1) take(b);
    }
    for (let p = a; p < b; p++) {
      if (text[p] !== " " || text[p - 1] === "\\") continue;
      if (p + 1 - start > room) break;
      take(p + 1);
    }
  }
  return best;
}

let changed = 0;
const over = [];
for (const file of files(targets)) {
  const text = fs.readFileSync(file, "utf8");
  if (CHECK) {
    text.split("\n").forEach((l, i) => l.length > WIDTH && over.push(`${file}:${i + 1}: ${l.length} characters`));
    continue;
  }
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  let next = wrapComments(text, sf);
  next = splitLiterals(next, ts.createSourceFile(file, next, ts.ScriptTarget.Latest, true));
  if (next !== text) {
    fs.writeFileSync(file, next);
    changed++;
  }
}
if (CHECK) {
  for (const l of over) console.log(l);
  console.log(`${over.length} lines over ${WIDTH} characters`);
  process.exit(over.length > 0 ? 1 : 0);
}
console.log(`${changed} files changed`);
