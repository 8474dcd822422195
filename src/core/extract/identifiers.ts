/**
 * Every place a name is spelled in one file, as plain data: identifiers in code with the role the
 * syntax gives them, and whole-word mentions in strings and comments. What a rename reads; the
 * tree never leaves this module (STYLE habit 6).
 */
import type { Node, Tree } from "web-tree-sitter";
import type { LanguageSpec } from "../../languages/types.ts";
import type { ParserRuntime } from "../parse/runtime.ts";

/**
 * The role of one spelling of a name:
 * `name`, a bare identifier (a use or a binding); `member`, after a dot (`x.name`); `key`, a member
 * declared or keyed in a class body or object literal (`name() {}`, `{ name: 1 }`); `keyword`, a
 * keyword argument (`f(name=1)`); `import`, inside an import statement; `export`, inside an export
 * list (`export { name }`); `module`, part of a module path (`import a.name`); `mention`, a whole word inside a string
 * or comment.
 */
export type IdentifierRole = "name" | "member" | "key" | "keyword" | "import" | "export" | "module" | "mention";

/** One spelling of a name. Lines are 1-based, columns 0-based UTF-16 code units on that line. */
export interface IdentifierSite {
  line: number;
  col: number;
  /** The exact text at the site (the name). */
  text: string;
  role: IdentifierRole;
  /** For `member`: the object before the dot, whitespace-collapsed (`self`, `mod`, `this.x`). */
  receiver?: string;
  /** For `import`/`export`: the name is the local alias of `x as name`, or the `x` with an alias. */
  aliased?: "alias" | "original";
  /**
   * For a name destructured from a dynamic import or a require (`const { name } = await
   * import("m")`, `const { name: local } = require("m")`): the module as written.
   */
  module?: string;
  /** The site is a string literal or a comment (mentions only). */
  inString?: boolean;
}

const IDENTIFIER_TYPES = new Set([
  "identifier",
  "property_identifier",
  "type_identifier",
  "shorthand_property_identifier",
  "shorthand_property_identifier_pattern",
  "private_property_identifier",
]);
const STRING_TYPES = new Set(["string", "string_fragment", "template_string", "comment", "string_content"]);

/** Parses `text` and lists the sites of each of `names`. An unparsable file gives no sites. */
export async function identifierSites(
  runtime: ParserRuntime,
  spec: LanguageSpec,
  text: string,
  names: ReadonlySet<string>,
): Promise<IdentifierSite[]> {
  const lang = await runtime.load(spec);
  runtime.parser.setLanguage(lang.language);
  const tree: Tree | null = runtime.parser.parse(text);
  if (!tree) return [];
  try {
    const out: IdentifierSite[] = [];
    walk(tree.rootNode, names, out);
    return out;
  } finally {
    tree.delete();
  }
}

function walk(root: Node, names: ReadonlySet<string>, out: IdentifierSite[]): void {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const type = node.type;
    if (STRING_TYPES.has(type) && node.namedChildCount === 0) {
      mentions(node, names, out);
      continue;
    }
    if (IDENTIFIER_TYPES.has(type) && names.has(node.text)) {
      out.push(siteOf(node));
      continue;
    }
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      if (child) stack.push(child);
    }
  }
}

/** Whole-word mentions of a name inside a string's or comment's text. */
function mentions(node: Node, names: ReadonlySet<string>, out: IdentifierSite[]): void {
  const text = node.text;
  for (const name of names) {
    let from = 0;
    for (let at = text.indexOf(name, from); at >= 0; at = text.indexOf(name, from)) {
      from = at + name.length;
      if (isWordChar(text[at - 1]) || isWordChar(text[at + name.length])) continue;
      const before = text.slice(0, at);
      const nl = before.lastIndexOf("\n");
      const line = node.startPosition.row + 1 + (before.split("\n").length - 1);
      const col = nl < 0 ? node.startPosition.column + at : at - nl - 1;
      out.push({ line, col, text: name, role: "mention", inString: true });
    }
  }
}

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\p{L}\p{N}_$]/u.test(c);
}

function siteOf(node: Node): IdentifierSite {
  const site: IdentifierSite = {
    line: node.startPosition.row + 1,
    col: node.startPosition.column,
    text: node.text,
    role: "name",
  };
  let child: Node = node;
  let parent = node.parent;
  // Python spells an imported name as a dotted_name of one identifier.
  if (parent?.type === "dotted_name") {
    child = parent;
    parent = parent.parent;
  }
  if (!parent) return site;
  const field = fieldIn(parent, child);
  switch (parent.type) {
    case "attribute": // Python x.name
    case "member_expression": // TS x.name
      if (field === "attribute" || field === "property") {
        site.role = "member";
        site.receiver = collapse(parent.childForFieldName("object")?.text ?? "");
      }
      return site;
    case "keyword_argument":
      if (field === "name") site.role = "keyword";
      return site;
    case "export_specifier":
    case "import_specifier":
    case "aliased_import":
      site.role = parent.type === "export_specifier" ? "export" : "import";
      if (parent.childForFieldName("alias")) site.aliased = field === "alias" ? "alias" : "original";
      // import a.b as c: a module
      if (parent.type === "aliased_import" && parent.parent?.type === "import_statement") site.role = "module";
      return site;
    case "import_from_statement":
      site.role = field === "name" ? "import" : "module";
      return site;
    case "import_statement":
    case "future_import_statement":
      site.role = "module";
      return site;
    case "import_clause": // TS default import
    case "namespace_import":
      site.role = "import";
      return site;
    default:
      break;
  }
  const destructured =
    node.type === "shorthand_property_identifier_pattern" || (parent.type === "pair_pattern" && field === "key");
  const module = destructured
    ? loadedModule(node.type === "shorthand_property_identifier_pattern" ? parent : parent.parent)
    : undefined;
  if (module !== undefined) {
    site.role = "import";
    site.module = module;
    if (parent.type === "pair_pattern") site.aliased = "original";
    return site;
  }
  if (node.type === "property_identifier" || node.type === "private_property_identifier") site.role = "key";
  return site;
}

/** The module an object pattern destructures: `{ … } = await import("m")` or `{ … } = require("m")`. */
function loadedModule(pattern: Node | null): string | undefined {
  if (pattern?.type !== "object_pattern" || pattern.parent?.type !== "variable_declarator") return undefined;
  let value = pattern.parent.childForFieldName("value");
  if (value?.type === "await_expression") value = value.namedChild(0);
  if (value?.type !== "call_expression") return undefined;
  const fn = value.childForFieldName("function");
  if (!(fn?.type === "import" || (fn?.type === "identifier" && fn.text === "require"))) return undefined;
  const arg = value.childForFieldName("arguments")?.namedChild(0);
  if (arg?.type !== "string") return undefined;
  return arg.text.slice(1, -1);
}

function fieldIn(parent: Node, node: Node): string | null {
  for (let i = 0; i < parent.childCount; i++) {
    const child = parent.child(i);
    if (child && child.id === node.id) return parent.fieldNameForChild(i);
  }
  return null;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, "");
}
