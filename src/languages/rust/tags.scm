; Rust: definitions and imports. An `impl` block is not a definition: its functions are methods
; qualified by the implementing type (`Point.new`) under whatever contains the impl (a module).
; Trait functions nest under the trait.

; Methods first: a lower pattern index wins over the plain-function pattern for the same node.
(impl_item
  type: [(type_identifier) @qualifier
         (generic_type type: (type_identifier) @qualifier)
         (scoped_type_identifier name: (type_identifier) @qualifier)
         (generic_type type: (scoped_type_identifier name: (type_identifier) @qualifier))
         (reference_type type: [(type_identifier) @qualifier (generic_type type: (type_identifier) @qualifier)])
         (primitive_type) @qualifier]
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

; use a::b::{c, d as e, self, f::g, h::*}: one binding per leaf, up to three levels of nesting.
; Each level captures its module path; the extractor joins them (importPathJoin "::"), so
; `use a::{b::{c}}` imports c from a::b.

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

(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (identifier) @import.name))))))) @import

(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (self)))))))
  (#set! kind "module")) @import

(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (identifier) @import.name alias: (identifier) @import.alias)))))))) @import

(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (self) alias: (identifier) @import.alias)))))))
  (#set! kind "module")) @import

(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (use_as_clause path: (scoped_identifier path: (_) @import.module name: (_) @import.name) alias: (identifier) @import.alias)))))))) @import

(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (scoped_identifier path: (_) @import.module name: (_) @import.name)))))))) @import

(use_declaration
  argument: (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (scoped_use_list path: (_) @import.module list: (use_list (use_wildcard (_) @import.module)))))))
  (#set! kind "star")) @import

; `mod a;`: the module file a.rs (or a/mod.rs) next to this one, bound as `a`.
(mod_item !body name: (identifier) @import.module (#set! kind "module")) @import

; An impl of a trait: the trait is a base of the implementing type (the core attaches it there).
(impl_item
  trait: [(type_identifier) (scoped_type_identifier) (generic_type)] @base.implements
  body: (declaration_list (function_item name: (identifier) @name body: (block) @body) @definition.method))

; Calls with turbofish: `f::<T>()`, `T::f::<U>()`, `x.f::<T>()`.
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (generic_function
  function: (scoped_identifier path: (_) @receiver name: (identifier) @name))) @reference.call
(call_expression function: (generic_function
  function: (field_expression value: (_) @receiver field: (field_identifier) @name))) @reference.call

; Return types, for receiver typing (`fn new() -> Self`, `-> Parser<'a>`).
(function_item return_type: (_) @returns) @definition.function
(function_signature_item return_type: (_) @returns) @definition.method

; What names hold: typed parameters, struct fields, `let x: T`, `let x = T::new()`, `let x = T { .. }`,
; and a generic parameter's first trait bound (`<V: Visitor>`, `where V: Visitor`): V names the trait.
(parameter pattern: (identifier) @name type: (_) @type) @local.param
(field_declaration name: (field_identifier) @name type: (_) @type) @local.field
(let_declaration pattern: (identifier) @name type: (_) @type) @local.assign
(let_declaration
  pattern: (identifier) @name
  value: (call_expression function: [(identifier) (scoped_identifier) (field_expression)] @value)) @local.assign
(let_declaration
  pattern: (identifier) @name
  value: (struct_expression name: [(type_identifier) (scoped_type_identifier)] @type)) @local.assign
(let_declaration
  pattern: (identifier) @name
  value: (reference_expression value: (struct_expression name: [(type_identifier) (scoped_type_identifier)] @type))) @local.assign
(type_parameter
  name: (type_identifier) @name
  bounds: (trait_bounds . [(type_identifier) (scoped_type_identifier)] @alias)) @local.assign
(where_predicate
  left: (type_identifier) @name
  bounds: (trait_bounds . [(type_identifier) (scoped_type_identifier)] @alias)) @local.assign

; Calls inside macro arguments (`assert_eq!(parse(x), Ok(y))`, `format!("{}", x.name())`): the
; grammar leaves them as token trees, so calls are read off the tokens, up to ten trees deep:
; `f(…)`, `x.f(…)`, `self.x.f(…)`, `f(…).g(…)`, `p::f(…)`, `a::b::f(…)` (the receiver's tokens are
; joined). A name may lex as a primitive type there (`self.char()`).

(macro_invocation (token_tree (identifier) @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)
(macro_invocation (token_tree [(identifier) (self)] @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)
(macro_invocation (token_tree [(identifier) (self)] @receiver . "." @receiver . (identifier) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)
(macro_invocation (token_tree (identifier) @receiver . (token_tree) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)
(macro_invocation (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)
(macro_invocation (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" @receiver . (identifier) @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)
(macro_invocation (token_tree (token_tree (identifier) @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))
(macro_invocation (token_tree (token_tree [(identifier) (self)] @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))
(macro_invocation (token_tree (token_tree [(identifier) (self)] @receiver . "." @receiver . (identifier) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))
(macro_invocation (token_tree (token_tree (identifier) @receiver . (token_tree) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))
(macro_invocation (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))
(macro_invocation (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" @receiver . (identifier) @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))
(macro_invocation (token_tree (token_tree (token_tree (identifier) @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))
(macro_invocation (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))
(macro_invocation (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." @receiver . (identifier) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))
(macro_invocation (token_tree (token_tree (token_tree (identifier) @receiver . (token_tree) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))
(macro_invocation (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))
(macro_invocation (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" @receiver . (identifier) @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (identifier) @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." @receiver . (identifier) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (identifier) @receiver . (token_tree) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" @receiver . (identifier) @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." @receiver . (identifier) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @receiver . (token_tree) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" @receiver . (identifier) @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." @receiver . (identifier) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @receiver . (token_tree) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" @receiver . (identifier) @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." @receiver . (identifier) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @receiver . (token_tree) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" @receiver . (identifier) @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." @receiver . (identifier) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @receiver . (token_tree) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" @receiver . (identifier) @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." @receiver . (identifier) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @receiver . (token_tree) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" @receiver . (identifier) @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call)))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self)] @receiver . "." @receiver . (identifier) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (identifier) @receiver . (token_tree) @receiver . "." . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))))
(macro_invocation (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree (token_tree [(identifier) (self) (super) (crate)] @receiver . "::" @receiver . (identifier) @receiver . "::" . [(identifier) (primitive_type)] @name . (token_tree) @args (#match? @args "^\\(")) @reference.call))))))))))
