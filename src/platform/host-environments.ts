/**
 * Host environment profiles: what the runtimes a project's code runs on add to its language (globals such as a server
 * runtime's `process` or a browser's `window`, and the runtimes' own calls that are data-flow sinks). The language
 * files stay runtime-neutral; a front end hands the engine one of these (`EngineOptions.host`), and every platform
 * factory carries `DEFAULT_HOST_ENVIRONMENT` (`Platform.host`), so an engine answers the same by default whichever
 * front end or platform made it. Pure data: no runtime is touched here, only named.
 */
import type { HostEnvironment } from "../shared/host-environment.ts";

/** The languages whose code these hosts run: JavaScript, TypeScript and TSX share the profiles. */
const ECMASCRIPT_LANGUAGES = ["javascript", "typescript", "tsx"] as const;

/** One list for each ECMAScript language. */
function forEcmascript<T>(values: readonly T[]): Readonly<Record<string, readonly T[]>> {
  return Object.fromEntries(ECMASCRIPT_LANGUAGES.map((id) => [id, values]));
}

/** What every host of JavaScript provides beyond the language (console, URL, encoders, timers' kin, WebAssembly). */
export const COMMON_HOST: HostEnvironment = {
  globals: forEcmascript(
    "console performance crypto WebAssembly URL URLSearchParams TextEncoder TextDecoder AbortController".split(" "),
  ),
};

/** A server runtime's globals (`process`, `global`, `Buffer`) and its own file and process calls that are sinks. */
export const SERVER_HOST: HostEnvironment = {
  globals: forEcmascript(["process", "global", "Buffer"]),
  sinks: forEcmascript([
    { pattern: /^Bun\.spawn$/, kind: "exec" },
    { pattern: /^Bun\.write$/, kind: "file" },
  ]),
};

/** A browser's globals: the window and what hangs off it. */
export const BROWSER_HOST: HostEnvironment = {
  globals: forEcmascript("window document self navigator location history localStorage sessionStorage".split(" ")),
};

/** The profiles in one: each language's lists concatenated in order, duplicates dropped. */
export function mergeHostEnvironments(...profiles: readonly HostEnvironment[]): HostEnvironment {
  const merge = <T>(pick: (p: HostEnvironment) => Readonly<Record<string, readonly T[]>> | undefined) => {
    const out: Record<string, T[]> = {};
    for (const p of profiles) {
      for (const [id, values] of Object.entries(pick(p) ?? {})) {
        const list = (out[id] ??= []);
        for (const v of values) if (!list.includes(v)) list.push(v);
      }
    }
    return out;
  };
  return { globals: merge((p) => p.globals), sinks: merge((p) => p.sinks) };
}

/**
 * The default: code may run on any host (a package's code on a server, in a browser, in both), so every host's globals
 * count. The same set the engine always used.
 */
export const DEFAULT_HOST_ENVIRONMENT: HostEnvironment = mergeHostEnvironments(COMMON_HOST, SERVER_HOST, BROWSER_HOST);
