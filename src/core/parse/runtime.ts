/**
 * web-tree-sitter from wasm bytes: the runtime is initialised once per process, grammars are
 * loaded on first use, and each file's sha256 is checked against `wasm/wasm.lock.json`.
 */
import type { Language, Parser, Query } from "web-tree-sitter";
import type { LanguageSpec } from "../../languages/types.ts";
import type { WasmSource } from "../ports.ts";
import { EngineError } from "../../shared/errors.ts";
import { sha256Hex } from "../../shared/hash.ts";
import { registerMatchReader } from "./match-reader.ts";

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

async function verified(
  wasm: WasmSource,
  lock: WasmLock,
  file: string,
): Promise<{ bytes: Uint8Array; sha256: string }> {
  const entry = lock.files.find((f) => f.file === file);
  if (!entry)
    throw new EngineError("wasm_missing", `${file} is not listed in wasm/wasm.lock.json`, {
      hint: "Run `npm run wasm:sync`.",
      data: { file },
    });
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
  /** The parser of the current wasm instance (a new one after {@link ParserRuntime.renew}). */
  readonly parser: Parser;
  /**
   * Replaces the wasm instance after a trap (a `WebAssembly.RuntimeError`): tree-sitter's parse
   * recurses on a stack in wasm memory with no guard, and an overflow corrupts the instance, so
   * every later parse in the process failed, a new Parser included (the module is one per
   * instance). Loads a fresh copy of web-tree-sitter; false where the host cannot load a second
   * copy (a bundle that inlined it), and every parse after the trap then fails.
   */
  renew(): Promise<boolean>;
}

type TreeSitterModule = typeof import("web-tree-sitter");

/** One instance of web-tree-sitter's wasm module, with the grammars and queries compiled in it. */
interface Instance {
  module: TreeSitterModule;
  generation: number;
  /**
   * Compiled grammars and queries by grammar sha256, depth and query text. TypeScript and TSX
   * cannot share one: they are two grammars whose node types are numbered differently, and a query
   * is compiled against one grammar's numbering.
   */
  compiled: Map<string, Promise<{ language: Language; query: Query }>>;
}

/** The process's current instance: every runtime moves to a renewed one. */
let current: Promise<Instance> | undefined;
let generations = 0;

/**
 * What a trapped instance made, held for the life of the process: web-tree-sitter deletes a tree,
 * parser or query through a FinalizationRegistry when it is collected, and that call into the dead
 * instance traps again, as an uncaught exception. The wasm memory this holds is the price of one
 * trap (a few MB), paid only by a process that met one.
 */
const graveyard: unknown[] = [];

/** Keeps `objects` of a trapped instance from ever being collected (see `graveyard`). */
export function bury(...objects: unknown[]): void {
  graveyard.push(...objects);
}

async function instantiate(wasm: WasmSource, lock: WasmLock, fresh: boolean): Promise<Instance> {
  let module: TreeSitterModule;
  if (!fresh) {
    // Loaded on first use: a re-index that parses nothing never pays for the module.
    module = await import("web-tree-sitter");
  } else {
    // A second copy needs a module URL of its own: the package's, with a query string.
    const resolve = (import.meta as { resolve?: (specifier: string) => string }).resolve;
    if (typeof resolve !== "function") throw new Error("this host cannot load a second copy of web-tree-sitter");
    module = (await import(
      /* @vite-ignore */ `${resolve("web-tree-sitter")}?instance=${generations + 1}`
    )) as TreeSitterModule;
  }
  const { bytes, sha256 } = await verified(wasm, lock, "web-tree-sitter.wasm");
  // Emscripten makes the options object the module itself: what the match reader reads from.
  const binding = { wasmBinary: bytes };
  await module.Parser.init(binding);
  registerMatchReader(module, binding, sha256);
  return { module, generation: ++generations, compiled: new Map() };
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
  const lock = await loadWasmLock(wasm);
  const first = (current ??= instantiate(wasm, lock, false));
  first.catch(() => {
    if (current === first) current = undefined;
  });
  let instance = await first;
  let parser = new instance.module.Parser();
  let loaded = new Map<string, Promise<LoadedLanguage>>();
  /** Moves to the process's current instance when another runtime renewed it. */
  const sync = async () => {
    const now = await current;
    if (now && now !== instance) {
      instance = now;
      parser = new instance.module.Parser();
      loaded = new Map();
    }
  };
  return {
    get parser() {
      return parser;
    },
    async renew() {
      const dead = instance;
      bury(dead, parser, loaded);
      if ((await current) === dead) {
        const next = instantiate(wasm, lock, true);
        current = next;
        try {
          await next;
        } catch {
          current = Promise.resolve(dead);
          return false;
        }
      }
      await sync();
      return instance !== dead;
    },
    async load(spec) {
      await sync();
      const { module, compiled } = instance;
      let p = loaded.get(spec.id);
      if (!p) {
        p = (async () => {
          const { bytes, sha256 } = await verified(wasm, lock, spec.grammar);
          // The same grammar bytes and query text compile once per instance, whichever WasmSource
          // (engine) asks: a TypeScript query costs ~0.2 s to compile.
          const shareKey = `${sha256}\0${spec.fullDepth}\0${spec.query}`;
          let shared = compiled.get(shareKey);
          if (!shared) {
            shared = (async () => {
              let language: Language;
              try {
                language = await module.Language.load(bytes);
              } catch (error) {
                throw new EngineError(
                  "grammar_incompatible",
                  `Cannot load the ${spec.name} grammar (${spec.grammar})`,
                  {
                    hint: "The grammar's ABI does not match the web-tree-sitter runtime; run `npm run wasm:sync`.",
                    data: { grammar: spec.grammar },
                    cause: error,
                  },
                );
              }
              const query = new module.Query(language, spec.query);
              if (!spec.fullDepth) disableDeepPatterns(query);
              return { language, query };
            })();
            shared.catch(() => compiled.delete(shareKey));
            compiled.set(shareKey, shared);
          }
          const { language, query } = await shared;
          return { spec, language, query, grammarHash: sha256 };
        })();
        const mine = loaded;
        p.catch(() => mine.delete(spec.id));
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
