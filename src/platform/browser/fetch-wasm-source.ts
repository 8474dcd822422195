/**
 * WasmSource over `fetch` from an explicit base URL. Bundlers move and rename files, so nothing
 * here guesses a location: the host says where it serves the `wasm/` folder.
 */
import { EngineError } from "../../shared/errors.ts";
import type { WasmSource } from "../../core/ports.ts";

/** Fetches `wasm/` files from `base` (a URL ending in "/"; relative URLs resolve against the page or worker). */
export class FetchWasmSource implements WasmSource {
  readonly base: URL;
  private readonly cache = new Map<string, Promise<Uint8Array>>();

  constructor(
    base: string | URL,
    private readonly fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  ) {
    const href = typeof base === "string" ? base : base.href;
    const here = (globalThis as { location?: { href: string } }).location?.href;
    this.base = new URL(href.endsWith("/") ? href : `${href}/`, here);
  }

  load(file: string): Promise<Uint8Array> {
    // The engine asks for the lock once per language; grammars it loads once, and a grammar that
    // failed its hash check must be fetched afresh on a retry, so only the lock is kept.
    if (file !== "wasm.lock.json") return this.fetchOnce(file);
    let p = this.cache.get(file);
    if (!p) {
      p = this.fetchOnce(file);
      p.catch(() => this.cache.delete(file));
      this.cache.set(file, p);
    }
    return p;
  }

  private async fetchOnce(file: string): Promise<Uint8Array> {
    if (!/^[A-Za-z0-9._-]+$/.test(file)) {
      throw new EngineError("wasm_missing", `Not a file of the wasm folder: ${file}`, { data: { file } });
    }
    const url = new URL(file, this.base);
    let response: Response;
    try {
      response = await this.fetchImpl(url.href);
    } catch (error) {
      throw new EngineError("wasm_missing", `Cannot fetch ${file} from ${this.base.href} (network error)`, {
        hint: "Check the connection, or that the wasm/ folder is served at that address.",
        data: { file, url: url.href },
        cause: error,
      });
    }
    if (!response.ok) {
      throw new EngineError("wasm_missing", `Cannot fetch ${file} from ${this.base.href} (HTTP ${response.status})`, {
        hint: "Serve the package's wasm/ folder at that address (copy it into the site's build).",
        data: { file, url: url.href, status: response.status },
      });
    }
    return new Uint8Array(await response.arrayBuffer());
  }
}
