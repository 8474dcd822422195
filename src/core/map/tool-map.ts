/**
 * The tool map: the project's MCP tools (`server.tool("x", …)`, `registerTool`, `@mcp.tool()`,
 * `defineTool({ name })`), JSON-RPC methods (`addMethod("x", …)`, `@jsonrpc.method("x")`,
 * `@method`), gRPC service methods (a Python `…Servicer` subclass's methods, Node's
 * `server.addService(svc, { method: impl })`) and CLI commands (click/typer `@x.command()`,
 * argparse `add_parser("x")` with `set_defaults(func=…)`, commander/yargs `.command("x")` with
 * `.action(…)`, `defineCommand({ name })`), each with where it is defined and the code that handles
 * it. Found from the index's call and decorator records; the lines of a registration are read only
 * where its name sits inside an object literal the records do not keep.
 */
import { fitPrefix } from "../budget/fit.ts";
import { loadTokenCounter, type Encoding } from "../budget/tokenizer.ts";
import type { FileRecord } from "../extract/record.ts";
import type { CodeGraph } from "../graph/model.ts";
import { lookupDefinition } from "../graph/resolve.ts";
import { LIMITS } from "../limits.ts";
import { EngineError } from "../../shared/errors.ts";
import { cite } from "../../shared/paths.ts";
import { checkBudget, checkEncoding } from "../slice/context.ts";
import { isTestFile } from "../graph/test-code.ts";
import { insideParens, splitArgs } from "../slice/route-parts.ts";
import { quoted } from "../../shared/quote.ts";

/** What kind of entry point a tool is. */
export type ToolKind = "mcp" | "jsonrpc" | "grpc" | "cli";
export const TOOL_KINDS: readonly ToolKind[] = ["mcp", "jsonrpc", "grpc", "cli"];

/** One tool, RPC method or command. */
export interface ToolEntry {
  kind: ToolKind;
  name: string;
  /** How it is registered (`server.tool`, `defineCommand`, `click`, `argparse`, …). */
  via: string;
  /** Where it is defined (the registration). */
  file: string;
  line: number;
  /** The handler, when it is a named definition (qualified name). */
  handler?: string;
  /** Where the handler is: a named definition's first line, or the inline code's line. */
  handledAt?: { path: string; line: number };
  /** Registered in a test file. */
  test?: boolean;
}

/** Options of the tool map. */
export interface ToolMapOptions {
  /** Only this kind. */
  kind?: ToolKind;
  /** Tokens for the text (default 4,000). */
  budget?: number;
  encoding?: string;
}

/** The tool map, fitted to a budget. */
export interface ToolMapAnswer {
  tools: ToolEntry[];
  total: number;
  /** Tools per kind, of all found. */
  counts: Record<ToolKind, number>;
  text: string;
  usage: { tokens: number; budget: number; encoding: Encoding };
}

const STRING = /^[rbuf]{0,2}(['"`])(.*)\1$/s;
const literal = (arg: string | undefined) => (arg === undefined ? undefined : STRING.exec(arg.trim())?.[2]);
const IDENT = /^[A-Za-z_$][\w$.]*$/;
/** `defineTool({ name: "x" })` and the like: a factory whose object names the tool or command. */
const FACTORY = /^(?:define|create|make)\w*(Tool|Command)$/;
const MCP_DECORATOR = /^@?\s*(?:[\w.]*\.)?(?:mcp|server|app)\.tool\s*(?:\(([^)]*)\))?\s*$/;
const CLI_DECORATOR = /^@?\s*([\w.]+)\.command\s*(?:\(([^)]*)\))?\s*$/;
const RPC_DECORATOR = new RegExp(
  String.raw`^@?\s*(?:(?:[\w.]*\.)?(?:jsonrpc|rpc|dispatcher|methods)\.(?:method|add_method|register)|` +
    String.raw`method|rpc_method)\s*(?:\(([^)]*)\))?\s*$`,
);

