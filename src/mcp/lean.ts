/**
 * Structured content that adds to the text, never repeats it (issue 24 item 6). The text of a tool
 * answer is for a model to read; the structured content is for a program: ids, paths, lines,
 * numbers and short enums. A client may hand both to the model, so whatever is in both is paid
 * for twice: on hono, `impact` sent 1,196 tokens of text and 1,980 of JSON, and 8 of 13 answers
 * carried the same 60+ character strings (test names, commands, notes) in both.
 *
 * The server passes every tool's data through {@link leanContent}, so every tool, today's and the
 * ones added later, keeps the rule without each one remembering it. {@link expandContent} turns it
 * back into the tool's declared shape (its output schema without the prose fields) for a program
 * that prefers objects; the tests check every answer that way.
 *
 * The lean form, in full:
 * - prose fields are left out: `notes`, `code` and `signature` (source lines), `commands`,
 *   `command` and `summary` (a test run's shell command and its runner's last line), `what`
 *   ({@link PROSE_KEYS}), and so are echoes of the text or the arguments ({@link ECHOED_UNDER});
 * - a zero, `false`, `""`, an empty list and an empty object are left out: absent reads as that;
 *   so are `encoding: "o200k_base"` and `resolvedAs: "symbol"` ({@link DEFAULTS});
 * - a `{ path, line }` site is the string `path:line`, the citation form the text uses, or only its
 *   line when it is in the file of the entry that holds it (the entry's `path`);
 * - an entry of only a qualified name and a line is the string `name:line`, as the text cites it;
 * - an entry's `path` is left out when its qualified name begins with it (`src/a.ts#f`), and an
 *   entry nested in an entry of that file writes its qualified name from the `#` (`#f`); a Python
 *   name (`qualified`, a chunk's `symbol`) that begins with its file's dotted path is written from
 *   the dot (`.User.greet` beside `shop/models.py`; not for `__init__.py` or a `src/` layout);
 * - a list of two or more objects is a table: a list whose first item is the header, a list of
 *   the keys, and whose other items are the rows, one per object in header order, `null` where an
 *   object has no such field; a column with the same value in every row is `{ "via": "call" }` in
 *   the header and has no cells; a column whose cells are all tables with the same header is
 *   `{ "symbols": [...that header] }` in the header, and its cells hold only their rows. A list of
 *   one object stays `[{...}]`: a header would cost more than its keys;
 * - a count beside the list it counts, of that many entries, is left out (`fileCount` by `files`).
 *
 * What the server says of every call, how fresh the index is, goes in the result's `_meta`
 * (`codeslice/freshness`), not here: it was ~25 tokens of every answer's structured content.
 */
import { z } from "zod";

/**
 * Fields that carry prose or source text the answer's text already shows: notes and caveats, the
 * source line at a trace hop, a definition's signature line, the shell commands that run tests
 * (`tests`) and the one each run ran with its runner's summary line (`run_tests`: `$ pytest …`
 * and `1 failed in 0.05s` head and end its text), a language's "what is not extracted" phrase.
 */
export const PROSE_KEYS: ReadonlySet<string> = new Set([
  "notes",
  "code",
  "signature",
  "commands",
  "command",
  "summary",
  "what",
]);

/**
 * What the text says and the arguments already gave, left out under these keys: a page's test mode
 * and limit (the arguments), the file lists of what the answer could not see (the text lists
 * them; the counts stay), a test's display name (`id`: the text shows it; the path and line stay).
 */
const ECHOED_UNDER: Readonly<Record<string, ReadonlySet<string>>> = {
  // At the top: the search words and the walk's direction (callers, callees: the tool's name) as given.
  "": new Set(["query", "direction"]),
  page: new Set(["tests", "limit"]),
  unlinked: new Set(["files", "names"]),
  unresolvedImports: new Set(["files", "names"]),
  parseErrors: new Set(["files", "names"]),
  tests: new Set(["id"]),
};

/**
 * Values most answers would repeat, left out where a field holds them: absent reads as this. The
 * tokenizer of a budget is o200k_base unless the call asked for another; a target is a symbol
 * unless it is a file, lines, a route or words.
 */
const DEFAULTS: Readonly<Record<string, Json>> = { encoding: "o200k_base", resolvedAs: "symbol" };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const isEmpty = (v: unknown) =>
  v === undefined ||
  v === 0 ||
  v === false ||
  v === "" ||
  (Array.isArray(v) && v.length === 0) ||
  (isPlainObject(v) && Object.keys(v).length === 0);
/** A table as sent: a list whose first item is its header (a list) and whose other items are its rows. */
const isTable = (v: unknown): v is [Json[], ...Json[][]] => Array.isArray(v) && Array.isArray(v[0]);
const isSite = (v: Record<string, unknown>) => {
  const keys = Object.keys(v);
  return keys.length === 2 && typeof v.path === "string" && typeof v.line === "number";
};

