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

/**
 * This thread's compiled wasm modules (the runtime and each grammar), by the sha256 of their bytes.
 * A `WebAssembly.Module` can be posted to another thread (Node's worker_threads, Web Workers in
 * browsers and Deno), where it shares the same compiled machine code: a parse worker handed the
 * engine's modules neither reads nor compiles the wasm again, and starts on the code V8 already
 * optimized for the engine's thread (it tiers hot functions up once per process, not per thread).
 * Measured on django's query.py with Python's and JavaScript's grammars: a worker's start took
 * ~0.85–0.95 CPU-s on its own modules and ~0.5–0.6 CPU-s on posted ones.
 */
const modules = new Map<string, Promise<WebAssembly.Module>>();

/** Per WasmSource, sha256s of modules posted in by another thread ({@link adoptModules}), used without reading that source. */
const adopted = new WeakMap<WasmSource, Set<string>>();

/**
 * Takes modules compiled by another thread (see {@link sharedModules}), keyed by the sha256 of
 * their bytes, for the runtime of `wasm`: it uses them in place of its own files. A thread that
 * adopts a module trusts the other thread's check of those bytes; the parse worker does so only
 * after its own wasm.lock.json matched the engine's. Other WasmSources are still checked.
 */
export function adoptModules(wasm: WasmSource, given: Readonly<Record<string, WebAssembly.Module>>): void {
  let own = adopted.get(wasm);
  if (!own) adopted.set(wasm, (own = new Set()));
  for (const [sha256, module] of Object.entries(given)) {
    if (!(module instanceof WebAssembly.Module) || own.has(sha256)) continue;
    own.add(sha256);
    if (!modules.has(sha256)) modules.set(sha256, Promise.resolve(module));
  }
}

/**
 * The compiled module of `file` as the lock names it: an adopted one, else the bytes of `wasm`
 * checked against the lock (every WasmSource is checked on its own), compiled once per thread.
 */
async function verifiedModule(wasm: WasmSource, lock: WasmLock, file: string): Promise<{ module: Promise<WebAssembly.Module>; sha256: string }> {
  const listed = lock.files.find((f) => f.file === file)?.sha256;
  const given = listed && adopted.get(wasm)?.has(listed) ? modules.get(listed) : undefined;
  if (given) return { module: given, sha256: listed! };
  const { bytes, sha256 } = await verified(wasm, lock, file);
  let module = modules.get(sha256);
  if (!module) {
    module = WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
    module.catch(() => modules.delete(sha256));
    modules.set(sha256, module);
  }
  return { module, sha256 };
}

/**
 * What to instantiate `file` from: a module compiled in this thread or adopted, when there is one
 * (a run with a parse pool compiled it to post it: this thread then shares the workers' code),
 * else the checked bytes, which web-tree-sitter compiles as it always did (a one-thread run).
 */
async function loadable(wasm: WasmSource, lock: WasmLock, file: string): Promise<{ sha256: string; module?: Promise<WebAssembly.Module>; bytes?: Uint8Array }> {
  const listed = lock.files.find((f) => f.file === file)?.sha256;
  const given = listed && adopted.get(wasm)?.has(listed) ? modules.get(listed) : undefined;
  if (given) return { module: given, sha256: listed! };
  const { bytes, sha256 } = await verified(wasm, lock, file);
  const module = modules.get(sha256);
  return module ? { module, sha256 } : { bytes, sha256 };
}

/**
 * The compiled modules a parse worker needs for `specs` (the runtime and their grammars), keyed by
 * sha256, to post to it (see {@link adoptModules}). Compiling is cheap (V8 compiles functions on
 * first call); what the worker is spared is that and every later tier-up.
 */
export async function sharedModules(wasm: WasmSource, specs: readonly LanguageSpec[]): Promise<Record<string, WebAssembly.Module>> {
  const lock = await loadWasmLock(wasm);
  const out: Record<string, WebAssembly.Module> = {};
  for (const file of ["web-tree-sitter.wasm", ...specs.map((s) => s.grammar)]) {
    const { module, sha256 } = await verifiedModule(wasm, lock, file);
    out[sha256] = await module;
  }
  return out;
}

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
    const source = await loadable(wasm, lock, "web-tree-sitter.wasm");
    if (!source.module) return Parser.init({ wasmBinary: source.bytes });
    const module = await source.module;
    // Emscripten instantiates through this hook and waits for its callback; a failure would leave
    // Parser.init pending forever, so it rejects the race instead.
    let failed!: (error: unknown) => void;
    const failure = new Promise<never>((_, reject) => (failed = reject));
    const instantiateWasm = (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
      WebAssembly.instantiate(module, imports).then((instance) => done(instance, module), failed);
      return {};
    };
    await Promise.race([Parser.init({ instantiateWasm } as Parameters<typeof Parser.init>[0]), failure]);
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
          const { module, bytes, sha256 } = await loadable(wasm, lock, spec.grammar);
          // The same grammar bytes and query text compile once per thread, whichever WasmSource
          // (engine) asks: a TypeScript query costs ~0.2 s to compile.
          const shareKey = `${sha256}\0${spec.fullDepth}\0${spec.query}`;
          let shared = compiled.get(shareKey);
          if (!shared) {
            shared = (async () => {
              let language: Language;
              try {
                language = module ? Language.loadSync(await module) : await Language.load(bytes!);
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
