; Java: definitions and imports. Records are classes, annotation types are interfaces. Methods of
; anonymous classes nest under the method that creates them.

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class
(class_declaration superclass: (superclass (_) @base)) @definition.class
(class_declaration interfaces: (super_interfaces (type_list (_) @base.implements))) @definition.class

(record_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class
(record_declaration interfaces: (super_interfaces (type_list (_) @base.implements))) @definition.class

(interface_declaration
  name: (identifier) @name
  body: (interface_body) @body) @definition.interface
(interface_declaration (extends_interfaces (type_list (_) @base))) @definition.interface

(annotation_type_declaration
  name: (identifier) @name
  body: (annotation_type_body) @body) @definition.interface

(enum_declaration
  name: (identifier) @name
  body: (enum_body) @body) @definition.enum
(enum_declaration interfaces: (super_interfaces (type_list (_) @base.implements))) @definition.enum

(method_declaration
  name: (identifier) @name
  body: (block) @body) @definition.method
(method_declaration
  name: (identifier) @name) @definition.method
(annotation_type_element_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name
  body: (constructor_body) @body) @definition.constructor
(compact_constructor_declaration
  name: (identifier) @name
  body: (block) @body) @definition.constructor

; `@arity`: the argument list, whose entries pick among overloads.
(method_invocation
  object: (_)? @receiver
  name: (identifier) @name
  arguments: (argument_list) @arity) @reference.call
; `new Foo(…)`, `new Foo<>(…)`, `new Outer.Inner(…)`: the class name is the callee, its scope the receiver.
(object_creation_expression type: [(type_identifier) @name (generic_type . (type_identifier) @name)] arguments: (argument_list) @arity) @reference.new
(object_creation_expression
  type: [(scoped_type_identifier (_) @receiver . (type_identifier) @name .)
         (generic_type (scoped_type_identifier (_) @receiver . (type_identifier) @name .))]
  arguments: (argument_list) @arity) @reference.new
; `this(…)` and `super(…)` in a constructor.
(explicit_constructor_invocation !object constructor: [(this) (super)] @name arguments: (argument_list) @arity) @reference.call

; `package a.b;`: the file's package (its classes see the package's other classes unimported).
(package_declaration [(scoped_identifier) (identifier)] @import.module (#set! kind "package")) @import

; Return types, for receiver typing.
(method_declaration type: (_) @returns) @definition.method

; What names hold: fields, parameters, locals (a `var` takes the type of its `new` or the call's result).
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name)) @local.field
(formal_parameter type: (_) @type name: (identifier) @name) @local.param
(local_variable_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name)
  (#not-eq? @type "var")) @local.assign
(local_variable_declaration
  type: (type_identifier) @_var
  declarator: (variable_declarator name: (identifier) @name value: (object_creation_expression type: (_) @type))
  (#eq? @_var "var")) @local.assign
(local_variable_declaration
  type: (type_identifier) @_var
  declarator: (variable_declarator name: (identifier) @name value: (method_invocation) @alias)
  (#eq? @_var "var")) @local.assign
(enhanced_for_statement type: (_) @type name: (identifier) @name) @local.assign
(catch_formal_parameter (catch_type . (_) @type .) name: (identifier) @name) @local.assign

; import a.b.C;  import a.b.*;  import static a.b.C.m;  import static a.b.C.*;
(import_declaration
  (scoped_identifier scope: (_) @import.module name: (identifier) @import.name) .) @import
(import_declaration
  [(scoped_identifier) (identifier)] @import.module
  (asterisk)
  (#set! kind "star")) @import
(import_declaration
  (identifier) @import.module .
  (#set! kind "module")) @import
