; C typedefs and function-like macros; C++ includes this file.
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

(preproc_function_def name: (identifier) @name) @definition.macro
