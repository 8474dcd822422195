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

; Function expressions assigned to a property at the top of a module (`obj.h = function …`,
; `Foo.prototype.m = async () => …`, `module.exports.k = …`, `exports.k = …`): named by the
; property, so the calls inside belong to them and not to module code. Inside a function the
; enclosing definition already owns them, and a checker counts no definition there.
(program (expression_statement (assignment_expression
  left: (member_expression object: (identifier) @qualifier property: (property_identifier) @name)
  right: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])
  @definition.function)
  (#not-any-of? @qualifier "exports" "module"))
(program (expression_statement (assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @qualifier property: (property_identifier) @_proto)
    property: (property_identifier) @name)
  right: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])
  @definition.function)
  (#eq? @_proto "prototype"))
(program (expression_statement (assignment_expression
  left: (member_expression
    object: [(identifier) @_exports
             (member_expression object: (identifier) @_module property: (property_identifier) @_exports)]
    property: (property_identifier) @name)
  right: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])
  @definition.function)
  (#eq? @_exports "exports"))

; JavaScript-only local names: plain parameters (the calls, imports and other bindings are in modules.scm).
(formal_parameters (identifier) @name) @local.param
