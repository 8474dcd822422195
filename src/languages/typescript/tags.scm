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
;; A method with no return annotation whose body returns a new instance (`meta() { return new Builder<T>(); }`, a
;; builder's step): it returns that class, as an annotation would say.
(class_body (method_definition
  !return_type
  body: (statement_block (return_statement (new_expression constructor: (identifier) @returns)))) @definition.method)
(abstract_method_signature
  name: (_) @name) @definition.method

(public_field_definition
  name: (_) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @definition.method

(variable_declarator
  name: (identifier) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)
          (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body)])
          (as_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body)
                          (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body)])])
          (satisfies_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body)])]) @definition.function

; @include ../javascript/assigned-functions.inc

(interface_declaration
  name: (type_identifier) @name
  body: (_) @body) @definition.interface
(interface_declaration (extends_type_clause type: (_) @base)) @definition.interface
(type_alias_declaration
  name: (type_identifier) @name) @definition.type
(enum_declaration
  name: (identifier) @name
  body: (_) @body) @definition.enum

; Calls, imports, exports and the bindings JavaScript shares:
; @include ../javascript/modules.scm

; TypeScript only: calls through a non-null assertion (`a!.b()`), type references, and the
; `import x = require …` form of CommonJS imports.
(call_expression
  function: (non_null_expression (member_expression
    object: (_) @receiver
    property: (property_identifier) @name))
  arguments: (_) @args) @reference.call

; One capture: a type reference without @name is the node it captures (a second capture of the same node
; made web-tree-sitter build a second Node per type name: 167k on effect, ~5% of its query).
(type_identifier) @reference.type

(import_statement
  !source
  (import_require_clause (identifier) @import.alias source: (string (string_fragment) @import.module))
  (#set! kind "namespace")) @import

; `export namespace util { … }`: `util` names the file, whose top-level definitions its members are.
(export_statement
  declaration: (internal_module name: (identifier) @import.alias)
  (#set! kind "self-namespace")) @import

; TypeScript only: annotated names, parameter properties and class fields say what they hold.
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
; Enum members and fields with neither type nor `new`: names a target may ask for (Mode.Fast, Client.retries).
(enum_body (property_identifier) @name @local.field)
(enum_body (enum_assignment name: (property_identifier) @name) @local.field)
(public_field_definition name: (property_identifier) @name) @local.field
(required_parameter pattern: (identifier) @name) @local.param
(optional_parameter pattern: (identifier) @name) @local.param
