/**
 * The check config: structural rules over the code graph, read from `codeslice.check.json`, the
 * `codeslice` key of package.json or `[tool.codeslice]` of pyproject.toml (the first that exists,
 * in that order), and checked whole before any rule runs so a typo is an error, not a silent pass.
 */
import { parse as parseToml } from "smol-toml";
import { EngineError } from "../../shared/errors.ts";
import { quoted } from "../../shared/quote.ts";

/** One layer: the files it holds (first matching layer wins) and the layers it may import. */
export interface LayerRule {
  name: string;
  files: string[];
  /** Layers this one may import, itself included only when listed; absent: anything. */
  mayImport?: string[];
}

/** Imports from files matching `from` into files matching `to` are refused. */
export interface ForbidRule {
  from: string[];
  to: string[];
  message?: string;
}

/** The rules, as read. Each is off unless the config turns it on. */
export interface CheckConfig {
  layers?: LayerRule[];
  forbid?: ForbidRule[];
  /** Import cycles between files; `ignore`: files left out of the import graph. */
  cycles?: { ignore: string[] };
  /** Exported top-level functions and classes that nothing calls, imports by name, names as a type or subclasses. */
  noCallers?: { ignore: string[] };
  /** Calls into symbols marked deprecated (decorator, JSDoc `@deprecated`, `warnings.warn(…, DeprecationWarning)`). */
  deprecated?: { ignore: string[] };
  /** Files over a size. */
  fileSize?: { maxLines?: number; maxBytes?: number; ignore: string[] };
}

/** Where a config was found. */
export interface CheckConfigSource {
  /** The file, relative to the root. */
  file: string;
  /** The key inside it (`codeslice`, `tool.codeslice`), absent for codeslice.check.json. */
  key?: string;
}

/** Files looked at for a config, in order. */
export const CHECK_CONFIG_FILES = ["codeslice.check.json", "package.json", "pyproject.toml"] as const;

const KEYS = new Set(["$schema", "description", "layers", "forbid", "cycles", "noCallers", "deprecated", "fileSize"]);

/**
 * The config from the first file of CHECK_CONFIG_FILES that holds one (`read` answers undefined
 * for a missing file); `check_config_missing` when none does, `check_config_invalid` (with the
 * file, key and reason) when one is malformed.
 */
export async function loadCheckConfig(
  read: (path: string) => Promise<string | undefined>,
): Promise<{ config: CheckConfig; source: CheckConfigSource }> {
  for (const file of CHECK_CONFIG_FILES) {
    const text = await read(file);
    if (text === undefined) continue;
    const found = configIn(file, text);
    if (found)
      return {
        config: parseCheckConfig(found.value, { file, ...(found.key ? { key: found.key } : {}) }),
        source: { file, ...(found.key ? { key: found.key } : {}) },
      };
  }
  throw new EngineError(
    "check_config_missing",
    `No check config: none of ${CHECK_CONFIG_FILES.join(", ")} holds one.`,
    {
      hint:
        'Write the rules in codeslice.check.json at the project root, e.g. {"cycles": true, "noCallers": true} ' +
        '(or under a "codeslice" key in package.json, or [tool.codeslice] in pyproject.toml).',
      data: { looked: [...CHECK_CONFIG_FILES] },
    },
  );
}

/** The raw config value a file holds, or undefined when it holds none (a package.json without the key). */
function configIn(file: string, text: string): { value: unknown; key?: string } | undefined {
  const invalid = (reason: string, cause?: unknown) =>
    new EngineError("check_config_invalid", `${file} is not valid: ${reason}`, {
      hint: "Fix the file; the rules are documented with the check command.",
      data: { file, reason },
      cause,
    });
  if (file === "pyproject.toml") {
    let doc: Record<string, unknown>;
    try {
      doc = parseToml(text) as Record<string, unknown>;
    } catch (e) {
      throw invalid(`not TOML (${(e as Error).message.split("\n")[0]})`, e);
    }
    const tool = doc.tool as Record<string, unknown> | undefined;
    return tool?.codeslice === undefined ? undefined : { value: tool.codeslice, key: "tool.codeslice" };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw invalid(`not JSON (${(e as Error).message})`, e);
  }
  if (file === "package.json") {
    const value = (doc as Record<string, unknown> | null)?.codeslice;
    return value === undefined ? undefined : { value, key: "codeslice" };
  }
  return { value: doc };
}

