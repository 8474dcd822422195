; C#: definitions and using directives. Namespaces are modules; a file-scoped namespace
; (`namespace A.B;`) is captured on the whole compilation unit so the file's types nest under it;
; its body is the first non-comment node after it (the first match wins).
; Records are classes (`record struct` is a struct); every base_list entry is a @base, since the
; syntax does not tell a base class from an interface.

(class_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.class
(class_declaration (base_list [(identifier) (qualified_name) (generic_name) (alias_qualified_name)] @base)) @definition.class
(class_declaration (base_list (primary_constructor_base_type type: (_) @base))) @definition.class

(struct_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.struct
(struct_declaration (base_list [(identifier) (qualified_name) (generic_name) (alias_qualified_name)] @base)) @definition.struct

(interface_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.interface
(interface_declaration (base_list [(identifier) (qualified_name) (generic_name) (alias_qualified_name)] @base)) @definition.interface

(enum_declaration
  name: (identifier) @name
  body: (enum_member_declaration_list) @body) @definition.enum

(record_declaration
  "struct"
  name: (identifier) @name) @definition.struct
(record_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.class
(record_declaration
  name: (identifier) @name) @definition.class
(record_declaration (base_list [(identifier) (qualified_name) (generic_name) (alias_qualified_name)] @base)) @definition.class
(record_declaration (base_list (primary_constructor_base_type type: (_) @base))) @definition.class

(delegate_declaration
  name: (identifier) @name) @definition.type

(method_declaration
  name: (identifier) @name
  body: [(block) (arrow_expression_clause)] @body) @definition.method
(method_declaration
  name: (identifier) @name) @definition.method
(constructor_declaration
  name: (identifier) @name
  body: [(block) (arrow_expression_clause)] @body) @definition.constructor
(property_declaration
  name: (identifier) @name
  accessors: (accessor_list) @body) @definition.property
(property_declaration
  name: (identifier) @name
  value: (arrow_expression_clause) @body) @definition.property
(local_function_statement
  name: (identifier) @name
  body: [(block) (arrow_expression_clause)] @body) @definition.function

(namespace_declaration
  name: [(identifier) (qualified_name)] @name
  body: (declaration_list) @body) @definition.module
((compilation_unit
  (file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @name) (_) @body) @definition.module
  (#not-match? @body "^(//|/[*])"))
(compilation_unit
  (file_scoped_namespace_declaration name: [(identifier) (qualified_name)] @name)) @definition.module

; `@arity`: the argument list, whose entries pick among overloads.
(invocation_expression function: (identifier) @name arguments: (argument_list) @arity) @reference.call
(invocation_expression
  function: (member_access_expression expression: (_) @receiver name: (identifier) @name) arguments: (argument_list) @arity) @reference.call
; `M<T>(…)`, `x.M<T>(…)`: generic methods with explicit type arguments.
(invocation_expression function: (generic_name . (identifier) @name) arguments: (argument_list) @arity) @reference.call
(invocation_expression
  function: (member_access_expression expression: (_) @receiver name: (generic_name . (identifier) @name)) arguments: (argument_list) @arity) @reference.call
(object_creation_expression type: [(identifier) @name (generic_name . (identifier) @name)] arguments: (argument_list)? @arity) @reference.new
(object_creation_expression type: (qualified_name qualifier: (_) @receiver name: [(identifier) @name (generic_name . (identifier) @name)]) arguments: (argument_list)? @arity) @reference.new
; `this.M()`, `base.M()`; `: this(…)` and `: base(…)` before a constructor body.
(invocation_expression
  function: (member_access_expression expression: ["this" "base"] @receiver name: (identifier) @name) arguments: (argument_list) @arity) @reference.call
(constructor_initializer ["this" "base"] @name (argument_list) @arity) @reference.call

; Return types, for receiver typing.
(method_declaration returns: (_) @returns) @definition.method

; What names hold: fields, properties, parameters, locals (`var` takes the type of its `new`).
(field_declaration (variable_declaration type: (_) @type (variable_declarator name: (identifier) @name))) @local.field
(property_declaration type: (_) @type name: (identifier) @name) @local.field
(parameter type: (_) @type name: (identifier) @name) @local.param
(local_declaration_statement (variable_declaration type: (_) @type (variable_declarator name: (identifier) @name))
  (#not-eq? @type "var")) @local.assign
(local_declaration_statement
  (variable_declaration type: (implicit_type)
    (variable_declarator name: (identifier) @name (object_creation_expression type: (_) @type)))) @local.assign
(local_declaration_statement
  (variable_declaration type: (implicit_type)
    (variable_declarator name: (identifier) @name (invocation_expression) @alias))) @local.assign
(foreach_statement type: (_) @type left: (identifier) @name) @local.assign

; using A.B;  using static A.B.C;  global using A;  using X = A.B;
; `using A.B;` and `using static A.B.C;` bring a namespace's types (a type's static members) into
; scope: star imports.
(using_directive
  !name
  [(identifier) (qualified_name)] @import.module
  (#set! kind "star")) @import
(using_directive
  name: (identifier) @import.alias
  [(identifier) (qualified_name) (generic_name)] @import.module
  (#set! kind "module")) @import
