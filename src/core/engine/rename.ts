/**
 * The engine's side of rename: resolve the target, read the files that spell the name (checked
 * against the index), find each spelling with the parser, plan, seal the plan with a token, and
 * keep it in the store so apply can find it by that token. The engine never writes project files.
 */
import { EngineError, isEngineError } from "../../shared/errors.ts";
import { sha256Hex } from "../../shared/hash.ts";
import { LANGUAGES, languageById } from "../../languages/index.ts";
import { identifierSites, type IdentifierSite } from "../extract/identifiers.ts";
import { findSymbol } from "../query/lookup.ts";
import type { CodeGraph, SymbolNode } from "../graph/model.ts";
import { createParserRuntime } from "../parse/runtime.ts";
import { checkNewName } from "../rename/names.ts";
import { checkRenameable, planRename, type RenamePlan } from "../rename/plan.ts";
import { consistent } from "./consistent.ts";
import type { RunOptions } from "./api.ts";
import { graphOf } from "./graph-cache.ts";
import type { Inputs } from "./inputs.ts";
import type { EngineState } from "./state.ts";
import { quoted } from "../../shared/quote.ts";

/** Where plans are kept in the store, by token. */
const PLAN_PREFIX = "rename-plans/";
/** Plans kept at most; the oldest go first. */
const PLANS_KEPT = 20;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `Engine.rename`: the preview of renaming `symbol` to `newName`, sealed and kept for apply. */
export async function answerRename(
  s: EngineState,
  symbol: string,
  newName: string,
  opts: RunOptions,
): Promise<RenamePlan> {
  const plan = await consistent(s, opts, async (read) => {
    const { graph, snapshot } = await graphOf(s, opts);
    const target = findTarget(graph, symbol);
    const spec = languageById(target.language);
    const family = spec?.rename?.family;
    if (!spec || !family) {
      throw new EngineError(
        "rename_refused",
        `${target.qualified} is ${spec?.name ?? target.language}; rename handles ${renameLanguages()}.`,
        {
          hint: "Rename it with that language's own tools.",
          data: { reason: "unsupported", target: target.qualified },
        },
      );
    }
    checkRenameable(graph, target);
    if (newName === target.name)
      throw new EngineError("rename_refused", `${target.qualified} is already named ${newName}.`, {
        hint: "Give a different name.",
        data: { reason: "same_name", name: newName },
      });
    checkNewName(newName, spec);
    const inputs = read(snapshot);
    const sites = await sitesOf(s, graph, inputs, family, new Set([target.name, newName]), opts.signal);
    const body = planRename({ graph, target, newName, sites });
    const touched = [...new Set([...body.edits, ...body.mentions].map((e) => e.path))].sort();
    const files = touched.map((path) => ({ path, hash: graph.records.get(path)!.hash }));
    const planToken = (await sha256Hex(JSON.stringify({ ...body, files }))).slice(0, 32);
    return { ...body, files, planToken };
  });
  await keepPlan(s, plan);
  return plan;
}

/** The languages rename handles, by name. */
function renameLanguages(): string {
  return LANGUAGES.filter((l) => l.rename)
    .map((l) => l.name)
    .join(", ");
}

/** The target: a project symbol, or `rename_refused` (`outside_project`) for a name only calls into packages spell. */
function findTarget(graph: CodeGraph, symbol: string): SymbolNode {
  try {
    return findSymbol(graph, symbol);
  } catch (error) {
    if (!isEngineError(error, "unknown_symbol")) throw error;
    const bare = symbol.trim();
    const outside = graph.external.find((e) => e.target === bare || e.target.endsWith(`.${bare}`));
    if (outside) {
      throw new EngineError(
        "rename_refused",
        `${bare} is defined outside the project (${outside.target}, called at ${outside.file}:${outside.line}); ` +
          `rename changes only the project's own symbols.`,
        {
          hint: "Rename it where it is defined, in its own package.",
          data: { reason: "outside_project", name: bare, target: outside.target },
        },
      );
    }
    throw error;
  }
}

/** Each indexed file of the language family that spells one of `names`, with the sites of those names. */
async function sitesOf(
  s: EngineState,
  graph: CodeGraph,
  inputs: Inputs,
  family: string,
  names: Set<string>,
  signal?: AbortSignal,
): Promise<Map<string, IdentifierSite[]>> {
  const runtime = await createParserRuntime(s.platform.wasm);
  const out = new Map<string, IdentifierSite[]>();
  const paths = [...graph.records.keys()]
    .filter((p) => languageById(graph.records.get(p)!.language)?.rename?.family === family)
    .sort();
  for (const path of paths) {
    signal?.throwIfAborted();
    const text = await inputs.text(path);
    if (![...names].some((n) => text.includes(n))) continue;
    const spec = languageById(graph.records.get(path)!.language)!;
    out.set(path, await identifierSites(runtime, spec, text, names));
  }
  return out;
}

async function keepPlan(s: EngineState, plan: RenamePlan): Promise<void> {
  const store = s.platform.store;
  await store.set(`${PLAN_PREFIX}${plan.planToken}`, encoder.encode(JSON.stringify({ savedAt: Date.now(), plan })));
  const keys = await store.keys(PLAN_PREFIX);
  if (keys.length <= PLANS_KEPT) return;
  const dated: { key: string; at: number }[] = [];
  for (const key of keys) {
    const bytes = await store.get(key);
    let at = 0;
    try {
      at = bytes ? (JSON.parse(decoder.decode(bytes)) as { savedAt: number }).savedAt : 0;
    } catch {
      // a damaged entry goes first
    }
    dated.push({ key, at });
  }
  dated.sort((a, b) => a.at - b.at);
  for (const { key } of dated.slice(0, dated.length - PLANS_KEPT)) await store.delete(key);
}

/**
 * The plan a preview sealed with `token`, checked against its own token (a plan edited in the
 * cache does not pass) and, when given, against the new name. Throws `plan_unknown` when no
 * preview made it.
 */
export async function loadPlan(s: EngineState, token: string, newName?: string): Promise<RenamePlan> {
  const unknown = () =>
    new EngineError("plan_unknown", `No rename preview made the plan token ${quoted(token)}.`, {
      hint: "Preview the rename again and apply with the token that preview gives.",
      data: { token },
    });
  if (!/^[0-9a-f]{32}$/.test(token)) throw unknown();
  const bytes = await s.platform.store.get(`${PLAN_PREFIX}${token}`);
  if (!bytes) throw unknown();
  let plan: RenamePlan;
  try {
    plan = (JSON.parse(decoder.decode(bytes)) as { plan: RenamePlan }).plan;
  } catch {
    throw unknown();
  }
  const { planToken, files, ...body } = plan;
  const again = (await sha256Hex(JSON.stringify({ ...body, files }))).slice(0, 32);
  // A token given with another new name than its preview's is not that preview's.
  if (planToken !== token || again !== token || (newName !== undefined && newName !== plan.newName)) throw unknown();
  return plan;
}

/** Forgets a plan once applied: a token applies once. */
export async function forgetPlan(s: EngineState, token: string): Promise<void> {
  await s.platform.store.delete(`${PLAN_PREFIX}${token}`);
}
