; Kotlin: definitions, calls, imports and what names hold. Interfaces and enums are class
; declarations with a keyword or modifier (their patterns come first: the first pattern that names
; a definition sets its kind). An `object` is a class with one instance; a companion object is not
; a definition of its own: its functions are members of the class around it, called through the
; class's name (`Base.create()`), as Kotlin writes them.

(class_declaration
  "interface"
  name: (identifier) @name
  (class_body)? @body) @definition.interface
(class_declaration
  (modifiers (class_modifier) @_enum)
  name: (identifier) @name
  (enum_class_body) @body
  (#eq? @_enum "enum")) @definition.enum
(class_declaration
  name: (identifier) @name
  [(class_body) (enum_class_body)] @body) @definition.class
(class_declaration
  name: (identifier) @name) @definition.class
; `class C : Base(x), Shape`: a base class is constructed (it has arguments), an interface is not.
(class_declaration
  (delegation_specifiers (delegation_specifier [(user_type) @base.implements (constructor_invocation (user_type) @base)]))) @definition.class

(object_declaration
  name: (identifier) @name
  (class_body) @body) @definition.class
(object_declaration
  name: (identifier) @name) @definition.class
(object_declaration
  (delegation_specifiers (delegation_specifier [(user_type) @base.implements (constructor_invocation (user_type) @base)]))) @definition.class

(type_alias type: (identifier) @name) @definition.type

(function_declaration
  name: (identifier) @name
  (function_body) @body) @definition.function
(function_declaration
  name: (identifier) @name) @definition.function
(function_declaration (user_type) @returns . (function_body)) @definition.function
(function_declaration (nullable_type) @returns . (function_body)) @definition.function

(secondary_constructor
  "constructor" @name
  (block) @body) @definition.constructor
(secondary_constructor
  "constructor" @name) @definition.constructor

; Top-level `val`/`const val` and properties.
(source_file
  (property_declaration (variable_declaration (identifier) @name)) @definition.constant)

; Calls: `f(x)`, `a.b.f(x)`, `a?.f(x)`, `f { … }`. Calling a class constructs it.
(call_expression . (identifier) @name) @reference.call
(call_expression . (navigation_expression (_) @receiver . (identifier) @name .)) @reference.call
; `this(…)` and `super(…)` before a secondary constructor's body.
(constructor_delegation_call ["this" "super"] @name) @reference.call
; `class C : Base(x)`: the base class's constructor runs.
(delegation_specifier (constructor_invocation (user_type (identifier) @name .))) @reference.new

; package a.b
(package_header (qualified_identifier) @import.module (#set! kind "package")) @import

; import a.b.C;  import a.b.C as D;  import a.b.*
((import
  (qualified_identifier (identifier) @import.name .) @import.module .) @import
  (#not-match? @import "\\*\\s*$"))
(import
  (qualified_identifier (identifier) @import.name .) @import.module
  (identifier) @import.alias .) @import
(import
  (qualified_identifier) @import.module
  "*"
  (#set! kind "star")) @import

; What names hold: properties, parameters, locals (`val h = Helper()` holds what `Helper()` makes).
; A property is a field in a class body and a local elsewhere: `@local.member` lets extraction
; tell them apart by the definition around it (a `(class_body (property_declaration …))` pattern
; cost time quadratic in nesting depth).
(class_parameter (identifier) @name (_) @type) @local.field
(parameter (identifier) @name (_) @type) @local.param
(property_declaration (variable_declaration (identifier) @name (_) @type)) @local.member
(property_declaration
  (variable_declaration (identifier) @name .)
  (call_expression . [(identifier) (navigation_expression)] @value)) @local.member
(for_statement (variable_declaration (identifier) @name (_) @type)) @local.assign
