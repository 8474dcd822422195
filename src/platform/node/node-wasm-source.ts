/** WasmSource reading the package's `wasm/` folder, located from this module's URL. */
import { promises as fsp } from "node:fs";
import { fileURLToPath } from "node:url";
import { EngineError } from "../../shared/errors.ts";
import type { WasmSource } from "../../core/ports.ts";

// src/platform/node/ and dist/platform/node/ both sit three levels below the package root.
const DEFAULT_BASE = new URL("../../../wasm/", import.meta.url);

/** Reads wasm assets from `base` (default: the package's own `wasm/`). */
export class NodeWasmSource implements WasmSource {
  constructor(private readonly base: URL = DEFAULT_BASE) {}
  async load(file: string): Promise<Uint8Array> {
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
