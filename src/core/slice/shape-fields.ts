/**
 * The fields of a response model as a tree: a pydantic model, a dataclass, a TypeScript interface
 * or class, each field with the model its type names (`data: list[ItemPublic]` → ItemPublic's
 * fields), bases' fields first. Read from the model's own lines: `name: Type` at the body's indent
 * (Python) or `name?: Type;` (TypeScript; a class's also behind modifiers, with `!`, `#` or no type).
 */
import { languageById } from "../../languages/index.ts";
import { DEFAULT_SEMANTICS } from "../../languages/types.ts";
import type { CodeGraph } from "../graph/model.ts";
import { lookupDefinition } from "../graph/resolve.ts";
import { typeNames } from "./route-parts.ts";

/** One field of a model. */
export interface ModelField {
  name: string;
  /** The annotation as written. */
  type: string;
  /** The model that declares it (a base, for an inherited field). */
  owner: string;
  line: number;
  /** The model its type names, when the project defines one. */
  child?: ModelNode;
}

/** A model with its fields (its bases' first). */
export interface ModelNode {
  id: number;
  name: string;
  qualified: string;
  path: string;
  start: number;
  end: number;
  fields: Map<string, ModelField>;
}

export const MODEL_KINDS: ReadonlySet<string> = new Set(["class", "interface", "struct", "type"]);
const PY_FIELD = /^(\s+)([A-Za-z_]\w*)\s*:\s*([^=#]+?)\s*(?:=.*)?$/;
const TS_FIELD = /^\s+(?:readonly\s+)?([A-Za-z_$][\w$]*)\??\s*:\s*([^;]+?)\s*[;,]?\s*$/;
const MAX_DEPTH = 4;
/** Definitions that are a model's fields themselves, not code nested in it. */
const FIELD_KINDS: ReadonlySet<string> = new Set(["field", "property", "constant", "getter", "setter"]);

/** Builds model trees, each model once. */
export function modelReader(
  graph: CodeGraph,
  lines: (path: string) => Promise<string[]>,
): (id: number) => Promise<ModelNode> {
  const memo = new Map<number, Promise<ModelNode>>();
  const nodes = new Map<number, ModelNode>();
  const build = async (id: number, depth: number, chain: ReadonlySet<number>): Promise<ModelNode> => {
    const s = graph.symbols[id]!;
    const node: ModelNode = {
      id,
      name: s.name,
      qualified: s.qualified,
      path: s.file,
      start: s.start,
      end: s.end,
      fields: new Map(),
    };
    nodes.set(id, node);
    const inner = new Set(chain).add(id);
    for (const e of graph.inherits) {
      if (e.child !== id || depth > MAX_DEPTH) continue;
      const base = await get(e.base, depth + 1, inner);
      for (const [k, f] of base.fields) node.fields.set(k, f);
    }
    const text = await lines(s.file);
    const record = graph.records.get(s.file);
    const nested = (record?.definitions ?? []).filter(
      (d) => d.start > s.start && d.end <= s.end && !FIELD_KINDS.has(d.kind),
    );
    // Indent-block languages declare a field as `name: Type` at the body's indent; brace languages as `name?: Type;`.
    const semantics = languageById(s.language)?.semantics ?? DEFAULT_SEMANTICS;
    const indented = semantics.blocks === "indent";
    let indent: string | undefined;
    for (let l = s.nameLine + 1; l <= s.end; l++) {
      if (nested.some((d) => l >= d.start && l <= d.end)) continue;
      const line = text[l - 1] ?? "";
      const m = indented ? PY_FIELD.exec(line) : TS_FIELD.exec(line);
      const field = m || s.kind !== "class" ? undefined : languageById(s.language)?.classFieldLine?.(line);
      if (!m && !field) continue;
      if (m && indented) {
        indent ??= m[1];
        if (m[1] !== indent) continue;
      }
      const [name, type] = field ?? (indented ? [m![2]!, m![3]!] : [m![1]!, m![2]!]);
      if (/\(/.test(name)) continue;
      node.fields.set(name, { name, type: type.trim(), owner: s.name, line: l });
    }
    // A plain class of an indent-block language declares its fields by assigning them in its methods (`self.name =
    // name`).
    if (indented) {
      for (const b of record?.bindings ?? []) {
        const method = b.scope >= 0 ? record!.definitions[b.scope] : undefined;
        if (
          b.kind !== "field" ||
          !semantics.instanceNames.includes(b.receiver ?? "") ||
          !method ||
          method.parent !== s.index ||
          node.fields.has(b.name)
        )
          continue;
        node.fields.set(b.name, { name: b.name, type: b.type ?? "", owner: s.name, line: b.line });
      }
    }
    if (depth < MAX_DEPTH) {
      for (const f of node.fields.values()) {
        if (f.owner !== s.name) continue;
        for (const n of typeNames(f.type)) {
          const cid = lookupDefinition(graph.context, s.file, -1, n);
          if (cid !== undefined && cid !== id && MODEL_KINDS.has(graph.symbols[cid]!.kind)) {
            f.child = await get(cid, depth + 1, inner);
            break;
          }
        }
      }
    }
    return node;
  };
  // A model on the way to itself (`A.b: B`, `B.a: A`) is the node being built: awaiting its build
  // there would wait for itself, and the answer would never come. Trees are read one at a time.
  const get = (id: number, depth: number, chain: ReadonlySet<number>): Promise<ModelNode> =>
    chain.has(id) ? Promise.resolve(nodes.get(id)!) : (memo.get(id) ?? memo.set(id, build(id, depth, chain)).get(id)!);
  return (id) => get(id, 0, new Set());
}

/** Every model in a tree, the root first, each once. */
export function modelsIn(root: ModelNode): ModelNode[] {
  const out = [root];
  for (let i = 0; i < out.length; i++)
    for (const f of out[i]!.fields.values()) if (f.child && !out.includes(f.child)) out.push(f.child);
  return out;
}

/** The path from `root` to a model it contains (`ItemsPublic.data[]`), or undefined. */
export function pathTo(root: ModelNode, id: number): string | undefined {
  if (root.id === id) return root.name;
  const seen = new Set<number>();
  const walk = (n: ModelNode, at: string): string | undefined => {
    if (seen.has(n.id)) return undefined;
    seen.add(n.id);
    for (const f of n.fields.values()) {
      if (!f.child) continue;
      const here = `${at}.${f.name}${/\b(list|List|Sequence|Array)\b|\[\]/.test(f.type) ? "[]" : ""}`;
      if (f.child.id === id) return here;
      const deeper = walk(f.child, here);
      if (deeper) return deeper;
    }
    return undefined;
  };
  return walk(root, root.name);
}
