; C++: definitions and includes. Namespaces are modules (their content nests); member functions
; are methods (declarations in a class body included); an out-of-line `Foo::bar() {}` is a
; top-level method named `bar`. Member function patterns come first so they win over the plain
; function patterns for the same node.

; Member functions and constructors written or declared inside a class body.
(field_declaration_list (function_definition
  declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)
  body: (_) @body) @definition.method)
(field_declaration_list (function_definition
  declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.method)
(field_declaration_list (function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))
  body: (_) @body) @definition.method)
(field_declaration_list (function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))) @definition.method)
(field_declaration_list (function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)))
  body: (_) @body) @definition.method)
(field_declaration_list (function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)))) @definition.method)
(field_declaration_list (function_definition
  declarator: (reference_declarator (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))
  body: (_) @body) @definition.method)
(field_declaration_list (function_definition
  declarator: (reference_declarator (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))) @definition.method)
(field_declaration_list (function_definition
  declarator: (function_declarator declarator: (identifier) @name)
  body: (_) @body) @definition.constructor)
(field_declaration_list (function_definition
  declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor)
(field_declaration_list (field_declaration
  declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.method)
(field_declaration_list (declaration
  declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)) @definition.method)
(field_declaration_list (field_declaration
  declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))) @definition.method)
(field_declaration_list (declaration
  declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))) @definition.method)
(field_declaration_list (field_declaration
  declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)))) @definition.method)
(field_declaration_list (declaration
  declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)))) @definition.method)
(field_declaration_list (field_declaration
  declarator: (reference_declarator (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))) @definition.method)
(field_declaration_list (declaration
  declarator: (reference_declarator (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))) @definition.method)
(field_declaration_list (declaration
  declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor)
(field_declaration_list (field_declaration
  declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor)

; Out-of-line definitions: `A::f`, `ns::A<T>::f`, `a::b::C::~C`.
(function_definition
  declarator: (function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name))))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (reference_declarator (function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name))))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)))))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (reference_declarator (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name))))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name))))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)))))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name))))))
  body: (compound_statement) @body) @definition.method
(function_definition
  declarator: (reference_declarator (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)))))
  body: (compound_statement) @body) @definition.method

; Free functions.
(function_definition
  declarator: (function_declarator declarator: [(identifier) (operator_name)] @name)
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (operator_name)] @name))
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (operator_name)] @name)))
  body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (reference_declarator (function_declarator declarator: [(identifier) (operator_name)] @name))
  body: (compound_statement) @body) @definition.function

(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @name
  body: (declaration_list) @body) @definition.module

; class/struct/union/enum with a body, under any parent but a typedef (queries cannot negate a parent).
(translation_unit (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(translation_unit [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(translation_unit (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)
(compound_statement (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(compound_statement [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(compound_statement (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)
(declaration_list (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(declaration_list [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(declaration_list (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)
(preproc_if (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(preproc_if [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(preproc_if (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)
(preproc_ifdef (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(preproc_ifdef [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(preproc_ifdef (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)
(preproc_else (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(preproc_else [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(preproc_else (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)
(preproc_elif (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(preproc_elif [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(preproc_elif (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)
(preproc_elifdef (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(preproc_elifdef [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(preproc_elifdef (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)
(template_declaration (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(template_declaration [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(template_declaration (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)
(declaration type: (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(declaration type: [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(declaration type: (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)
(field_declaration type: (class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class)
(field_declaration type: [(struct_specifier name: (_) @name body: (field_declaration_list) @body)
  (union_specifier name: (_) @name body: (field_declaration_list) @body)] @definition.struct)
(field_declaration type: (enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum)

(class_specifier (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)) @definition.class
(struct_specifier (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)) @definition.struct

; typedefs and aliases. A typedef of a struct/union/enum with a body is one definition named after
; the typedef.
(type_definition
  type: [(struct_specifier body: (_) @body) (union_specifier body: (_) @body) (class_specifier body: (_) @body)]
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)]) @definition.struct
(type_definition
  type: (enum_specifier body: (_) @body)
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)]) @definition.enum
(type_definition
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)
               (array_declarator declarator: (type_identifier) @name)
               (function_declarator declarator: (type_identifier) @name)
               (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))]) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type

(preproc_function_def name: (identifier) @name) @definition.macro

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (field_expression argument: (_) @receiver field: (field_identifier) @name)) @reference.call

; #include <vector> keeps its angle brackets; #include "x.hpp" is "x.hpp"; C++20 `import a.b;`.
(preproc_include
  path: (system_lib_string) @import.module
  (#set! kind "module")) @import
(preproc_include
  path: (string_literal (string_content) @import.module)
  (#set! kind "module")) @import
(import_declaration
  name: (module_name) @import.module
  (#set! kind "module")) @import
