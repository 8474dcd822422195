; C++: definitions and includes. Namespaces are modules (their content nests); member functions
; are methods (declarations in a class body included); an out-of-line `Foo::bar() {}` is a
; top-level method named `bar`; a class template specialization `S<int>` is named `S`.
; Patterns are few and use alternations because each one costs compile time against this large
; grammar: 82 separate patterns took ~580 ms to compile, these ~34 take ~400 ms (once per process).
; Lower pattern indexes win for the same node, so member patterns come before free functions.

; Member functions. A field_identifier or destructor_name as a function's name only occurs in a
; class body, so those patterns need no parent; plain identifiers (constructors, and members
; of member templates) and operators are only taken inside a class body.
(function_definition
  declarator: [(function_declarator declarator: [(field_identifier) (destructor_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name)] @name)))
    (reference_declarator (function_declarator declarator: [(field_identifier) (destructor_name)] @name))]
  body: (_)? @body) @definition.method
(field_declaration_list (function_definition
  declarator: [(function_declarator declarator: (operator_name) @name)
    (pointer_declarator declarator: (function_declarator declarator: (operator_name) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (operator_name) @name)))
    (reference_declarator (function_declarator declarator: (operator_name) @name))]
  body: (_)? @body) @definition.method)
(field_declaration_list (function_definition
  declarator: (function_declarator declarator: (identifier) @name)
  body: (_)? @body) @definition.constructor)
(field_declaration_list (template_declaration (function_definition
  declarator: [(function_declarator declarator: [(identifier) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (operator_name)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: [(identifier) (operator_name)] @name))]
  body: (_)? @body) @definition.method))
; Member function declarations without a body.
(field_declaration
  declarator: [(function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name))]) @definition.method
(declaration
  declarator: (function_declarator declarator: (destructor_name) @name)) @definition.method
(field_declaration_list (declaration
  declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor)
(field_declaration_list (template_declaration (declaration
  declarator: [(function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
    (reference_declarator (function_declarator declarator: (identifier) @name))]) @definition.method))

; Out-of-line definitions: `A::f`, `ns::A<T>::f` (also returning a pointer or reference),
; `a::b::C::~C`. The declarator is the @qualifier: `geo::Circle<T>::area` names `geo.Circle.area`.
(function_definition
  declarator: [(function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)) @qualifier
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)) @qualifier)
    (reference_declarator (function_declarator declarator: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)) @qualifier)
    (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name))) @qualifier
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name))) @qualifier)
    (reference_declarator (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name))) @qualifier)
    (function_declarator declarator: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) (destructor_name) (operator_name)] @name)))) @qualifier]
  body: (compound_statement) @body) @definition.method

; Free functions (and free operators).
(function_definition
  declarator: [(function_declarator declarator: [(identifier) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (operator_name)] @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: [(identifier) (operator_name)] @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))]
  body: (compound_statement) @body) @definition.function

(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @name
  body: (declaration_list) @body) @definition.module

; class/struct/union/enum with a body, under any parent but a typedef (queries cannot negate a
; parent, so the allowed parents are listed).
(translation_unit [(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum])
; In a block, the type and the ";" after it as siblings, not the block as parent: a parent pattern
; keeps a pending state through every nested block below it, so nested blocks and lambdas made the
; query quadratic (2,000 nested lambdas: 9.8 s). A typedef puts its name, not ";", after the type.
([(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum] . ";")
(declaration_list [(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum])
(preproc_if [(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum])
(preproc_ifdef [(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum])
(preproc_else [(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum])
(preproc_elif [(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum])
(preproc_elifdef [(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum])
(template_declaration [(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum])
(declaration type: [(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum])
(field_declaration type: [(class_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.class
  (struct_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (union_specifier name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (type_identifier) @name) @qualifier] body: (field_declaration_list) @body) @definition.struct
  (enum_specifier name: [(type_identifier) (qualified_identifier)] @name body: (enumerator_list) @body) @definition.enum])

(class_specifier (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)) @definition.class
(struct_specifier (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)) @definition.struct

; typedefs and aliases. A typedef of a struct/union/enum with a body is one definition named after
; the typedef.
(type_definition
  type: [(struct_specifier body: (_) @body) (union_specifier body: (_) @body) (class_specifier body: (_) @body)]
  declarator: [(type_identifier) @name
               (pointer_declarator declarator: (type_identifier) @name)]) @definition.struct
; typedefs and function-like macros, as in C:
; @include ../c/typedefs.scm
(alias_declaration name: (type_identifier) @name) @definition.type


; `@arity`: the argument list, whose entries pick among overloads.
(call_expression function: (identifier) @name arguments: (argument_list) @arity) @reference.call
(call_expression function: (template_function name: (identifier) @name) arguments: (argument_list) @arity) @reference.call
(call_expression
  function: (field_expression argument: (_) @receiver field: (field_identifier) @name) arguments: (argument_list) @arity) @reference.call
(call_expression
  function: (field_expression argument: (_) @receiver field: (template_method name: (field_identifier) @name)) arguments: (argument_list) @arity) @reference.call
; `ns::f()`, `Class::m()`, `a::B::m()`: the qualified callee is the receiver (the extractor keeps
; the part before the name, read with dots).
(call_expression
  function: (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)]) @receiver arguments: (argument_list) @arity) @reference.call
(call_expression
  function: (qualified_identifier name: (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)])) @receiver arguments: (argument_list) @arity) @reference.call
(call_expression
  function: (qualified_identifier name: (qualified_identifier name: (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)]))) @receiver arguments: (argument_list) @arity) @reference.call

; What names hold, for receiver typing: parameters, locals (`Foo x;`, `Foo* p = …;`, `auto`-less
; declarations), fields (`Foo* rep_;`).
(parameter_declaration type: (_) @type
  declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name)
               (reference_declarator (identifier) @name)]) @local.param
(declaration type: (_) @type
  declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name)
               (reference_declarator (identifier) @name)
               (init_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (reference_declarator (identifier) @name)])]) @local.assign
(field_declaration type: (_) @type
  declarator: [(field_identifier) @name (pointer_declarator declarator: (field_identifier) @name)
               (reference_declarator (field_identifier) @name)]) @local.field

; #include <vector> keeps its angle brackets; #include "x.hpp" is "x.hpp"; C++20 `import a.b;`.
(preproc_include
  path: (system_lib_string) @import.module
  (#set! kind "star")) @import
(preproc_include
  path: (string_literal (string_content) @import.module)
  (#set! kind "star")) @import
(import_declaration
  name: (module_name) @import.module
  (#set! kind "module")) @import

; `using namespace a::b;`: the namespace's names are in scope (a star import of the namespace).
(using_declaration "namespace" [(identifier) (qualified_identifier)] @import.module (#set! kind "star")) @import

; Return types, for receiver typing (`XMLElement* FirstChildElement()`: an XMLElement).
(function_definition type: (_) @returns) @definition.function
(field_declaration type: (_) @returns
  declarator: [(function_declarator) (pointer_declarator declarator: (function_declarator))
               (reference_declarator (function_declarator))]) @definition.method
; `using a::B;`: B's namespace is searched for names (a star import of `a`, a little wider than B alone).
(using_declaration (qualified_identifier scope: (namespace_identifier) @import.module name: (identifier)) (#set! kind "star")) @import
