; TypeScript and TSX: definitions, calls, type references, imports and local bindings.

(function_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function
(generator_function_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function
(function_declaration return_type: (type_annotation (_) @returns)) @definition.function

(class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class
(abstract_class_declaration
  name: (type_identifier) @name
  body: (class_body) @body) @definition.class
(class_declaration (class_heritage (extends_clause value: (_) @base))) @definition.class
(abstract_class_declaration (class_heritage (extends_clause value: (_) @base))) @definition.class
(class_declaration (class_heritage (implements_clause (_) @base.implements))) @definition.class
(abstract_class_declaration (class_heritage (implements_clause (_) @base.implements))) @definition.class

(class_body (method_definition
  "get"
  name: (_) @name
  body: (_) @body) @definition.getter)
(class_body (method_definition
  "set"
  name: (_) @name
  body: (_) @body) @definition.setter)
(class_body (method_definition
  name: (_) @name
  body: (_) @body) @definition.method)
(class_body (method_definition return_type: (type_annotation (_) @returns)) @definition.method)
(abstract_method_signature
  name: (_) @name) @definition.method

(public_field_definition
  name: (_) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @definition.method

(variable_declarator
  name: (identifier) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)
          (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body)])
          (as_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body)
                          (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body)])])
          (satisfies_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body)])]) @definition.function

(interface_declaration
  name: (type_identifier) @name
  body: (_) @body) @definition.interface
(interface_declaration (extends_type_clause type: (_) @base)) @definition.interface
(type_alias_declaration
  name: (type_identifier) @name) @definition.type
(enum_declaration
  name: (identifier) @name
  body: (_) @body) @definition.enum

(call_expression function: (super) @name) @reference.call

; Calls: f(), obj.f(), obj?.f(), new C(), new ns.C(), tagged templates.
(call_expression function: (identifier) @name arguments: (_) @args) @reference.call
(call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)
  arguments: (_) @args) @reference.call
(call_expression
  function: (non_null_expression (member_expression
    object: (_) @receiver
    property: (property_identifier) @name))) @reference.call
(new_expression constructor: (identifier) @name arguments: (_)? @args) @reference.new
(new_expression
  constructor: (member_expression object: (_) @receiver property: (property_identifier) @name)) @reference.new

(type_identifier) @name @reference.type

; import D, { a as b }, * as ns from "m";  import "m";  export ... from "m"
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
  !source
  (import_require_clause (identifier) @import.alias source: (string (string_fragment) @import.module))
  (#set! kind "namespace")) @import
(import_statement
  .
  source: (string (string_fragment) @import.module)
  (#set! kind "side-effect")) @import
(export_statement
  !declaration
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
(call_expression
  function: (identifier) @_req
  arguments: (arguments . (string (string_fragment) @import.module))
  (#eq? @_req "require")
  (#set! kind "require")) @import
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @import.module))
  (#set! kind "dynamic")) @import

; What local names and fields hold: const x = new Foo(), x: Foo, (p: Foo) => ..., this.x = new Foo().
(variable_declarator
  name: (identifier) @name
  value: (new_expression constructor: (_) @value)) @local.assign
(variable_declarator
  name: (identifier) @name
  value: (call_expression function: [(identifier) (member_expression)] @value)) @local.assign
(variable_declarator
  name: (identifier) @name
  type: (type_annotation (_) @type)) @local.assign
(required_parameter
  pattern: (identifier) @name
  type: (type_annotation (_) @type)) @local.param
(optional_parameter
  pattern: (identifier) @name
  type: (type_annotation (_) @type)) @local.param
(required_parameter
  (accessibility_modifier)
  pattern: (identifier) @name
  type: (type_annotation (_) @type)) @local.field
(public_field_definition
  name: (property_identifier) @name
  type: (type_annotation (_) @type)) @local.field
(public_field_definition
  name: (property_identifier) @name
  value: (new_expression constructor: (_) @value)) @local.field
(assignment_expression
  left: (member_expression object: (this) @receiver property: (property_identifier) @name)
  right: (new_expression constructor: (_) @value)) @local.field
(assignment_expression
  left: (member_expression object: (this) @receiver property: (property_identifier) @name)
  right: [(identifier) (member_expression)] @alias) @local.field
(variable_declarator
  name: (identifier) @name
  value: [(identifier) (member_expression)] @alias) @local.assign

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

; Every other local name: parameters and variables shadow module-level names.
(required_parameter pattern: (identifier) @name) @local.param
(optional_parameter pattern: (identifier) @name) @local.param
(variable_declarator name: (identifier) @name) @local.assign
(arrow_function parameter: (identifier) @name) @local.param
