// Types for scripts/ensure-chromium.mjs (imported by the TypeScript test support and the unit test).
export declare const SYSTEM_NAMES: string[];

export interface Found {
  path: string;
  /** "CHROMIUM_PATH", "Playwright's browser cache", "<name> on PATH", or the provisioning step's name. */
  source: string;
}

export interface Provisioner {
  name: string;
  /** Logged as "no Chromium found; <describe>…". */
  describe: string;
  applies(): boolean;
  /** The executable it provided, or why not. */
  run(): { path?: string | undefined; error?: string } | undefined;
}

export interface Deps {
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  isExecutable?: (file: string) => boolean;
  /** Where Playwright keeps its Chromium (whether or not it is there). */
  playwrightPath?: () => string | undefined;
  log?: (message: string) => void;
  isRoot?: boolean;
  osRelease?: () => string | undefined;
  /** Runs a command (cmd, args, env) and returns its exit status (a string when it could not run). */
  run?: (cmd: string, args: string[], env: Record<string, string | undefined>) => number | string;
  /** Provisioning steps to try in order; default: Playwright's installer, then Debian's package. */
  provisioners?: Provisioner[];
}

export declare class ChromiumError extends Error {}
export declare function isExecutableFile(file: string, platform?: NodeJS.Platform): boolean;
export declare function playwrightChromiumPath(): string | undefined;
export declare function whichFirst(
  names: string[],
  deps: { env: Record<string, string | undefined>; platform: NodeJS.Platform; isExecutable: (file: string) => boolean },
): { path: string; name: string } | undefined;
export declare function runCommand(
  cmd: string,
  args: string[],
  env: Record<string, string | undefined>,
): number | string;
export declare function findChromium(deps?: Deps): Found | undefined;
export declare function ensureChromium(deps?: Deps): Found;
export declare function defaultProvisioners(deps: Required<Omit<Deps, "provisioners">>): Provisioner[];
