; Shared by JavaScript and TypeScript (TypeScript includes this file): calls, ESM and CommonJS
; imports, re-exports, local export lists, and what local names hold. Node types used here exist in
; both grammars.

(call_expression function: (super) @name) @reference.call

; Calls
(call_expression function: (identifier) @name arguments: (_) @args) @reference.call
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)
  arguments: (_) @args) @reference.call
(new_expression constructor: (identifier) @name arguments: (_)? @args) @reference.new
(new_expression
  constructor: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.new

; ESM imports and re-exports
(import_statement
  (import_clause (identifier) @import.alias)
  source: (string (string_fragment) @import.module)
  (#set! kind "default")) @import
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name !alias)))
  source: (string (string_fragment) @import.module)) @import
(import_statement
  (import_clause (named_imports (import_specifier name: (_) @import.name alias: (_) @import.alias)))
  source: (string (string_fragment) @import.module)) @import
(import_statement
  (import_clause (namespace_import (identifier) @import.alias))
  source: (string (string_fragment) @import.module)
  (#set! kind "namespace")) @import
(import_statement
  .
  source: (string (string_fragment) @import.module)
  (#set! kind "side-effect")) @import
(export_statement
  (export_clause (export_specifier name: (_) @import.name !alias))
  source: (string (string_fragment) @import.module)
  (#set! kind "reexport")) @import
(export_statement
  (export_clause (export_specifier name: (_) @import.name alias: (_) @import.alias))
  source: (string (string_fragment) @import.module)
  (#set! kind "reexport")) @import
(export_statement
  (namespace_export (_) @import.alias)
  source: (string (string_fragment) @import.module)
  (#set! kind "reexport-namespace")) @import
(export_statement
  .
  "*"
  source: (string (string_fragment) @import.module)
  (#set! kind "star")) @import

; CommonJS: a `require` call with a string literal, bound to a name or destructured; and a dynamic
; `import` with a string literal.
(variable_declarator
  name: (identifier) @import.alias
  value: (call_expression
    function: (identifier) @_req
    arguments: (arguments . (string (string_fragment) @import.module)))
  (#eq? @_req "require")
  (#set! kind "namespace")) @import
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @import.name)
  value: (call_expression
    function: (identifier) @_req
    arguments: (arguments . (string (string_fragment) @import.module)))
  (#eq? @_req "require")) @import
(variable_declarator
  name: (object_pattern (pair_pattern key: (_) @import.name value: (identifier) @import.alias))
  value: (call_expression
    function: (identifier) @_req
    arguments: (arguments . (string (string_fragment) @import.module)))
  (#eq? @_req "require")) @import
(call_expression
  function: (identifier) @_req
  arguments: (arguments . (string (string_fragment) @import.module))
  (#eq? @_req "require")
  (#set! kind "require")) @import
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.module))
  (#set! kind "dynamic")) @import

; What local names and fields hold: const x = new Foo(), x = foo(), x = other.attr, this.x = new Foo().
(variable_declarator
  name: (identifier) @name
  value: (new_expression constructor: (_) @value)) @local.assign
(variable_declarator
  name: (identifier) @name
  value: (call_expression function: [(identifier) (member_expression)] @value)) @local.assign
(variable_declarator
  name: (identifier) @name
  value: [(identifier) (member_expression)] @alias) @local.assign
(variable_declarator
  name: (identifier) @name
  value: [(string) (template_string) (binary_expression)] @literal) @local.assign
(variable_declarator name: (identifier) @name) @local.assign
(arrow_function parameter: (identifier) @name) @local.param
(assignment_expression
  left: (member_expression object: (this) @receiver property: (property_identifier) @name)
  right: (new_expression constructor: (_) @value)) @local.field
(assignment_expression
  left: (member_expression object: (this) @receiver property: (property_identifier) @name)
  right: [(identifier) (member_expression)] @alias) @local.field
(assignment_expression
  left: (member_expression object: (this) @receiver property: (property_identifier) @name)) @local.field

; Local export lists and default exports (module = ""): `export { a, b as c }`, `export default x`.
(export_statement
  !source
  (export_clause (export_specifier name: (_) @import.name !alias))
  (#set! kind "export")) @import
(export_statement
  !source
  (export_clause (export_specifier name: (_) @import.name alias: (_) @import.alias))
  (#set! kind "export")) @import
(export_statement
  "default"
  value: (identifier) @import.name
  (#set! kind "export-default")) @import
(export_statement
  "default"
  declaration: [(function_declaration name: (_) @import.name) (class_declaration name: (_) @import.name)]
  (#set! kind "export-default")) @import
; CommonJS's default export: `module.exports = Lib` (and `exports = module.exports = Lib`, which holds it), what a
; CommonJS import of that module binds and `new Lib(…)` calls.
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (identifier) @import.name
  (#eq? @_module "module")
  (#eq? @_exports "exports")
  (#set! kind "export-default")) @import