/** Checks a raw config value whole and returns it normalized (string-or-list fields as lists, switches as objects). */
export function parseCheckConfig(raw: unknown, source: CheckConfigSource = { file: "(config)" }): CheckConfig {
  const fail = (key: string, reason: string): never => {
    throw new EngineError(
      "check_config_invalid",
      `${source.file}${source.key ? ` (${source.key})` : ""}: ${key}: ${reason}`,
      {
        hint: "Fix that entry; the rules and their fields are documented with the check command.",
        data: { file: source.file, key, reason },
      },
    );
  };
  if (!isObject(raw)) return fail("(top)", "the config must be an object");
  for (const key of Object.keys(raw))
    if (!KEYS.has(key))
      fail(
        key,
        `unknown rule; known: ${[...KEYS].filter((k) => !k.startsWith("$") && k !== "description").join(", ")}`,
      );
  const out: CheckConfig = {};
  if (raw.layers !== undefined) out.layers = layersOf(raw.layers, fail);
  if (raw.forbid !== undefined) {
    if (!Array.isArray(raw.forbid)) fail("forbid", "must be a list of {from, to, message?}");
    out.forbid = (raw.forbid as unknown[]).map((r, i) => {
      if (!isObject(r)) return fail(`forbid[${i}]`, "must be an object {from, to, message?}");
      onlyKeys(r, ["from", "to", "message"], `forbid[${i}]`, fail);
      return {
        from: globs(r.from, `forbid[${i}].from`, fail),
        to: globs(r.to, `forbid[${i}].to`, fail),
        ...(typeof r.message === "string" ? { message: r.message } : {}),
      };
    });
  }
  for (const key of ["cycles", "noCallers", "deprecated"] as const) {
    const v = switchOf(raw[key], key, fail);
    if (v) out[key] = v;
  }
  if (raw.fileSize !== undefined) out.fileSize = fileSizeOf(raw.fileSize, fail);
  return out;
}

type Fail = (key: string, reason: string) => never;

function layersOf(value: unknown, fail: Fail): LayerRule[] {
  if (!Array.isArray(value)) fail("layers", "must be a list of {name, files, mayImport?}");
  const layers = (value as unknown[]).map((l, i): LayerRule => {
    if (!isObject(l)) return fail(`layers[${i}]`, "must be an object {name, files, mayImport?}");
    onlyKeys(l, ["name", "files", "mayImport"], `layers[${i}]`, fail);
    if (typeof l.name !== "string" || !l.name) fail(`layers[${i}].name`, "must be a non-empty string");
    return {
      name: l.name as string,
      files: globs(l.files, `layers[${i}].files`, fail),
      ...(l.mayImport !== undefined ? { mayImport: globs(l.mayImport, `layers[${i}].mayImport`, fail, true) } : {}),
    };
  });
  const names = new Set<string>();
  for (const l of layers) {
    if (names.has(l.name)) fail("layers", `layer ${quoted(l.name)} is defined twice`);
    names.add(l.name);
  }
  for (const l of layers)
    for (const m of l.mayImport ?? [])
      if (!names.has(m))
        fail(`layers.${l.name}.mayImport`, `names no layer ${quoted(m)}; layers: ${[...names].join(", ")}`);
  return layers;
}

function fileSizeOf(value: unknown, fail: Fail): NonNullable<CheckConfig["fileSize"]> {
  if (!isObject(value)) return fail("fileSize", "must be an object {maxLines?, maxBytes?, ignore?}");
  onlyKeys(value, ["maxLines", "maxBytes", "ignore"], "fileSize", fail);
  const out: NonNullable<CheckConfig["fileSize"]> = {
    ignore: value.ignore === undefined ? [] : globs(value.ignore, "fileSize.ignore", fail, true),
  };
  for (const key of ["maxLines", "maxBytes"] as const) {
    const n = value[key];
    if (n === undefined) continue;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1) fail(`fileSize.${key}`, "must be a whole number ≥ 1");
    out[key] = n as number;
  }
  if (out.maxLines === undefined && out.maxBytes === undefined) fail("fileSize", "needs maxLines or maxBytes");
  return out;
}

/** `true` / `false` / `{ignore}` as `{ignore}` or undefined (off). */
function switchOf(value: unknown, key: string, fail: Fail): { ignore: string[] } | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { ignore: [] };
  if (!isObject(value)) return fail(key, "must be true, false or {ignore: [globs]}");
  onlyKeys(value, ["ignore"], key, fail);
  return { ignore: value.ignore === undefined ? [] : globs(value.ignore, `${key}.ignore`, fail, true) };
}

function globs(value: unknown, key: string, fail: Fail, emptyOk = false): string[] {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((g) => typeof g !== "string" || !g))
    return fail(key, "must be a string or a list of non-empty strings");
  if (!emptyOk && !list.length) fail(key, "must not be empty");
  return list as string[];
}

function onlyKeys(value: Record<string, unknown>, keys: string[], at: string, fail: Fail): void {
  for (const k of Object.keys(value))
    if (!keys.includes(k)) fail(`${at}.${k}`, `unknown field; known: ${keys.join(", ")}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
