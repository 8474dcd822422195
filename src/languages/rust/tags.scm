; Rust: definitions and imports. An `impl` block is not a definition: its functions are methods
; qualified by the implementing type (`Point.new`) under whatever contains the impl (a module).
; Trait functions nest under the trait.

; Methods first: a lower pattern index wins over the plain-function pattern for the same node.
(impl_item
  type: [(type_identifier) @qualifier
         (generic_type type: (type_identifier) @qualifier)
         (scoped_type_identifier name: (type_identifier) @qualifier)]
  body: (declaration_list
    (function_item name: (identifier) @name body: (block) @body) @definition.method))
(impl_item body: (declaration_list
  (function_item name: (identifier) @name body: (block) @body) @definition.method))
(trait_item body: (declaration_list
  (function_item name: (identifier) @name body: (block) @body) @definition.method))
(trait_item body: (declaration_list
  (function_signature_item name: (identifier) @name) @definition.method))

(function_item
  name: (identifier) @name
  body: (block) @body) @definition.function

(struct_item
  name: (type_identifier) @name
  body: (_) @body) @definition.struct
(struct_item
  name: (type_identifier) @name) @definition.struct
(union_item
  name: (type_identifier) @name
  body: (_) @body) @definition.struct
(enum_item
  name: (type_identifier) @name
  body: (_) @body) @definition.enum
(trait_item
  name: (type_identifier) @name
  body: (_) @body) @definition.trait
(trait_item bounds: (trait_bounds (_) @base)) @definition.trait
(type_item
  name: (type_identifier) @name) @definition.type
(mod_item
  name: (identifier) @name
  body: (declaration_list) @body) @definition.module
(macro_definition
  name: (identifier) @name (macro_rule) @body) @definition.macro
(macro_definition
  name: (identifier) @name) @definition.macro

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (field_expression value: (_) @receiver field: (field_identifier) @name)) @reference.call
(call_expression
  function: (scoped_identifier path: (_) @receiver name: (identifier) @name)) @reference.call

; use a::b;  use a::b as c;  use a;  use a::*;  extern crate a [as b];
(use_declaration
  argument: (scoped_identifier path: (_) @import.module name: (_) @import.name)) @import
(use_declaration
  argument: (use_as_clause
    path: (scoped_identifier path: (_) @import.module name: (_) @import.name)
    alias: (identifier) @import.alias)) @import
(use_declaration
  argument: (identifier) @import.module
  (#set! kind "module")) @import
(use_declaration
  argument: (use_as_clause path: (identifier) @import.module alias: (identifier) @import.alias)
  (#set! kind "module")) @import
(use_declaration
  argument: (use_wildcard (_) @import.module)
  (#set! kind "star")) @import
(extern_crate_declaration
  name: (identifier) @import.module
  !alias
  (#set! kind "module")) @import
(extern_crate_declaration
  name: (identifier) @import.module
  alias: (identifier) @import.alias
  (#set! kind "module")) @import

; use a::b::{c, d as e, self, f::g, h::*}: one binding per leaf, one level of nesting deep.
; In `use a::{b::{c}}` the statement captures two module paths (`a`, then `b`); the extractor
; keeps the first, so the module is the outermost path.
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (identifier) @import.name))) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (self)))
  (#set! kind "module")) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)))) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (self) alias: (identifier) @import.alias)))
  (#set! kind "module")) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (scoped_identifier path: (_) @import.module name: (_) @import.name) alias: (identifier) @import.alias)))) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_identifier path: (_) @import.module name: (_) @import.name)))) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (use_wildcard (_) @import.module)))
  (#set! kind "star")) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (identifier) @import.name))))) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (self)))))
  (#set! kind "module")) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)))))) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (self) alias: (identifier) @import.alias)))))
  (#set! kind "module")) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (scoped_identifier path: (_) @import.module name: (_) @import.name) alias: (identifier) @import.alias)))))) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (scoped_identifier path: (_) @import.module name: (_) @import.name)))))) @import
(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (use_wildcard (_) @import.module)))))
  (#set! kind "star")) @import
