/**
 * The `tools/list` answer, built here rather than by the SDK so that it carries only what a model
 * reads: name, title, description, the input schema and the two hints that matter. Every session
 * pays for this list before its first question; measured on 11 tools, the SDK's list was 18,395
 * tokens (o200k), 13,588 of them output schemas, which no client shows a model and which only let
 * a client validate what it already receives. So output schemas stay in code (each tool's
 * `output`, checked by the tests against every answer) and are not sent; without one, the
 * structured content is plain data the spec does not ask clients to validate.
 */
import { z } from "zod";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolSpec } from "./tool.ts";

/**
 * What every tool is unless it says otherwise (rename writes). readOnlyHint makes destructiveHint and idempotentHint
 * meaningless (the spec
 * reads them only for tools that write), and the title is the tool's own.
 */
const ANNOTATIONS = { readOnlyHint: true, openWorldHint: false } as const;

/** One tool's entry in `tools/list`. */
export function listedTool(tool: ToolSpec): Tool {
  const inputSchema = compact(z.toJSONSchema(tool.input, { target: "draft-7", io: "input" })) as Tool["inputSchema"];
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema,
    annotations: tool.annotations ?? ANNOTATIONS,
  };
}

/** Text arguments this long or longer keep their bound in the list: they say how much a task may hold. */
const LONG_TEXT = 10_000;

/**
 * A JSON Schema without what tells a model nothing: the `$schema` URI, the safe-integer bounds zod
 * writes for every `z.int()`, string lengths short of LONG_TEXT (a symbol name's 1..1,000 characters) and
 * `additionalProperties: false`. The server still checks all of them against the full schema, and
 * answers an out-of-bounds or unknown argument with an error that names it; leaving them out of
 * the list saved 226 of its 3,175 tokens (o200k, 14 tools), which every session pays.
 */
function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key === "minLength" || (key === "additionalProperties" && value === false)) continue;
    // A text argument's bound tells a model how much it may pass (a whole bug report); a name's does not.
    if (key === "maxLength" && typeof value === "number" && value < LONG_TEXT) continue;
    if (
      (key === "maximum" && value === Number.MAX_SAFE_INTEGER) ||
      (key === "minimum" && value === Number.MIN_SAFE_INTEGER)
    )
      continue;
    out[key] = compact(value);
  }
  return out;
}
