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

(method_invocation
  object: (_)? @receiver
  name: (identifier) @name) @reference.call
(object_creation_expression type: (_) @name) @reference.new

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
