; Go: definitions and imports. A method is top-level in the source; its receiver type qualifies
; it (`Point.Area`).

(function_declaration
  name: (identifier) @name
  body: (block) @body) @definition.function

(method_declaration
  receiver: (parameter_list (parameter_declaration
    type: [(type_identifier) @qualifier
           (pointer_type (type_identifier) @qualifier)
           (generic_type type: (type_identifier) @qualifier)
           (pointer_type (generic_type type: (type_identifier) @qualifier))]))
  name: (field_identifier) @name
  body: (block) @body) @definition.method

; `type X ...` on its own: the declaration is the definition, so the comment above it is the doc.
((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (struct_type (field_declaration_list) @body))) @definition.struct
  (#not-match? @definition.struct "^type\\s*\\("))
((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (interface_type) @body)) @definition.interface
  (#not-match? @definition.interface "^type\\s*\\("))
((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type) (array_type)
           (map_type) (channel_type) (function_type) (parenthesized_type) (negated_type)])) @definition.type
  (#not-match? @definition.type "^type\\s*\\("))
((type_declaration
  (type_alias name: (type_identifier) @name)) @definition.type
  (#not-match? @definition.type "^type\\s*\\("))

; `type ( A ...; B ... )`: each spec is its own definition.
(type_declaration "("
  (type_spec
    name: (type_identifier) @name
    type: (struct_type (field_declaration_list) @body)) @definition.struct)
(type_declaration "("
  (type_spec
    name: (type_identifier) @name
    type: (interface_type) @body) @definition.interface)
(type_declaration "("
  (type_spec
    name: (type_identifier) @name
    type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type) (array_type)
           (map_type) (channel_type) (function_type) (parenthesized_type) (negated_type)]) @definition.type)
(type_declaration "("
  (type_alias name: (type_identifier) @name) @definition.type)

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (selector_expression operand: (_) @receiver field: (field_identifier) @name)) @reference.call

; import "m"  /  import x "m": the alias is the local package name. `. "m"` merges the package's
; names into this file (star); `_ "m"` only runs its init (side-effect).
(import_spec
  !name
  path: [(interpreted_string_literal (interpreted_string_literal_content) @import.module)
         (raw_string_literal (raw_string_literal_content) @import.module)]
  (#set! kind "module")) @import
(import_spec
  name: (package_identifier) @import.alias
  path: [(interpreted_string_literal (interpreted_string_literal_content) @import.module)
         (raw_string_literal (raw_string_literal_content) @import.module)]
  (#set! kind "module")) @import
(import_spec
  name: (dot)
  path: [(interpreted_string_literal (interpreted_string_literal_content) @import.module)
         (raw_string_literal (raw_string_literal_content) @import.module)]
  (#set! kind "star")) @import
(import_spec
  name: (blank_identifier)
  path: [(interpreted_string_literal (interpreted_string_literal_content) @import.module)
         (raw_string_literal (raw_string_literal_content) @import.module)]
  (#set! kind "side-effect")) @import
