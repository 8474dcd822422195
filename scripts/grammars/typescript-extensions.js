// codeslice's extension of tree-sitter-typescript (TypeScript and TSX dialects), written with
// tree-sitter's grammar inheritance: the published grammar is loaded from its npm package and only
// the rules below are replaced. scripts/build-grammars.mjs copies this file next to the unpacked
// package and runs `tree-sitter generate` on it. Each rule adds syntax that `tsc` accepts and the
// published grammar (0.23.2, the newest on npm) turns into ERROR nodes on real code:
//   - variance annotations on type parameters (TS 4.7): `interface Box<out A>`, `<in out K>`;
//   - `export type * from "m"` and `export type * as ns from "m"` (TS 5.0);
//   - escape sequences inside template literal types: `a \`b\``.
// Trees for code the published grammar already parsed are unchanged: the new keywords are
// anonymous tokens and no existing node type is renamed.
/* global grammar, choice, seq, optional, prec, repeat, alias, field */
module.exports = function extend(dialect) {
  const base = require(`tree-sitter-typescript/${dialect}/grammar`);
  return grammar(base, {
    name: dialect,
    rules: {
      type_parameter: ($) =>
        seq(
          optional("const"),
          optional(choice("in", "out", seq("in", "out"))),
          field("name", $._type_identifier),
          field("constraint", optional($.constraint)),
          field("value", optional($.default_type)),
        ),

      export_statement: ($, previous) =>
        choice(previous, seq("export", "type", choice("*", $.namespace_export), $._from_clause, $._semicolon)),

      template_literal_type: ($) =>
        seq("`", repeat(choice(alias($._template_chars, $.string_fragment), $.escape_sequence, $.template_type)), "`"),
    },
  });
};