/** Tools, commands and RPC methods a file's definitions declare: decorators, and gRPC servicer classes. */
function definitionTools(
  graph: CodeGraph,
  record: FileRecord,
  mod: number,
  file: string,
  push: (e: Omit<ToolEntry, "file" | "test">) => void,
): void {
  record.definitions.forEach((d, i) => {
    const id = mod + 1 + i;
    const at = { handler: graph.symbols[id]!.qualified, handledAt: { path: file, line: d.start } };
    for (const dec of d.decorators ?? []) {
      const text = dec.trim();
      const kwName = (args: string | undefined) =>
        literal(splitArgs(args ?? "").find((a) => !/=/.test(a))) ??
        /\bname\s*=\s*(['"])([^'"]+)\1/.exec(args ?? "")?.[2];
      let m: RegExpExecArray | null;
      if ((m = MCP_DECORATOR.exec(text)))
        push({ kind: "mcp", name: kwName(m[1]) ?? d.name, via: "decorator", line: d.nameLine, ...at });
      else if ((m = CLI_DECORATOR.exec(text)))
        push({
          kind: "cli",
          name: kwName(m[2]) ?? d.name.replace(/_/g, "-"),
          via: /click/.test(m[1]!) ? "click" : `${m[1]}.command`,
          line: d.nameLine,
          ...at,
        });
      else if ((m = RPC_DECORATOR.exec(text)))
        push({ kind: "jsonrpc", name: kwName(m[1]) ?? d.name, via: "decorator", line: d.nameLine, ...at });
    }
    // A gRPC servicer: a class extending a generated `…Servicer`; each public method is an RPC.
    if (d.kind === "class" && (d.bases ?? []).some((b) => /Servicer$/.test(b))) {
      record.definitions.forEach((m, j) => {
        if (m.parent === i && (m.kind === "method" || m.kind === "function") && !m.name.startsWith("_")) {
          push({
            kind: "grpc",
            name: `${d.name}.${m.name}`,
            via: "servicer",
            line: m.nameLine,
            handler: graph.symbols[mod + 1 + j]!.qualified,
            handledAt: { path: file, line: m.start },
          });
        }
      });
    }
  });
}

/** Every tool, RPC method and command in the project. */
export async function findTools(graph: CodeGraph, readText: (path: string) => Promise<string>): Promise<ToolEntry[]> {
  const out: ToolEntry[] = [];
  const cache = new Map<string, string[]>();
  const lines = async (p: string) =>
    cache.get(p) ?? cache.set(p, (await readText(p).catch(() => "")).split("\n")).get(p)!;
  for (const [file, record] of graph.records) {
    const test = isTestFile(file);
    const mod = graph.moduleSymbol.get(file)!;
    const push = (e: Omit<ToolEntry, "file" | "test">) => out.push({ ...e, file, ...(test ? { test } : {}) });
    const handlerOf = (expr: string | undefined, scope: number, at: number) => {
      if (expr && IDENT.test(expr.trim())) {
        const id = lookupDefinition(graph.context, file, scope, expr.trim());
        if (id !== undefined) {
          const s = graph.symbols[id]!;
          return { handler: s.qualified, handledAt: { path: s.file, line: s.start } };
        }
      }
      return { handledAt: { path: file, line: at } };
    };
    for (const call of record.calls) {
      const name = call.name;
      const first = literal(call.args?.[0]);
      if ((name === "tool" || name === "registerTool") && call.receiver && first) {
        push({
          kind: "mcp",
          name: first,
          via: `${call.receiver}.${name}`,
          line: call.line,
          ...handlerOf(call.args!.at(-1), call.caller, call.line),
        });
      } else if ((name === "addMethod" || name === "add_method" || name === "register_method") && first) {
        push({
          kind: "jsonrpc",
          name: first,
          via: name,
          line: call.line,
          ...handlerOf(call.args![1], call.caller, call.line),
        });
      } else if (name === "add_parser" && first) {
        const text = await lines(file);
        const after = text.slice(call.line - 1, call.line + 9).join("\n");
        const func = /set_defaults\(\s*func\s*=\s*([\w.]+)/.exec(after)?.[1];
        push({
          kind: "cli",
          name: first,
          via: "argparse",
          line: call.line,
          ...(func ? handlerOf(func, call.caller, call.line) : {}),
        });
      } else if (
        name === "command" &&
        call.receiver &&
        first &&
        !/^\s*@/.test((await lines(file))[call.line - 1] ?? "")
      ) {
        const text = await lines(file);
        const chain = text.slice(call.line - 1, call.line + 14).join("\n");
        const action = /\.action\(\s*(?:async\s*)?([\w$.]+)?/.exec(chain);
        const yargsHandler = call.args && call.args.length >= 4 ? call.args.at(-1) : undefined;
        const handler = action
          ? handlerOf(action[1], call.caller, call.line + chain.slice(0, action.index).split("\n").length - 1)
          : yargsHandler
            ? handlerOf(yargsHandler, call.caller, call.line)
            : {};
        push({
          kind: "cli",
          name: first.split(/\s/)[0]!,
          via: action ? "commander" : "yargs",
          line: call.line,
          ...handler,
        });
      } else if (FACTORY.test(name)) {
        const text = await lines(file);
        const body =
          insideParens(
            text.slice(call.line - 1).join("\n"),
            text[call.line - 1]!.indexOf("(", text[call.line - 1]!.indexOf(name)),
          ) ?? "";
        const named = /\bname\s*:\s*(['"`])([^'"`]+)\1/.exec(body)?.[2];
        if (!named) continue;
        const run = /^\s*(?:async\s+)?(?:run|handler|execute|action)\s*[(:]/m.exec(body);
        // The body starts on the call's line: the handler's line is the call's plus the newlines before its keyword.
        const runLine = run
          ? call.line + body.slice(0, run.index + run[0].search(/\S/)).split("\n").length - 1
          : call.line;
        push({
          kind: FACTORY.exec(name)![1] === "Tool" ? "mcp" : "cli",
          name: named,
          via: name,
          line: call.line,
          handledAt: { path: file, line: runLine },
        });
      } else if (name === "addService") {
        const text = await lines(file);
        const head = text[call.line - 1] ?? "";
        const args = splitArgs(
          insideParens(
            text.slice(call.line - 1, call.line + 30).join("\n"),
            head.indexOf("(", head.indexOf("addService")),
          ) ?? "",
        );
        const impl = args[1] ?? "";
        for (const m of impl
          .replace(/^\{|\}$/g, "")
          .split(",")
          .map((p) => /^\s*([A-Za-z_$][\w$]*)\s*(?::\s*([\w$.]+))?/.exec(p))
          .filter(Boolean)) {
          push({
            kind: "grpc",
            name: m![1]!,
            via: "addService",
            line: call.line,
            ...handlerOf(m![2] ?? m![1], call.caller, call.line),
          });
        }
      }
    }
    definitionTools(graph, record, mod, file, push);
  }
  return out.sort(
    (a, b) =>
      Number(a.test ?? false) - Number(b.test ?? false) ||
      TOOL_KINDS.indexOf(a.kind) - TOOL_KINDS.indexOf(b.kind) ||
      a.name.localeCompare(b.name),
  );
}

const HEADINGS: Record<ToolKind, string> = {
  mcp: "MCP tools",
  jsonrpc: "JSON-RPC methods",
  grpc: "gRPC methods",
  cli: "CLI commands",
};

/** The tool map as an answer: a heading per kind, a line per tool, within the budget. */
export async function toolMapAnswer(all: ToolEntry[], options: ToolMapOptions = {}): Promise<ToolMapAnswer> {
  const budget = checkBudget(options.budget ?? LIMITS.budget.list);
  const encoding = checkEncoding(options.encoding);
  if (options.kind !== undefined && !TOOL_KINDS.includes(options.kind)) {
    throw new EngineError(
      "invalid_argument",
      `kind must be one of ${TOOL_KINDS.join(", ")}, got ${quoted(options.kind)}.`,
      { data: { kind: options.kind } },
    );
  }
  const count = await loadTokenCounter(encoding);
  const entries = options.kind ? all.filter((t) => t.kind === options.kind) : all;
  const counts = Object.fromEntries(
    TOOL_KINDS.map((k) => [k, all.filter((t) => t.kind === k && !t.test).length]),
  ) as Record<ToolKind, number>;
  const head =
    `# Tools and commands: ` +
    (`${TOOL_KINDS.map((k) => `${counts[k]} ${HEADINGS[k]}`).join(", ")}` +
      `${all.some((t) => t.test) ? `; ${all.filter((t) => t.test).length} registered in tests` : ""}`);
  const lineOf = (t: ToolEntry) => {
    const where = cite(t.file, t.line);
    const handled = t.handler
      ? `${t.handler} (${cite(t.handledAt!.path, t.handledAt!.line)})`
      : t.handledAt && (t.handledAt.path !== t.file || t.handledAt.line !== t.line)
        ? cite(t.handledAt.path, t.handledAt.line)
        : undefined;
    return (
      `- ${t.name} → ${where} (${t.via})${handled ? `, handled by ${handled}` : ""}` + (t.test ? " (in a test)" : "")
    );
  };
  const render = (k: number) => {
    const lines = [head];
    let kind: string | undefined;
    for (const t of entries.slice(0, k)) {
      const group = t.test ? `${t.kind}-test` : t.kind;
      if (group !== kind) {
        kind = group;
        lines.push(`## ${HEADINGS[t.kind]}${t.test ? " registered in tests" : ""}`);
      }
      lines.push(lineOf(t));
    }
    if (entries.length > k) lines.push(`… and ${entries.length - k} more: narrow with a kind, or raise the budget`);
    if (!entries.length)
      lines.push(
        "None found: the index reads server.tool/registerTool/@mcp.tool, JSON-RPC addMethod/@method, gRPC " +
          "servicers and addService, and click/typer/argparse/commander/yargs/defineCommand commands.",
      );
    return lines.join("\n");
  };
  const fitted = fitPrefix(entries.length, render, count, budget);
  if (!fitted.fits) {
    const needed = count(render(0));
    throw new EngineError(
      "budget_too_small",
      `A budget of ${budget} tokens cannot hold the tool map's header; it needs ${needed}.`,
      { hint: `Ask again with budget ≥ ${needed}.`, data: { budget, needed } },
    );
  }
  return {
    tools: entries.slice(0, fitted.k),
    total: entries.length,
    counts,
    text: fitted.answer,
    usage: { tokens: count(fitted.answer), budget, encoding },
  };
}