/** The dotted module a Python file defines (`shop/models.py` → `shop.models`). */
const moduleOf = (path: string) => (path.endsWith(".py") ? path.slice(0, -3).replaceAll("/", ".") : undefined);

/** A qualified name written from the file it is in: `#f` for `src/a.ts#f`, `.User.greet` for `shop/models.py`'s. */
function relativeName(name: string, path: string | undefined): string {
  if (path === undefined) return name;
  if (name.startsWith(`${path}#`)) return name.slice(path.length);
  const module = moduleOf(path);
  return module !== undefined && name.startsWith(`${module}.`) ? name.slice(module.length) : name;
}

/** {@link relativeName} undone. */
function absoluteName(name: unknown, path: unknown): unknown {
  if (typeof name !== "string" || typeof path !== "string") return name;
  if (name.startsWith("#")) return `${path}${name}`;
  const module = name.startsWith(".") ? moduleOf(path) : undefined;
  return module !== undefined ? `${module}${name}` : name;
}

/** The list a count names: `files` for `fileCount`, `directories` for `directoryCount`. */
function countedList(value: Record<string, unknown>, key: string): unknown[] | undefined {
  if (!key.endsWith("Count")) return undefined;
  const one = key.slice(0, -5);
  for (const name of [one, `${one}s`, one.replace(/y$/, "ies")]) {
    const list = value[name];
    if (Array.isArray(list)) return list;
  }
  return undefined;
}

/** `fileCount` beside a list `files` of that many entries: the list's length says it. */
const isListCount = (value: Record<string, unknown>, key: string, v: unknown) => countedList(value, key)?.length === v;

/** Keys whose value is a definition's qualified name, written from its file ({@link relativeName}). */
const NAME_KEYS: ReadonlySet<string> = new Set(["qualified", "symbol"]);

/** A list of objects as a table: see the module comment. */
function table(items: Record<string, Json>[]): Json[] {
  const columns: string[] = [];
  for (const item of items) for (const k of Object.keys(item)) if (!columns.includes(k)) columns.push(k);
  let rows = items.map((item) => columns.map((c) => item[c] ?? null));
  const constant: boolean[] = [];
  const header: Json[] = columns.map((c, i) => {
    const cells = rows.map((r) => r[i]!);
    const first = cells[0]!;
    // A column with one value in every row (all calls, all at depth 1) says it once.
    if (first !== null && typeof first !== "object" && cells.every((v) => v === first)) {
      constant[i] = true;
      return { [c]: first };
    }
    // A column of tables with the same header (each file's symbols) names it once.
    const tables = cells.filter((v) => v !== null);
    const t = tables[0];
    if (!isTable(t) || !tables.every((v) => isTable(v) && JSON.stringify(v[0]) === JSON.stringify(t[0]))) return c;
    for (const r of rows) if (r[i] !== null) r[i] = (r[i] as Json[]).slice(1);
    return { [c]: t[0] };
  });
  if (constant.length) rows = rows.map((r) => r.filter((_, i) => !constant[i]));
  return [header, ...rows];
}

/** The structured content as sent: see the module comment for the rules. */
export function leanContent(value: unknown, within?: string, under = ""): Json {
  if (Array.isArray(value)) {
    const items = value.map((v) => leanContent(v, within, under));
    // One object is cheaper as itself than as a table (its header costs more than its keys).
    if (items.length < 2 || !items.every(isPlainObject)) return items;
    return table(items as Record<string, Json>[]);
  }
  if (!isPlainObject(value)) return (value ?? null) as Json;
  if (isSite(value)) return `${value.path}:${value.line}`;
  const out: Record<string, Json> = {};
  const path = typeof value.path === "string" ? value.path : undefined;
  // The path a qualified name begins with (`src/a.ts#f`) is said once, by the name.
  const pathInName =
    path !== undefined &&
    typeof value.qualified === "string" &&
    (value.qualified === path || value.qualified.startsWith(`${path}#`));
  const echoed = ECHOED_UNDER[under];
  for (const [key, v] of Object.entries(value)) {
    if (PROSE_KEYS.has(key) || isEmpty(v) || echoed?.has(key) || DEFAULTS[key] === v) continue;
    if (key === "path" && pathInName) continue;
    if (isListCount(value, key, v)) continue;
    if (NAME_KEYS.has(key) && typeof v === "string") {
      out[key] = relativeName(v, pathInName ? within : (path ?? within));
      continue;
    }
    // A site in the entry's own file is its line.
    if (path !== undefined && isPlainObject(v) && isSite(v) && v.path === path) {
      out[key] = v.line as number;
      continue;
    }
    const lean = leanContent(v, path ?? within, key);
    if (!isEmpty(lean)) out[key] = lean;
  }
  const keys = Object.keys(out);
  if (keys.length === 2 && typeof out.qualified === "string" && typeof out.line === "number")
    return `${out.qualified}:${out.line}`;
  return out;
}

