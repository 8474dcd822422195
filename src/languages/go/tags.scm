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

; `package p`: the file's package (files of one folder and package share their top-level names).
(package_clause (package_identifier) @import.module (#set! kind "package")) @import

; Interface methods, nested in their interface (`Router.Use`).
(method_elem name: (field_identifier) @name) @definition.method
(method_elem result: (_) @returns) @definition.method

; Return types, for receiver typing (`NewRouter() *Mux`, `(*Mux, error)`).
(function_declaration result: (_) @returns) @definition.function
(method_declaration result: (_) @returns) @definition.method

; Embedded fields are the struct's bases (their methods are promoted); embedded interfaces the interface's.
((type_declaration
  (type_spec type: (struct_type (field_declaration_list (field_declaration !name type: (_) @base))))) @definition.struct
  (#not-match? @definition.struct "^type\\s*\\("))
(type_declaration "("
  (type_spec type: (struct_type (field_declaration_list (field_declaration !name type: (_) @base)))) @definition.struct)
((type_declaration
  (type_spec type: (interface_type (type_elem . [(type_identifier) (qualified_type)] @base .)))) @definition.interface
  (#not-match? @definition.interface "^type\\s*\\("))
(type_declaration "("
  (type_spec type: (interface_type (type_elem . [(type_identifier) (qualified_type)] @base .))) @definition.interface)

; What names hold, for receiver typing: the receiver, typed parameters, struct fields (an embedded
; field is named after its type), `x := New()`, `x := &T{}`, `var x T`.
(method_declaration
  receiver: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type))
  body: (block) @local.param)
(function_declaration parameters: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type) @local.param))
(method_declaration parameters: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type) @local.param))
(func_literal
  parameters: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type) @local.param)
  body: (block) @extent)
(field_declaration name: (field_identifier) @name type: (_) @type) @local.field
(field_declaration !name type: (type_identifier) @name @type) @local.field
(field_declaration !name type: (qualified_type name: (type_identifier) @name) @type) @local.field
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . (call_expression function: [(identifier) (selector_expression)] @value))) @local.assign
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . [(composite_literal type: (_) @type)
                             (unary_expression operand: (composite_literal type: (_) @type))])) @local.assign
(var_spec name: (identifier) @name type: (_) @type) @local.assign
(var_spec
  name: (identifier) @name
  value: (expression_list . (call_expression function: [(identifier) (selector_expression)] @value))) @local.assign
; `for _, v := range xs`: v is an element of xs (a slice's element, a map's value).
(range_clause
  left: (expression_list (_) . (identifier) @name .)
  right: (_) @iter) @local.assign
; `x := new(T)`: a *T.
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . (call_expression
    function: (identifier) @_new
    arguments: (argument_list . (_) @type)))
  (#eq? @_new "new")) @local.assign
