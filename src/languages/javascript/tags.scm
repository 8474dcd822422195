; JavaScript and JSX: definitions, calls, imports (ESM and CommonJS) and local bindings.

(function_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function
(generator_function_declaration
  name: (identifier) @name
  body: (_) @body) @definition.function

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class
(class_declaration (class_heritage (_) @base)) @definition.class

(class_body (method_definition
  "get"
  name: (_) @name
  body: (_) @body) @definition.getter)
(class_body (method_definition
  "set"
  name: (_) @name
  body: (_) @body) @definition.setter)
(class_body (method_definition
  name: (_) @name
  body: (_) @body) @definition.method)

(field_definition
  property: (_) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @definition.method

(variable_declarator
  name: (identifier) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)
          (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body)])]) @definition.function

; @include ../javascript/assigned-functions.inc

; JavaScript-only local names: plain parameters (the calls, imports and other bindings are in modules.scm).
(formal_parameters (identifier) @name) @local.param
