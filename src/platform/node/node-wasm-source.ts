/** WasmSource reading the package's `wasm/` folder, located from this module's URL. */
import { promises as fsp } from "node:fs";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { EngineError } from "../../shared/errors.ts";
import type { WasmSource } from "../../core/ports.ts";

// src/platform/node/ and dist/platform/node/ both sit three levels below the package root.
const DEFAULT_BASE = new URL("../../../wasm/", import.meta.url);

/**
 * At most this many files to parse, a short-lived process compiles wasm with V8's baseline
 * compiler only (Liftoff). By default V8 also compiles the hot functions of the runtime and the
 * grammar again, optimized (TurboFan), on background threads. For one file that second compile
 * costs more than it saves: the runtime, Python's grammar and query, and a first parse of
 * django's query.py (2,400 lines) took ~0.5 CPU-s with it and ~0.26 without, on a loaded 2-core
 * machine. Liftoff's code runs slower, though: a cold django index took 12% more CPU with
 * `--liftoff-only`, so past a few dozen files the optimizing compile pays for itself.
 */
export const BASELINE_ONLY_MAX_PARSES = 32;

/** Whether this process compiled any wasm through a NodeWasmSource yet (V8's flags are per process). */
let wasmLoaded = false;

/**
 * Whether a run that will parse at most `files` files should turn V8's optimizing wasm compiler
 * off: only in a short-lived process, for a handful of files, and before the process compiled any
 * wasm (V8's flags are per process, and code compiled already keeps its tiers).
 */
export function baselineOnly(shortLived: boolean, files: number, wasmCompiled: boolean): boolean {
  return shortLived && !wasmCompiled && files <= BASELINE_ONLY_MAX_PARSES;
}

/** Options for {@link NodeWasmSource}. */
export interface NodeWasmSourceOptions {
  /**
   * The process runs one command and exits (the CLI): a run that parses at most
   * {@link BASELINE_ONLY_MAX_PARSES} files, before any wasm was compiled in the process, turns
   * V8's optimizing wasm compiler off for the rest of the process (`--liftoff-only`). A
   * long-running host (the MCP server) leaves this off: its later runs may parse many files.
   */
  shortLived?: boolean;
}

/** Reads wasm assets from `base` (default: the package's own `wasm/`). */
export class NodeWasmSource implements WasmSource {
  private readonly shortLived: boolean;
  constructor(
    private readonly base: URL = DEFAULT_BASE,
    options: NodeWasmSourceOptions = {},
  ) {
    this.shortLived = options.shortLived ?? false;
  }

  expectParses(files: number): void {
    if (baselineOnly(this.shortLived, files, wasmLoaded)) setFlagsFromString("--liftoff-only");
  }

  async load(file: string): Promise<Uint8Array> {
    if (file.endsWith(".wasm")) wasmLoaded = true;
    const url = new URL(file, this.base);
    try {
      const buf = await fsp.readFile(fileURLToPath(url));
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } catch (error) {
      throw new EngineError("wasm_missing", `Cannot read ${file} from ${fileURLToPath(this.base)}`, {
        hint: "Reinstall codeslice; the wasm/ folder is part of the package.",
        data: { file },
        cause: error,
      });
    }
  }
}
