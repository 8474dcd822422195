/**
 * What the hosts of a project's code add to its languages (`HostEnvironment`), as plain types the ports, the engine,
 * the language files and the platform's profiles all read: the language files name no runtime, the profiles
 * (`src/platform/host-environments.ts`) hold the names.
 */

/** What a data-flow sink does with what reaches it. */
export type SinkKind = "sql" | "exec" | "file" | "html";

/**
 * What the hosts a project's code runs on add to its languages, by language id: the globals a server runtime, a
 * browser or every host defines, and the host's own calls that are data-flow sinks. The language files describe the
 * language, never a runtime; the front ends hand the engine a profile (`EngineOptions.host`, `Platform.host`), by
 * default the one every host of the language makes up (`src/platform/host-environments.ts`).
 */
export interface HostEnvironment {
  /**
   * Globals by language id: a call through a receiver rooted at one the file does not bind is the host's, never linked
   * to a project definition by name alone (`process.stdout.write(…)` is no call of the project's one `write`).
   */
  readonly globals?: Readonly<Record<string, readonly string[]>>;
  /** Data-flow sinks by language id, tried after the language's own (the language's `DataflowRules.sinks`). */
  readonly sinks?: Readonly<Record<string, readonly { pattern: RegExp; kind: SinkKind }[]>>;
}
