; Python: definitions, calls, type references, imports and local bindings.

(class_definition
  name: (identifier) @name
  body: (block) @body) @definition.class

(class_definition
  superclasses: (argument_list [(identifier) (attribute) (subscript)] @base)) @definition.class

(function_definition
  name: (identifier) @name
  body: (block) @body) @definition.function

(function_definition
  return_type: (type) @returns) @definition.function

; Calls: f(), obj.f(), and the receiver expression.
(call
  function: (identifier) @name
  arguments: (_) @args) @reference.call

(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @name)
  arguments: (_) @args) @reference.call

; Protocol calls: what a statement or an operator calls on its operand, linked only where the
; operand's type is known (`with x` → x.__enter__ / __exit__; `async with` → __aenter__ / __aexit__).
(with_statement (with_clause (with_item value: (as_pattern . (_) @receiver)))
  (#set! protocol "__enter__ __exit__") (#set! async "__aenter__ __aexit__")) @reference.call
(with_statement (with_clause (with_item value: [(call) (identifier) (attribute) (subscript)] @receiver))
  (#set! protocol "__enter__ __exit__") (#set! async "__aenter__ __aexit__")) @reference.call
(for_statement right: (_) @receiver
  (#set! protocol "__iter__ __next__") (#set! async "__aiter__ __anext__")) @reference.call
(await (_) @receiver (#set! protocol "__await__")) @reference.call
; An operator calls the method at its place in `protocol` of the operator at that place in `operators` (one pattern per
; node type: a pattern per operator started 13 match states at every binary operator, where one could match).
(binary_operator left: (_) @receiver operator: _ @operator
  (#set! operators "+ - * / // % @ ** << >> & | ^")
  (#set! protocol "__add__ __sub__ __mul__ __truediv__ __floordiv__ __mod__ __matmul__ __pow__ __lshift__ __rshift__ __and__ __or__ __xor__")) @reference.call
(comparison_operator . (_) @receiver . operators: ["==" "!=" "<" "<=" ">" ">="] @operator
  (#set! operators "== != < <= > >=")
  (#set! protocol "__eq__ __ne__ __lt__ __le__ __gt__ __ge__")) @reference.call

; Types named in annotations, including inside generics and unions.
(type (identifier) @name) @reference.type
(type (attribute attribute: (identifier) @name)) @reference.type
(type (generic_type (identifier) @name)) @reference.type
(type (generic_type (type_parameter (type (identifier) @name)))) @reference.type
(type (binary_operator left: (identifier) @name)) @reference.type
(type (binary_operator right: (identifier) @name)) @reference.type

; import a.b  /  import a.b as c
(import_statement
  name: (dotted_name) @import.module
  (#set! kind "module")) @import
(import_statement
  name: (aliased_import
    name: (dotted_name) @import.module
    alias: (identifier) @import.alias)
  (#set! kind "module")) @import

; from m import n  /  from m import n as a  /  from m import *
(import_from_statement
  module_name: (_) @import.module
  name: (dotted_name) @import.name) @import
(import_from_statement
  module_name: (_) @import.module
  name: (aliased_import
    name: (dotted_name) @import.name
    alias: (identifier) @import.alias)) @import
(import_from_statement
  module_name: (_) @import.module
  (wildcard_import)
  (#set! kind "star")) @import

; What local names hold: x = Foo(...), x: Foo = ..., params with annotations, self.x = Foo().
; `p = functools.partial(f, …)` calls f; `x = weakref.proxy(obj)` is obj: aliases, not what the call returns.
; `r = weakref.ref(obj)` and `self.r = weakref.ref(obj)`: `r()` is obj. `x = typing.cast(T, v)` is a T.
; One pattern per left-hand shape reads every call on the right, and the extractor unwraps the callees the
; `unwrap.*` properties name (their first argument, when it is one of the node types listed before the pattern,
; is the alias or the type, and the binding keeps no value): a pattern per callee with `#match?` had
; tree-sitter match every such assignment three times over and web-tree-sitter hand each match to JS to be
; dropped (~0.15 of Python's query on django).
(assignment
  left: (identifier) @name
  right: (call function: [(identifier) (attribute)] @value)
  (#set! unwrap.alias "identifier attribute ^(functools\\.)?partial$|^(weakref\\.)?proxy$")
  (#set! unwrap.deref "identifier attribute ^(weakref\\.)?ref$")
  (#set! unwrap.type "identifier attribute string subscript ^((typing|t)\\.)?cast$")
  (#set! unwrap.arguments "argument_list")) @local.assign
(assignment
  left: (identifier) @name
  type: (type) @type) @local.assign
(assignment
  left: (identifier) @name
  right: [(identifier) (attribute)] @alias) @local.assign
(assignment
  left: (identifier) @name
  right: (conditional_expression (call function: [(identifier) (attribute)] @value))) @local.assign
; `if not isinstance(x, T): raise …` (or `return`) and `assert isinstance(x, T)`: x is a T from the guard on (what a
; checker narrows it to; requests' `merge_cookies(cookiejar, …)` calls the standard CookieJar's `set_cookie`).
(if_statement
  condition: (not_operator
    argument: (call
      function: (identifier) @_isinstance
      arguments: (argument_list . (identifier) @name . [(identifier) (attribute)] @type .)))
  consequence: (block . [(raise_statement) (return_statement)])
  (#eq? @_isinstance "isinstance")) @local.assign
(assert_statement
  (call
    function: (identifier) @_isinstance
    arguments: (argument_list . (identifier) @name . [(identifier) (attribute)] @type .))
  (#eq? @_isinstance "isinstance")) @local.assign
; x = "text", x: str = f"{A}/b", x = A + "/b": the string a name holds (route prefixes, constants).
(assignment
  left: (identifier) @name
  right: [(string) (concatenated_string) (binary_operator)] @literal) @local.assign
(typed_parameter (identifier) @name type: (type) @type) @local.param
(typed_default_parameter name: (identifier) @name type: (type) @type) @local.param
(assignment
  left: (attribute object: (identifier) @receiver attribute: (identifier) @name)
  right: (call function: [(identifier) (attribute)] @value)
  (#set! unwrap.deref "identifier attribute ^(weakref\\.)?ref$")
  (#set! unwrap.arguments "argument_list")) @local.field
(assignment
  left: (attribute object: (identifier) @receiver attribute: (identifier) @name)
  type: (type) @type) @local.field
(assignment
  left: (attribute object: (identifier) @receiver attribute: (identifier) @name)
  right: [(identifier) (attribute)] @alias) @local.field
(assignment
  left: (attribute object: (identifier) @receiver attribute: (identifier) @name)
  right: (conditional_expression (call function: [(identifier) (attribute)] @value))) @local.field

; Every other local name (parameters, plain assignments, loop and with targets): these shadow
; module-level names, so a call through them is not a call to a same-named definition.
(parameters (identifier) @name) @local.param
(default_parameter name: (identifier) @name) @local.param
(list_splat_pattern (identifier) @name) @local.param
(dictionary_splat_pattern (identifier) @name) @local.param
(assignment left: (identifier) @name) @local.assign
(assignment left: (pattern_list (identifier) @name)) @local.assign
(for_statement left: (identifier) @name right: (_) @iter) @local.assign
(for_statement left: (pattern_list (identifier) @name)) @local.assign
(as_pattern alias: (as_pattern_target (identifier) @name)) @local.assign
; with Foo() as x: / with open_thing() as x: — x holds what the call returns (its __enter__ is assumed to return self)
(as_pattern
  (call function: [(identifier) (attribute)] @value)
  alias: (as_pattern_target (identifier) @name)) @local.assign
; What a function returns or yields, named by the keyword: kept for pytest fixtures only (see
; LanguageSemantics.injected), where it types the test parameters that name the fixture.
; `return partial(Cls, …)` is Cls to call; `return Cls(…)` an instance; `return app` what app holds.
(return_statement
  "return" @name
  (call function: [(identifier) (attribute)] @value)
  (#set! unwrap.alias "identifier attribute ^(functools\\.)?partial$")
  (#set! unwrap.arguments "argument_list")) @local.return
(return_statement "return" @name [(identifier) (attribute)] @alias) @local.return
(expression_statement (yield "yield" @name (call function: [(identifier) (attribute)] @value))) @local.return
(expression_statement (yield "yield" @name [(identifier) (attribute)] @alias)) @local.return
(global_statement (identifier) @name) @local.global
(nonlocal_statement (identifier) @name) @local.global