const unwrap = (s: z.ZodType): z.ZodType => (s instanceof z.ZodOptional ? (s.unwrap() as z.ZodType) : s);
const isSiteSchema = (s: z.ZodType) => {
  const o = unwrap(s);
  return o instanceof z.ZodObject && "path" in o.shape && "line" in o.shape;
};

/** What an absent field of this schema reads as (undefined: the field was optional and absent). */
function absent(schema: z.ZodType, key = ""): unknown {
  if (key in DEFAULTS) return DEFAULTS[key];
  if (schema instanceof z.ZodOptional) return undefined;
  if (schema instanceof z.ZodArray) return [];
  if (schema instanceof z.ZodObject) return expandContent({}, schema);
  if (schema instanceof z.ZodBoolean) return false;
  if (schema instanceof z.ZodString) return "";
  if (schema instanceof z.ZodNumber) return 0;
  return undefined;
}

/** A lean answer ({@link leanContent}) back in the shape `schema` declares, prose fields aside. */
export function expandContent(value: unknown, schema: z.ZodType, within?: string, under = ""): unknown {
  const s = unwrap(schema);
  if (value === undefined || value === null) return absent(schema, under);
  if (s instanceof z.ZodArray) {
    const element = s.element as z.ZodType;
    if (isTable(value) && unwrap(element) instanceof z.ZodObject) {
      // Header entries: a name (a cell per row), `{ name: scalar }` (the same in every row, no
      // cell), `{ name: [header] }` (a table per row, its rows alone in the cell).
      const [header, ...rows] = value;
      return rows.map((row) => {
        const entry: [string, unknown][] = [];
        let i = 0;
        for (const c of header) {
          if (!isPlainObject(c)) entry.push([String(c), row[i++]]);
          else {
            const [name, spec] = Object.entries(c)[0]!;
            if (!Array.isArray(spec)) entry.push([name, spec]);
            else {
              const v = row[i++];
              entry.push([name, v === null ? null : [spec, ...(v as Json[])]]);
            }
          }
        }
        return expandContent(Object.fromEntries(entry.filter(([, v]) => v !== null)), element, within, under);
      });
    }
    return Array.isArray(value) ? value.map((v) => expandContent(v, element, within, under)) : value;
  }
  if (s instanceof z.ZodObject) {
    const shape = s.shape as Record<string, z.ZodType>;
    if (typeof value === "string" && "line" in shape && ("path" in shape || "qualified" in shape)) {
      const at = value.lastIndexOf(":");
      const name = value.slice(0, at);
      const line = Number(value.slice(at + 1));
      if ("path" in shape) return { path: name, line };
      return { qualified: absoluteName(name, within), line };
    }
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    const from = value.path ?? within;
    const qualified = absoluteName(value.qualified, from);
    const own = value.path ?? (typeof qualified === "string" && "path" in shape ? qualified.split("#")[0] : undefined);
    for (const [key, field] of Object.entries(shape)) {
      if (PROSE_KEYS.has(key) || (ECHOED_UNDER[under]?.has(key) && value[key] === undefined)) continue;
      const raw =
        key === "path"
          ? own
          : key === "qualified"
            ? qualified
            : NAME_KEYS.has(key)
              ? absoluteName(value[key], from)
              : typeof value[key] === "number" && isSiteSchema(field)
                ? { path: own, line: value[key] }
                : value[key];
      const v = expandContent(raw, field, typeof own === "string" ? own : within, key);
      if (v !== undefined) out[key] = v;
    }
    for (const key of Object.keys(shape)) {
      const list = value[key] === undefined ? countedList(out, key) : undefined;
      if (list) out[key] = list.length;
    }
    for (const [key, v] of Object.entries(value)) if (!(key in shape)) out[key] = v;
    return out;
  }
  return value;
}

/** The shape {@link expandContent} gives for data of shape `schema`: the same, without the prose fields. */
export function withoutProse<T extends z.ZodType>(schema: T, under = ""): z.ZodType {
  const s = unwrap(schema);
  let out: z.ZodType = s;
  if (s instanceof z.ZodArray) out = z.array(withoutProse(s.element as z.ZodType, under));
  else if (s instanceof z.ZodObject) {
    const shape: Record<string, z.ZodType> = {};
    for (const [key, field] of Object.entries(s.shape as Record<string, z.ZodType>)) {
      if (PROSE_KEYS.has(key)) continue;
      const lean = withoutProse(field, key);
      shape[key] = ECHOED_UNDER[under]?.has(key) ? lean.optional() : lean;
    }
    out = z.object(shape);
  }
  if (s.description) out = out.describe(s.description);
  return schema instanceof z.ZodOptional ? out.optional() : out;
}
