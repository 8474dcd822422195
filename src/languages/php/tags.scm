; PHP: definitions, calls, `use` imports and literal require/include paths. A block namespace
; (`namespace A { }`) is a module around its content; a statement namespace (`namespace A;`) is a
; module from its statement to the next one (several per file), so the definitions after it nest
; under it. A trait a class uses (`use T;` in its body)
; is one of its bases: its methods are the class's. Qualified names (`\A\f()`, `new B\C`) are
; captured whole; the namespace rules resolve them.

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
(class_declaration body: (declaration_list (use_declaration [(name) (qualified_name)] @base))) @definition.class
(trait_declaration body: (declaration_list (use_declaration [(name) (qualified_name)] @base))) @definition.trait
(enum_declaration body: (enum_declaration_list (use_declaration [(name) (qualified_name)] @base))) @definition.enum

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
; `namespace A;` governs what follows it, up to the next `namespace B;` or the end of the file.
((namespace_definition name: (namespace_name) @name !body) @definition.module
  (#set! extent "siblings"))

(function_call_expression function: [(name) (qualified_name) (relative_name)] @name) @reference.call
(member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(scoped_call_expression scope: (_) @receiver name: (name) @name) @reference.call
(object_creation_expression [(name) (qualified_name) (relative_name)] @name) @reference.new

; Return types, for receiver typing.
(method_declaration return_type: [(named_type) @returns (optional_type (named_type) @returns)]) @definition.method
(function_definition return_type: [(named_type) @returns (optional_type (named_type) @returns)]) @definition.function

; What names hold: typed parameters (`Foo $x`), typed and promoted properties, `$x = new Foo`,
; `$x = $this->make()` (by its return type), `$this->x = new Foo`. A variable is named with its `$`,
; a property without.
(method_declaration parameters: (formal_parameters
  (simple_parameter type: [(named_type) @type (optional_type (named_type) @type)] name: (variable_name) @name) @local.param))
(function_definition parameters: (formal_parameters
  (simple_parameter type: [(named_type) @type (optional_type (named_type) @type)] name: (variable_name) @name) @local.param))
(property_promotion_parameter type: [(named_type) @type (optional_type (named_type) @type)] name: (variable_name) @name) @local.param
; A closure's parameters, typed or not, hold inside its body only (they shadow the outer `$r`).
(anonymous_function
  parameters: (formal_parameters (simple_parameter type: [(named_type) @type (optional_type (named_type) @type)] name: (variable_name) @name) @local.param)
  body: (_) @extent)
(anonymous_function
  parameters: (formal_parameters (simple_parameter !type name: (variable_name) @name) @local.param)
  body: (_) @extent)
(arrow_function
  parameters: (formal_parameters (simple_parameter type: [(named_type) @type (optional_type (named_type) @type)] name: (variable_name) @name) @local.param)
  body: (_) @extent)
(arrow_function
  parameters: (formal_parameters (simple_parameter !type name: (variable_name) @name) @local.param)
  body: (_) @extent)
(property_promotion_parameter type: [(named_type) @type (optional_type (named_type) @type)] name: (variable_name (name) @name)) @local.field
(property_declaration type: [(named_type) @type (optional_type (named_type) @type)] (property_element name: (variable_name (name) @name))) @local.field
(assignment_expression left: (variable_name) @name right: (object_creation_expression [(name) (qualified_name)] @type)) @local.assign
(assignment_expression
  left: (variable_name) @name
  right: [(member_call_expression) (nullsafe_member_call_expression) (scoped_call_expression) (function_call_expression)] @alias) @local.assign
((assignment_expression
  left: (member_access_expression object: (variable_name (name) @_this) name: (name) @name)
  right: (object_creation_expression [(name) (qualified_name)] @type))
  (#eq? @_this "this")) @local.field

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

; require/include(_once) with a literal path, or `__DIR__ . '/x.php'` (the including file's folder);
; other expressions are skipped.
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
(require_expression
  [(binary_expression left: (name) @_dir right: [(string . (string_content) @import.module .) (encapsed_string . (string_content) @import.module .)])
   (parenthesized_expression (binary_expression left: (name) @_dir right: [(string . (string_content) @import.module .) (encapsed_string . (string_content) @import.module .)]))]
  (#eq? @_dir "__DIR__")
  (#set! kind "require")) @import
(require_once_expression
  [(binary_expression left: (name) @_dir right: [(string . (string_content) @import.module .) (encapsed_string . (string_content) @import.module .)])
   (parenthesized_expression (binary_expression left: (name) @_dir right: [(string . (string_content) @import.module .) (encapsed_string . (string_content) @import.module .)]))]
  (#eq? @_dir "__DIR__")
  (#set! kind "require")) @import
(include_expression
  [(binary_expression left: (name) @_dir right: [(string . (string_content) @import.module .) (encapsed_string . (string_content) @import.module .)])
   (parenthesized_expression (binary_expression left: (name) @_dir right: [(string . (string_content) @import.module .) (encapsed_string . (string_content) @import.module .)]))]
  (#eq? @_dir "__DIR__")
  (#set! kind "require")) @import
(include_once_expression
  [(binary_expression left: (name) @_dir right: [(string . (string_content) @import.module .) (encapsed_string . (string_content) @import.module .)])
   (parenthesized_expression (binary_expression left: (name) @_dir right: [(string . (string_content) @import.module .) (encapsed_string . (string_content) @import.module .)]))]
  (#eq? @_dir "__DIR__")
  (#set! kind "require")) @import
