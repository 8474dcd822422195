; C: definitions and includes.
; A typedef of a struct/union/enum with a body is one definition named after the typedef, of the
; body's kind (the tag is not indexed separately, so the struct does not nest under the typedef).

; Functions: the name sits inside (possibly pointer- or parenthesis-wrapped) declarators.
(function_definition
  declarator: (function_declarator declarator: (identifier) @name)
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (function_declarator declarator: (parenthesized_declarator
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
  body: (compound_statement) @body) @definition.function

; struct/union/enum with a body, under any parent but a typedef (queries cannot negate a parent).
(translation_unit [(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)
  (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)] @definition.struct)
(translation_unit (enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum)
; In a block, the type and the ";" after it as siblings, not the block as parent: a parent pattern
; keeps a pending state through every nested block below it, which made the query quadratic in
; nesting (3,000 nested blocks hit the 5 s query budget). A typedef puts its name, not ";", after it.
([(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)
  (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)] @definition.struct . ";")
((enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum . ";")
(declaration_list [(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)
  (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)] @definition.struct)
(declaration_list (enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum)
(preproc_if [(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)
  (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)] @definition.struct)
(preproc_if (enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum)
(preproc_ifdef [(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)
  (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)] @definition.struct)
(preproc_ifdef (enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum)
(preproc_else [(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)
  (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)] @definition.struct)
(preproc_else (enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum)
(preproc_elif [(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)
  (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)] @definition.struct)
(preproc_elif (enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum)
(preproc_elifdef [(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)
  (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)] @definition.struct)
(preproc_elifdef (enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum)
(declaration type: [(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)
  (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)] @definition.struct)
(declaration type: (enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum)
(field_declaration type: [(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body)
  (union_specifier name: (type_identifier) @name body: (field_declaration_list) @body)] @definition.struct)
(field_declaration type: (enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum)

; typedefs: the first declarator names it.
(type_definition
  type: [(struct_specifier body: (_) @body) (union_specifier body: (_) @body)]
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)]) @definition.struct


(call_expression function: (identifier) @name) @reference.call

; #include <stdio.h> keeps its angle brackets (module "<stdio.h>"); #include "x.h" is "x.h".
(preproc_include
  path: (system_lib_string) @import.module
  (#set! kind "star")) @import
(preproc_include
  path: (string_literal (string_content) @import.module)
  (#set! kind "star")) @import
