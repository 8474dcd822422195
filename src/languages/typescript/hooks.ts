/**
 * What queries cannot say for TypeScript/JavaScript: where an untyped callback parameter sits, so
 * the graph can type it from the callee's declared parameter (`new Observable((subscriber) => …)`
 * gives `subscriber` the type of the constructor's callback parameter).
 */
import type { Node } from "web-tree-sitter";
import type { CallbackSite } from "../types.ts";

/** The call a parameter's function is an argument of, and the argument and parameter positions. */
export function callbackSite(name: Node): CallbackSite | undefined {
  const param: Node | null = name.parent;
  let fn: Node | null;
  let paramIndex = 0;
  if (param?.type === "arrow_function") {
    fn = param; // `x => …`: the single parameter
  } else {
    if (
      param?.type !== "required_parameter" &&
      param?.type !== "optional_parameter" &&
      param?.type !== "formal_parameters"
    )
      return undefined;
    const list = param.type === "formal_parameters" ? param : param.parent;
    if (list?.type !== "formal_parameters") return undefined;
    const item = param.type === "formal_parameters" ? name : param;
    paramIndex = list.namedChildren.filter((c) => c && c.type !== "comment").findIndex((c) => c!.id === item.id);
    fn = list.parent;
  }
  if (!fn || (fn.type !== "arrow_function" && fn.type !== "function_expression" && fn.type !== "function"))
    return undefined;
  let arg: Node = fn;
  while (arg.parent && (arg.parent.type === "parenthesized_expression" || arg.parent.type === "as_expression"))
    arg = arg.parent;
  const args = arg.parent;
  if (args?.type !== "arguments") return undefined;
  const call = args.parent;
  if (!call || (call.type !== "call_expression" && call.type !== "new_expression")) return undefined;
  const callee = call.childForFieldName(call.type === "new_expression" ? "constructor" : "function");
  if (!callee || !/^(identifier|member_expression)$/.test(callee.type)) return undefined;
  const argIndex = args.namedChildren.filter((c) => c && c.type !== "comment").findIndex((c) => c!.id === arg.id);
  if (argIndex < 0 || paramIndex < 0) return undefined;
  return { callee: callee.text, arg: argIndex, param: paramIndex, isNew: call.type === "new_expression" };
}
