/**
 * web-tree-sitter from wasm bytes: the runtime is initialised once per process, grammars are
 * loaded on first use, and each file's sha256 is checked against `wasm/wasm.lock.json`.
 */
import type { Language, Parser, Query } from "web-tree-sitter";
import type { LanguageSpec } from "../../languages/types.ts";
import type { WasmSource } from "../ports.ts";
import { EngineError } from "../../shared/errors.ts";
import { sha256Hex } from "../../shared/hash.ts";

/** One entry of `wasm/wasm.lock.json`. */
export interface WasmLockEntry {
  file: string;
  source: string;
  sha256: string;
  abi?: number;
}

/** The parsed lock file. */
export interface WasmLock {
  lockfileVersion: number;
  runtime: string;
  files: WasmLockEntry[];
}

/** A loaded grammar with its compiled query. */
export interface LoadedLanguage {
  spec: LanguageSpec;
  language: Language;
  query: Query;
  /** sha256 of the grammar file, part of every record's cache key. */
  grammarHash: string;
}

let runtimeReady: Promise<void> | undefined;

/**
 * Compiled grammars and queries by grammar sha256, depth and query text. TypeScript and TSX cannot
 * share one: they are two grammars whose node types are numbered differently, and a query is
 * compiled against one grammar's numbering.
 */
const compiled = new Map<string, Promise<{ language: Language; query: Query }>>();

async function verified(wasm: WasmSource, lock: WasmLock, file: string): Promise<{ bytes: Uint8Array; sha256: string }> {
  const entry = lock.files.find((f) => f.file === file);
  if (!entry) throw new EngineError("wasm_missing", `${file} is not listed in wasm/wasm.lock.json`, { hint: "Run `npm run wasm:sync`.", data: { file } });
  const bytes = await wasm.load(file);
  const sha256 = await sha256Hex(bytes);
  if (sha256 !== entry.sha256) {
    throw new EngineError("wasm_mismatch", `${file} does not match its lock entry (${entry.source})`, {
      hint: "The wasm/ folder is damaged or mixed up; reinstall codeslice or run `npm run wasm:sync`.",
      data: { file, expected: entry.sha256, actual: sha256 },
    });
  }
  return { bytes, sha256 };
}

/** Loads the lock file through the wasm source. */
export async function loadWasmLock(wasm: WasmSource): Promise<WasmLock> {
  const bytes = await wasm.load("wasm.lock.json");
  return JSON.parse(new TextDecoder().decode(bytes)) as WasmLock;
}

/**
 * Checks that `wasm` holds the grammar the lock names for `spec` (the bytes' sha256), without
 * compiling it: a parse pool's workers read their own copy, so the engine checks its own before
 * handing them files, and a damaged grammar fails the same way with or without a pool.
 */
export async function verifyGrammar(wasm: WasmSource, spec: LanguageSpec): Promise<void> {
  await verified(wasm, await loadWasmLock(wasm), spec.grammar);
}

/** A grammar loader bound to one WasmSource. */
export interface ParserRuntime {
  load(spec: LanguageSpec): Promise<LoadedLanguage>;
  parser: Parser;
}

/**
 * One runtime per WasmSource for the life of the process: a long-running server re-indexes on every
 * edit, and a new runtime each time would re-compile the grammar and its query (~60 ms for Python)
 * and leave a Parser behind in the wasm heap.
 */
const runtimes = new WeakMap<WasmSource, Promise<ParserRuntime>>();

/** Initialises web-tree-sitter (once per process) and returns the loader for grammars of `wasm`. */
export function createParserRuntime(wasm: WasmSource): Promise<ParserRuntime> {
  let runtime = runtimes.get(wasm);
  if (!runtime) {
    runtime = newRuntime(wasm);
    runtime.catch(() => runtimes.delete(wasm));
    runtimes.set(wasm, runtime);
  }
  return runtime;
}

async function newRuntime(wasm: WasmSource): Promise<ParserRuntime> {
  // Loaded on first use: a re-index that parses nothing never pays for the module.
  const { Language, Parser, Query } = await import("web-tree-sitter");
  const lock = await loadWasmLock(wasm);
  runtimeReady ??= (async () => {
    const { bytes } = await verified(wasm, lock, "web-tree-sitter.wasm");
    await Parser.init({ wasmBinary: bytes });
  })().catch((error) => {
    runtimeReady = undefined;
    throw error;
  });
  await runtimeReady;
  const loaded = new Map<string, Promise<LoadedLanguage>>();
  const parser = new Parser();
  return {
    parser,
    load(spec) {
      let p = loaded.get(spec.id);
      if (!p) {
        p = (async () => {
          const { bytes, sha256 } = await verified(wasm, lock, spec.grammar);
          // The same grammar bytes and query text compile once per thread, whichever WasmSource
          // (engine) asks: a TypeScript query costs ~0.2 s to compile.
          const shareKey = `${sha256}\0${spec.fullDepth}\0${spec.query}`;
          let shared = compiled.get(shareKey);
          if (!shared) {
            shared = (async () => {
              let language: Language;
              try {
                language = await Language.load(bytes);
              } catch (error) {
                throw new EngineError("grammar_incompatible", `Cannot load the ${spec.name} grammar (${spec.grammar})`, {
                  hint: "The grammar's ABI does not match the web-tree-sitter runtime; run `npm run wasm:sync`.",
                  data: { grammar: spec.grammar },
                  cause: error,
                });
              }
              const query = new Query(language, spec.query);
              if (!spec.fullDepth) disableDeepPatterns(query);
              return { language, query };
            })();
            shared.catch(() => compiled.delete(shareKey));
            compiled.set(shareKey, shared);
          }
          const { language, query } = await shared;
          return { spec, language, query, grammarHash: sha256 };
        })();
        p.catch(() => loaded.delete(spec.id));
        loaded.set(spec.id, p);
      }
      return p;
    },
  };
}

/** Captures of patterns whose matches extraction keeps only at full depth (calls, local bindings). */
const DEEP_CAPTURE = /^(reference\.call|reference\.new|local\.)/;
/** Captures that make a pattern worth matching at any depth. */
const SHALLOW_CAPTURE = /^(definition\.|reference\.type$|import$)/;

/**
 * For a language indexed below full depth, turns off the query's patterns whose matches extraction
 * would throw away (call sites, local bindings), so tree-sitter never matches them: C's query
 * matched every `call_expression` only for the records to drop it (6.6% of a kernel index, issue
 * 14). The query text, and so the cache key, stays the language's declarative whole.
 */
function disableDeepPatterns(query: Query): void {
  const names = query.captureNames;
  for (let i = 0; i < query.captureQuantifiers.length; i++) {
    const used = names.filter((_, c) => (query.captureQuantifiers[i]?.[c] ?? 0) !== 0);
    if (used.some((n) => DEEP_CAPTURE.test(n)) && !used.some((n) => SHALLOW_CAPTURE.test(n))) query.disablePattern(i);
  }
}
