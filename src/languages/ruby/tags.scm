; Ruby: definitions and requires. A `def` at the top of the file is a function; every other `def`
; (in a class, module, `class << self`, or a block) is a method; `def self.x` is a method `x`.

(program (method name: (_) @name body: (_) @body) @definition.function)
(program (method name: (_) @name) @definition.function)

(method name: (_) @name body: (_) @body) @definition.method
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name body: (_) @body) @definition.method
(singleton_method name: (_) @name) @definition.method

(class
  name: [(constant) (scope_resolution)] @name
  body: (body_statement) @body) @definition.class
(class
  name: [(constant) (scope_resolution)] @name) @definition.class
(class superclass: (superclass (_) @base)) @definition.class

(module
  name: [(constant) (scope_resolution)] @name
  body: (body_statement) @body) @definition.module
(module
  name: [(constant) (scope_resolution)] @name) @definition.module

(call !receiver method: (identifier) @name) @reference.call
(call receiver: (_) @receiver method: (identifier) @name) @reference.call

; require "x" / require_relative "x" / load "x", with a plain string literal.
(call
  !receiver
  method: (identifier) @_fn
  arguments: (argument_list . (string . (string_content) @import.module .))
  (#match? @_fn "^(require|require_relative|load)$")
  (#set! kind "require")) @import
