; Ruby: definitions, calls, locals and requires. A `def` at the top of the file is a function; every
; other `def` (in a class, module, `class << self`, or a block) is a method; `def self.x` is a method
; `x`. `class A::B` is named B, qualified by A (@qualifier), as if nested.

(program (method name: (_) @name body: (_) @body) @definition.function)
(program (method name: (_) @name) @definition.function)

(method name: (_) @name body: (_) @body) @definition.method
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name body: (_) @body) @definition.method
(singleton_method name: (_) @name) @definition.method
; `def self.x` and a `def` in `class << self` are methods of the class itself (static), not of its instances.
((singleton_method) @definition.method (#set! static "true"))
(singleton_class body: (body_statement (method) @definition.method (#set! static "true")))

(class name: (constant) @name body: (body_statement) @body) @definition.class
(class name: (constant) @name) @definition.class
(class
  name: (scope_resolution scope: (_) @qualifier name: (constant) @name)
  body: (body_statement) @body) @definition.class
(class name: (scope_resolution scope: (_) @qualifier name: (constant) @name)) @definition.class
(class superclass: (superclass [(constant) (scope_resolution)] @base)) @definition.class

(module name: (constant) @name body: (body_statement) @body) @definition.module
(module name: (constant) @name) @definition.module
(module
  name: (scope_resolution scope: (_) @qualifier name: (constant) @name)
  body: (body_statement) @body) @definition.module
(module name: (scope_resolution scope: (_) @qualifier name: (constant) @name)) @definition.module

; What a method returns, where its last expression constructs it: `K.new(…)`, or a memoized
; `@x ||= K.new(…)` / `@x = K.new(…)` (`def application; @application ||= Application.new; end`).
([(method body: (body_statement
    (call receiver: [(constant) (scope_resolution)] @returns method: (identifier) @_new) .))
  (singleton_method body: (body_statement
    (call receiver: [(constant) (scope_resolution)] @returns method: (identifier) @_new) .))]
  (#eq? @_new "new")) @definition.method
([(method body: (body_statement
    [(operator_assignment left: (instance_variable)
       right: (call receiver: [(constant) (scope_resolution)] @returns method: (identifier) @_new))
     (assignment left: (instance_variable)
       right: (call receiver: [(constant) (scope_resolution)] @returns method: (identifier) @_new))] .))
  (singleton_method body: (body_statement
    [(operator_assignment left: (instance_variable)
       right: (call receiver: [(constant) (scope_resolution)] @returns method: (identifier) @_new))
     (assignment left: (instance_variable)
       right: (call receiver: [(constant) (scope_resolution)] @returns method: (identifier) @_new))] .))]
  (#eq? @_new "new")) @definition.method

; A class method whose last expression is a bare `new(…)` (`def self.[](*args) new(*args) end`) returns an instance of
; its class.
([(method body: (body_statement (call !receiver method: (identifier) @returns) .))
  (singleton_method body: (body_statement (call !receiver method: (identifier) @returns) .))]
  (#eq? @returns "new")) @definition.method

; Mixins: `include M`, `prepend M`, `extend M` directly in a class or module body are bases.
(class
  body: (body_statement
    (call !receiver method: (identifier) @_mix
      arguments: (argument_list [(constant) (scope_resolution)] @base.implements)))
  (#match? @_mix "^(include|prepend|extend)$")) @definition.class
(module
  body: (body_statement
    (call !receiver method: (identifier) @_mix
      arguments: (argument_list [(constant) (scope_resolution)] @base.implements)))
  (#match? @_mix "^(include|prepend|extend)$")) @definition.module

; The `included` hook's `base.extend ClassMethods` (a common idiom): a class including the module
; gets ClassMethods' methods, so the module has it as a base.
(module
  body: (body_statement
    (singleton_method
      name: (identifier) @_hook
      body: (body_statement
        (call receiver: (identifier) method: (identifier) @_ext
          arguments: (argument_list [(constant) (scope_resolution)] @base.implements)))))
  (#eq? @_hook "included")
  (#eq? @_ext "extend")) @definition.module
(module
  body: (body_statement
    (singleton_class
      body: (body_statement
        (method
          name: (identifier) @_hook
          body: (body_statement
            (call receiver: (identifier) method: (identifier) @_ext
              arguments: (argument_list [(constant) (scope_resolution)] @base.implements)))))))
  (#eq? @_hook "included")
  (#eq? @_ext "extend")) @definition.module
; ... and `base.send :include, M` there: the includer gets M too.
(module
  body: (body_statement
    (singleton_class
      body: (body_statement
        (method
          name: (identifier) @_hook
          body: (body_statement
            (call receiver: (identifier) method: (identifier) @_send
              arguments: (argument_list (simple_symbol) @_sym [(constant) (scope_resolution)] @base.implements)))))))
  (#eq? @_hook "included")
  (#eq? @_send "send")
  (#match? @_sym "^:(include|extend|prepend)$")) @definition.module

; `define_method(:name) { … }` and `define_method(:name, …)` in a class or module body define a method `name`.
(call !receiver method: (identifier) @_dm arguments: (argument_list . (simple_symbol) @name) block: (_) @body
  (#eq? @_dm "define_method")) @definition.method
(call !receiver method: (identifier) @_dm arguments: (argument_list . (simple_symbol) @name)
  (#eq? @_dm "define_method")) @definition.method

; A setter call: `x.name = v` calls `name=` on x.
(assignment left: (call receiver: (_) @receiver method: (identifier) @name) (#set! suffix "=")) @reference.call
(operator_assignment left: (call receiver: (_) @receiver method: (identifier) @name) (#set! suffix "=")) @reference.call

; Calls: `x.m(…)`, `x.m`, `m(…)`, `m arg`; `K.new(…)` constructs K.
(call receiver: (_) @receiver method: (identifier) @name (#not-eq? @name "new")) @reference.call
(call receiver: [(self) (call receiver: (self) method: (identifier) @_c (#eq? @_c "class"))] @receiver method: (identifier) @name (#eq? @name "new")) @reference.call
(call !receiver method: (identifier) @name) @reference.call
(call receiver: (constant) @name method: (identifier) @_new (#eq? @_new "new")) @reference.new
(call
  receiver: (scope_resolution scope: (_) @receiver name: (constant) @name)
  method: (identifier) @_new
  (#eq? @_new "new")) @reference.new
; `super` and `super(…)`: the method of the same name in the bases.
(super) @name @reference.call

; A bare name used as a value is a call without arguments unless it is a local variable (the
; local captures below say which names are).
(body_statement (identifier) @name @reference.call)
(block_body (identifier) @name @reference.call)
(then (identifier) @name @reference.call)
(else (identifier) @name @reference.call)
(begin (identifier) @name @reference.call)
(parenthesized_statements (identifier) @name @reference.call)
(argument_list (identifier) @name @reference.call)
(array (identifier) @name @reference.call)
(call receiver: (identifier) @name @reference.call)
(element_reference object: (identifier) @name @reference.call)
(binary left: (identifier) @name @reference.call)
(binary right: (identifier) @name @reference.call)
(unary operand: (identifier) @name @reference.call)
(assignment right: (identifier) @name @reference.call)
(operator_assignment right: (identifier) @name @reference.call)
(pair value: (identifier) @name @reference.call)
(interpolation (identifier) @name @reference.call)
(conditional condition: (identifier) @name @reference.call)
(conditional consequence: (identifier) @name @reference.call)
(conditional alternative: (identifier) @name @reference.call)
(if condition: (identifier) @name @reference.call)
(unless condition: (identifier) @name @reference.call)
(while condition: (identifier) @name @reference.call)
(until condition: (identifier) @name @reference.call)
(if_modifier condition: (identifier) @name @reference.call)
(unless_modifier condition: (identifier) @name @reference.call)
(if_modifier body: (identifier) @name @reference.call)
(unless_modifier body: (identifier) @name @reference.call)
(case value: (identifier) @name @reference.call)

; Locals: assignments and parameters (of methods, blocks and lambdas) are variables, not calls;
; `x = K.new(…)` holds a K.
(assignment
  left: (identifier) @name
  right: (call receiver: [(constant) (scope_resolution)] @value method: (identifier) @_new (#eq? @_new "new"))) @local.assign
; `x = K[…]` / `@x = K[…]`: what K's `[]` returns (`FileList["*.rb"]`, whose `def self.[](*a) new(*a) end`
; builds one).
(assignment
  left: (identifier) @name
  right: (element_reference object: [(constant) (scope_resolution)] @value)
  (#set! valueSuffix ".[]")) @local.assign
; `x = expr` / `@x = expr` for a call or a method chain without a block (`@app = Rake.application`,
; `@one = @empty.append(a)`): what the expression evaluates to.
(assignment left: (identifier) @name right: (call !block) @alias) @local.assign
(assignment left: (identifier) @name) @local.assign
; `FileList = Rake::FileList`: a constant naming a class or module.
(assignment left: (constant) @name right: [(constant) (scope_resolution)] @alias) @local.assign
; `@x = K.new(…)` in any method of a class: its instances' field @x holds a K.
(assignment
  left: (instance_variable) @name
  right: (call receiver: [(constant) (scope_resolution)] @value method: (identifier) @_new (#eq? @_new "new"))) @local.field
(operator_assignment
  left: (instance_variable) @name
  right: (call receiver: [(constant) (scope_resolution)] @value method: (identifier) @_new (#eq? @_new "new"))) @local.field
(assignment
  left: (instance_variable) @name
  right: (element_reference object: [(constant) (scope_resolution)] @value)
  (#set! valueSuffix ".[]")) @local.field
(assignment left: (instance_variable) @name right: (call !block) @alias) @local.field
(operator_assignment left: (instance_variable) @name right: (call !block) @alias) @local.field
(operator_assignment left: (identifier) @name) @local.assign
(left_assignment_list (identifier) @name) @local.assign
(destructured_left_assignment (identifier) @name) @local.assign
(rest_assignment (identifier) @name) @local.assign
(for pattern: (identifier) @name) @local.assign
(exception_variable (identifier) @name) @local.assign
(method_parameters (identifier) @name) @local.param
(lambda_parameters (identifier) @name) @local.param
(block_parameters (identifier) @name) @local.param
(destructured_parameter (identifier) @name) @local.param
(optional_parameter name: (identifier) @name) @local.param
(splat_parameter name: (identifier) @name) @local.param
(hash_splat_parameter name: (identifier) @name) @local.param
(block_parameter name: (identifier) @name) @local.param
(keyword_parameter name: (identifier) @name) @local.param

; Blocks that rebind `self`: in `x.instance_eval { … }` (`instance_exec`, `class_eval`, `class_exec`, `module_eval`)
; `self` is x; in `Class.new(K) do … end` it is a new subclass of K, whose class methods are K's.
(call
  receiver: (_) @alias
  method: (identifier) @name
  block: [(block) (do_block)] @extent
  (#match? @name "^(instance_eval|instance_exec|class_eval|class_exec|module_eval)$")
  (#set! as "self")) @local.assign
(call
  receiver: (constant) @_class
  method: (identifier) @name
  arguments: (argument_list . [(constant) (scope_resolution)] @alias)
  block: [(block) (do_block)] @extent
  (#eq? @_class "Class")
  (#eq? @name "new")
  (#set! as "self")) @local.assign

; require "x" / require_relative "x" / load "x", with a plain string literal.
(call
  !receiver
  method: (identifier) @_fn
  arguments: (argument_list . (string . (string_content) @import.module .))
  (#match? @_fn "^(require|require_relative|load)$")
  (#set! kind "require")) @import
