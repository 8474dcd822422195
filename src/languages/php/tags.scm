; PHP: definitions, `use` imports and literal require/include paths. A block namespace
; (`namespace A { }`) is a module around its content; a statement namespace (`namespace A;`) is
; captured on the whole program so the file's definitions nest under it (one per file: a second
; statement namespace in the same file is not seen).

(class_declaration
  name: (name) @name
  body: (declaration_list) @body) @definition.class
(class_declaration (base_clause [(name) (qualified_name)] @base)) @definition.class
(class_declaration (class_interface_clause [(name) (qualified_name)] @base.implements)) @definition.class

(interface_declaration
  name: (name) @name
  body: (declaration_list) @body) @definition.interface
(interface_declaration (base_clause [(name) (qualified_name)] @base)) @definition.interface

(trait_declaration
  name: (name) @name
  body: (declaration_list) @body) @definition.trait

(enum_declaration
  name: (name) @name
  body: (enum_declaration_list) @body) @definition.enum
(enum_declaration (class_interface_clause [(name) (qualified_name)] @base.implements)) @definition.enum

((method_declaration
  name: (name) @name
  body: (compound_statement) @body) @definition.constructor
  (#eq? @name "__construct"))
(method_declaration
  name: (name) @name
  body: (compound_statement) @body) @definition.method
(method_declaration
  name: (name) @name) @definition.method

(function_definition
  name: (name) @name
  body: (compound_statement) @body) @definition.function

(namespace_definition
  name: (namespace_name) @name
  body: (compound_statement) @body) @definition.module
((program
  (namespace_definition name: (namespace_name) @name !body) (_) @body) @definition.module
  (#not-match? @body "^(//|#|/[*])"))
(program
  (namespace_definition name: (namespace_name) @name !body)) @definition.module

(function_call_expression function: [(name) (qualified_name)] @name) @reference.call
(member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(scoped_call_expression scope: (_) @receiver name: (name) @name) @reference.call
(object_creation_expression [(name) (qualified_name)] @name) @reference.new

; use A\B\C;  use A\B\C as D;  use function A\f;  use A\{B, C as D};  `use C;` is module "C" with
; no name. In a group, `use A\{B\C}` keeps the outer prefix only (module "A", name "C").
(namespace_use_declaration (namespace_use_clause
  (qualified_name prefix: (namespace_name) @import.module (name) @import.name)
  !alias)) @import
(namespace_use_declaration (namespace_use_clause
  (qualified_name prefix: (namespace_name) @import.module (name) @import.name)
  alias: (name) @import.alias)) @import
(namespace_use_declaration (namespace_use_clause
  (name) @import.module
  !alias)
  (#set! kind "module")) @import
(namespace_use_declaration (namespace_use_clause
  (name) @import.module
  alias: (name) @import.alias)
  (#set! kind "module")) @import
(namespace_use_declaration
  (namespace_name) @import.module
  body: (namespace_use_group (namespace_use_clause
    [(name) @import.name
     (qualified_name prefix: (namespace_name) @import.module (name) @import.name)]
    !alias))) @import
(namespace_use_declaration
  (namespace_name) @import.module
  body: (namespace_use_group (namespace_use_clause
    [(name) @import.name
     (qualified_name prefix: (namespace_name) @import.module (name) @import.name)]
    alias: (name) @import.alias))) @import

; require/include(_once) with a literal path; `__DIR__ . '/x.php'` and other expressions are skipped.
(require_expression
  [(string . (string_content) @import.module .)
   (encapsed_string . (string_content) @import.module .)
   (parenthesized_expression [(string . (string_content) @import.module .)
                              (encapsed_string . (string_content) @import.module .)])]
  (#set! kind "require")) @import
(require_once_expression
  [(string . (string_content) @import.module .)
   (encapsed_string . (string_content) @import.module .)
   (parenthesized_expression [(string . (string_content) @import.module .)
                              (encapsed_string . (string_content) @import.module .)])]
  (#set! kind "require")) @import
(include_expression
  [(string . (string_content) @import.module .)
   (encapsed_string . (string_content) @import.module .)
   (parenthesized_expression [(string . (string_content) @import.module .)
                              (encapsed_string . (string_content) @import.module .)])]
  (#set! kind "require")) @import
(include_once_expression
  [(string . (string_content) @import.module .)
   (encapsed_string . (string_content) @import.module .)
   (parenthesized_expression [(string . (string_content) @import.module .)
                              (encapsed_string . (string_content) @import.module .)])]
  (#set! kind "require")) @import
