/**
 * The loop inside a parse worker: it loads the runtime and each grammar once, then answers every
 * job with the record's stored bytes (sealed JSON, the buffer transferred, so the reply is one
 * copy-free message rather than a structured clone of the record's object tree).
 */
import { languageById } from "../../languages/index.ts";
import type { WasmSource } from "../ports.ts";
import { createParserRuntime } from "../parse/runtime.ts";
import { sha256Hex } from "../../shared/hash.ts";
import { parseFile } from "./parse-file.ts";
import { storedBytes } from "./snapshot.ts";

/** Engine → worker: parse one file. */
export interface ParseJob {
  type: "parse";
  id: number;
  language: string;
  /**
   * sha256 of the engine's `wasm.lock.json`. A worker whose own lock differs (its host reads
   * another wasm/ folder than the engine's WasmSource) refuses the job: its grammars could make
   * other records than the ones the cache keys promise.
   */
  lock: string;
  path: string;
  hash: string;
  text: string;
}

/** Worker → engine: the stored bytes of the record, or why there are none. */
export type ParseReply =
  | { type: "parsed"; id: number; bytes: Uint8Array }
  | { type: "failed"; id: number; message: string; code?: string };

/** The worker's side of its channel. */
export interface ParseWorkerEndpoint {
  post(message: ParseReply, transfer?: ArrayBuffer[]): void;
  onMessage(handler: (message: unknown) => void): void;
}

/**
 * Serves parse jobs on `endpoint` with grammars from `wasm`, one at a time in arrival order. A job
 * that fails (a grammar that does not load, a parse that throws) is answered `failed`; the engine
 * then parses that file in its own thread, where the failure is reported as in a one-thread run.
 */
export function serveParseWorker(endpoint: ParseWorkerEndpoint, wasm: WasmSource): void {
  let chain: Promise<void> = Promise.resolve();
  let ownLock: Promise<string> | undefined;
  endpoint.onMessage((message) => {
    const job = message as ParseJob;
    if (job?.type !== "parse") return;
    chain = chain.then(async () => {
      try {
        const spec = languageById(job.language);
        if (!spec) throw new Error(`no language ${job.language}`);
        ownLock ??= wasm.load("wasm.lock.json").then(sha256Hex);
        if ((await ownLock) !== job.lock)
          throw Object.assign(new Error("this worker's wasm.lock.json is not the engine's"), { code: "wasm_mismatch" });
        const runtime = await createParserRuntime(wasm);
        const bytes = storedBytes(await parseFile(runtime, spec, job.text, job.path, job.hash));
        endpoint.post({ type: "parsed", id: job.id, bytes }, [bytes.buffer as ArrayBuffer]);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        endpoint.post({
          type: "failed",
          id: job.id,
          message: (error as Error)?.message ?? String(error),
          ...(typeof code === "string" ? { code } : {}),
        });
      }
    });
  });
}
