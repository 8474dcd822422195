/**
 * What queries cannot say for TypeScript/JavaScript: where an untyped callback parameter sits, so
 * the graph can type it from the callee's declared parameter (`new Observable((subscriber) => …)`
 * gives `subscriber` the type of the constructor's callback parameter).
 */
import type { Node } from "web-tree-sitter";
import type { CallbackSite } from "../types.ts";

/** Node types a callback's function may be wrapped in, between it and the call's arguments. */
const ARGUMENT_WRAPPERS = new Set(["parenthesized_expression", "as_expression"]);

/**
 * The call a parameter's function is an argument of, and the argument and parameter positions.
 * Each `parent` is a call into the wasm instance that descends from the root (its cost grows with
 * the file), and each `type` one more: each is read once, and the positions (a list of children
 * each) only once the parameter is known to sit in a call's callback. Most parameters belong to
 * declared functions and methods and stop at the function's type (6 % of a cold index of effect went
 * here before).
 */
export function callbackSite(name: Node): CallbackSite | undefined {
  const param: Node | null = name.parent;
  const paramType = param?.type;
  let fn: Node | null;
  let list: Node | null = null;
  let item: Node = name;
  if (paramType === "arrow_function") {
    fn = param; // `x => …`: the single parameter
  } else {
    if (paramType !== "required_parameter" && paramType !== "optional_parameter" && paramType !== "formal_parameters")
      return undefined;
    list = paramType === "formal_parameters" ? param : param!.parent;
    if (list?.type !== "formal_parameters") return undefined;
    if (paramType !== "formal_parameters") item = param!;
    fn = list.parent;
  }
  const fnType = fn?.type;
  if (!fn || (fnType !== "arrow_function" && fnType !== "function_expression" && fnType !== "function"))
    return undefined;
  let arg: Node = fn;
  let args = fn.parent;
  for (let type = args?.type; args && type !== undefined && ARGUMENT_WRAPPERS.has(type); type = args?.type) {
    arg = args;
    args = args.parent;
  }
  if (args?.type !== "arguments") return undefined;
  const call = args.parent;
  const callType = call?.type;
  if (!call || (callType !== "call_expression" && callType !== "new_expression")) return undefined;
  const callee = call.childForFieldName(callType === "new_expression" ? "constructor" : "function");
  if (!callee || !/^(identifier|member_expression)$/.test(callee.type)) return undefined;
  const paramIndex = list ? positionOf(list, item) : 0;
  const argIndex = positionOf(args, arg);
  if (argIndex < 0 || paramIndex < 0) return undefined;
  return { callee: callee.text, arg: argIndex, param: paramIndex, isNew: callType === "new_expression" };
}

/** The place of `item` among `list`'s named children, comments left out (-1: not there). */
function positionOf(list: Node, item: Node): number {
  return list.namedChildren.filter((c) => c && c.type !== "comment").findIndex((c) => c!.id === item.id);
}
