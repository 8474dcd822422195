/**
 * WasmSource reading the package's `wasm/` folder, located from this module's URL: a `file:` URL
 * (a local checkout, node_modules, Deno's npm cache) is read with Deno.readFile, an `http(s):` URL
 * (the module served from a web server or CDN) is fetched.
 */
import { EngineError } from "../../shared/errors.ts";
import type { WasmSource } from "../../core/ports.ts";
import { mapDenoError, missingDenoFlag, requireDeno } from "./deno-api.ts";

// src/platform/deno/ and dist/platform/deno/ both sit three levels below the package root.
const DEFAULT_BASE = new URL("../../../wasm/", import.meta.url);

/** Reads wasm assets from `base` (default: the package's own `wasm/`). */
export class DenoWasmSource implements WasmSource {
  constructor(private readonly base: URL = DEFAULT_BASE) {}

  async load(file: string): Promise<Uint8Array> {
    const url = new URL(file, this.base);
    try {
      if (url.protocol === "file:") return await requireDeno().readFile(url);
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw new Error(`unsupported URL scheme ${url.protocol}`);
      const response = await fetch(url);
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status} for ${url.href}`);
      }
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      // A missing --allow-read / --allow-net is the user's to fix with a flag, not a broken install.
      if (missingDenoFlag(error)) throw mapDenoError(error, url.href);
      throw new EngineError("wasm_missing", `Cannot read ${file} from ${this.base.href}`, {
        hint: "Reinstall codeslice; the wasm/ folder is part of the package.",
        data: { file },
        cause: error,
      });
    }
  }
}
