/**
 * TypeScript's and JavaScript's data-flow rules: the tree's node types, and the web frameworks' user input and sinks
 * (Express, Hono, Koa; SQL clients, child_process, fs).
 */
import type { DataflowRules } from "../types.ts";

const DB =
  "(db|sql|pool|client|conn|connection|knex|prisma|tx|trx|database|sequelize|pg|mysql|query|stmt|statement|env\\.DB)";

/** The DataflowRules TypeScript, TSX and JavaScript share. */
export const ecmascriptDataflow: DataflowRules = {
  functions: [
    "function_declaration",
    "function_expression",
    "arrow_function",
    "method_definition",
    "generator_function_declaration",
    "function",
  ],
  blocks: ["statement_block"],
  identifiers: ["identifier", "shorthand_property_identifier"],
  assignments: [
    { type: "variable_declarator", target: "name", value: "value" },
    { type: "assignment_expression", target: "left", value: "right" },
    { type: "augmented_assignment_expression", target: "left", value: "right", augmented: true },
    { type: "for_in_statement", target: "left", value: "right", loop: true },
  ],
  call: { type: "call_expression", function: "function", arguments: "arguments" },
  member: { type: "member_expression", object: "object", property: "property" },
  returns: ["return_statement"],
  notUses: [
    ["function_declaration", "name"],
    ["method_definition", "name"],
  ],
  parameterFields: { required_parameter: "pattern", optional_parameter: "pattern" },
  sources: [
    { pattern: /^(req|request)\.(body|query|params|cookies|headers|files?|get|param|header)$/, label: "request data" },
    {
      pattern: /^\w+\.req\.(json|param|query|queries|valid|formData|text|parseBody|header|arrayBuffer|blob)$/,
      label: "request data",
    },
    { pattern: /^(ctx|context)\.(request\.(body|query|files?)|params|query)$/, label: "request data" },
    { pattern: /^(request|req)\.(json|formData|text)$/, label: "request data" },
  ],
  sinks: [
    {
      pattern: new RegExp(
        `(^|\\.)${DB}(\\.\\w+)*\\.` +
          "(query|execute|raw|prepare|exec|run|all|" +
          "\\$queryRaw|\\$executeRaw|\\$queryRawUnsafe|\\$executeRawUnsafe|unsafe)$",
      ),
      kind: "sql",
    },
    { pattern: /^(sql|\w+\.sql|\w+\.raw|\w+\.unsafe)$/, kind: "sql" },
    // A prepared statement's bound values go to the database with it (`stmt.bind(x).run()`).
    { pattern: /^(stmt|statement|\w+Stmt|\w+Statement)\.bind$/, kind: "sql" },
    {
      pattern: /^(child_process\.|cp\.)?(exec|execSync|execFile|execFileSync|spawn|spawnSync|fork)$|^eval$/,
      kind: "exec",
    },
    {
      pattern: new RegExp(
        String.raw`^(fs\.|fsp\.|fs\.promises\.|promises\.)?(writeFile|writeFileSync|appendFile|` +
          String.raw`appendFileSync|createWriteStream)$`,
      ),
      kind: "file",
    },
    { pattern: /^(res|reply|response)\.(send|write|end|render)$|^\w+\.html$/, kind: "html" },
  ],
};
