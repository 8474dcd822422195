/**
 * Python's data-flow rules: the tree's node types, and the web frameworks' user input and sinks (Flask, Django,
 * FastAPI, sqlite3/DB-API, SQLAlchemy, subprocess).
 */
import type { DataflowRules } from "../types.ts";

/**
 * Parameters a framework fills with a service rather than request data: dependencies, sessions, the request object
 * itself.
 */
const NOT_INPUT = new RegExp(
  String.raw`^(self|cls|request|req|response|background_tasks)\b|Depends\(|Dep\b|\bSession\b|\bRequest\b|` +
    String.raw`\bResponse\b|BackgroundTasks|CurrentUser`,
);

/** Python's DataflowRules. */
export const pythonDataflow: DataflowRules = {
  functions: ["function_definition", "lambda"],
  blocks: ["block"],
  identifiers: ["identifier"],
  assignments: [
    { type: "assignment", target: "left", value: "right" },
    { type: "augmented_assignment", target: "left", value: "right", augmented: true },
    { type: "named_expression", target: "name", value: "value" },
    { type: "for_statement", target: "left", value: "right", loop: true },
    { type: "for_in_clause", target: "left", value: "right", loop: true },
    { type: "as_pattern", target: "alias", value: "" },
  ],
  call: { type: "call", function: "function", arguments: "arguments" },
  member: { type: "attribute", object: "object", property: "attribute" },
  returns: ["return_statement"],
  notUses: [
    ["attribute", "attribute"],
    ["keyword_argument", "name"],
    ["function_definition", "name"],
  ],
  parameterFields: { default_parameter: "name", typed_default_parameter: "name" },
  sources: [
    {
      pattern: new RegExp(
        String.raw`^request\.(json|get_json|form|args|values|data|files|cookies|headers|get_data|GET|POST|` +
          String.raw`body|FILES|COOKIES|META|query_params|path_params|stream)$`,
      ),
      label: "request data",
    },
  ],
  sinks: [
    { pattern: /(^|\.)(execute|executemany|executescript|raw|extra|mogrify)$/, kind: "sql" },
    {
      pattern:
        /(^|\.)(session|db|conn|connection|cursor|cur)\.(exec|get|query|scalars|scalar|add|add_all|delete|merge)$/,
      kind: "sql",
    },
    { pattern: /^(sqlalchemy\.)?text$/, kind: "sql" },
    {
      pattern: new RegExp(
        String.raw`^(subprocess\.(run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|` +
          String.raw`os\.(system|popen|exec\w*|spawn\w*)|eval|exec)$`,
      ),
      kind: "exec",
    },
    {
      pattern: /^(open|io\.open|os\.open|shutil\.copy\w*)$|\.(write|writelines|write_text|write_bytes|save)$/,
      kind: "file",
    },
    {
      pattern: new RegExp(
        String.raw`^(\w+\.)?(render_template_string|render_template|Markup|make_response|HTMLResponse|` +
          String.raw`HttpResponse|mark_safe|render)$`,
      ),
      kind: "html",
    },
  ],
  routeParameter: (text) => !NOT_INPUT.test(text),
};
