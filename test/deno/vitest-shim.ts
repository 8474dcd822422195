/**
 * The part of Vitest's API the project's tests use, on top of `Deno.test`, so the same test files
 * run under `deno test`: test/deno/deno.json maps the `vitest` specifier here.
 *
 * Each top-level `describe` becomes one Deno test and everything inside it a test step, so Deno
 * prints the same tree Vitest does. File-level hooks map onto `Deno.test.beforeAll/afterAll`
 * (per module, like Vitest's per-file scope). Matchers follow Vitest's semantics where the
 * project relies on them: `toEqual` ignores undefined properties but not array/typed-array types,
 * `toMatchObject` matches a recursive subset, asymmetric matchers work inside both, and
 * `rejects`/`resolves` unwrap promises.
 */

// deno-lint-ignore no-explicit-any
type Any = any;
type Fn = () => unknown;
type TestFn = (...args: Any[]) => unknown;
type Mode = "run" | "skip" | "todo";

interface DenoTestContext {
  step(options: {
    name: string;
    fn: (t: DenoTestContext) => unknown;
    ignore?: boolean;
    sanitizeOps?: boolean;
    sanitizeResources?: boolean;
    sanitizeExit?: boolean;
  }): Promise<boolean>;
}
interface DenoTesting {
  test: ((options: {
    name: string;
    fn: (t: DenoTestContext) => unknown;
    ignore?: boolean;
    sanitizeOps?: boolean;
    sanitizeResources?: boolean;
    sanitizeExit?: boolean;
  }) => void) & {
    beforeAll(fn: Fn): void;
    afterAll(fn: Fn): void;
  };
  inspect(
    value: unknown,
    options?: {
      depth?: number;
      colors?: boolean;
      compact?: boolean;
      iterableLimit?: number;
      strAbbreviateSize?: number;
    },
  ): string;
}

const Deno = (globalThis as unknown as { Deno: DenoTesting }).Deno;

/** Vitest's defaults in vitest.config.ts: testTimeout 30 s, hookTimeout 60 s. */
const TEST_TIMEOUT = 30_000;
const HOOK_TIMEOUT = 60_000;

// ---------------------------------------------------------------------------------------------
// Collection: describe() runs its body at once, collecting tests and hooks into a tree.

interface TestCase {
  kind: "test";
  name: string;
  fn: TestFn;
  mode: Mode;
  timeout: number;
}

interface Suite {
  kind: "suite";
  name: string;
  mode: Mode;
  parent: Suite | undefined;
  children: (Suite | TestCase)[];
  beforeAll: Fn[];
  afterAll: Fn[];
  beforeEach: Fn[];
  afterEach: Fn[];
}

const newSuite = (name: string, mode: Mode, parent: Suite | undefined): Suite => ({
  kind: "suite",
  name,
  mode,
  parent,
  children: [],
  beforeAll: [],
  afterAll: [],
  beforeEach: [],
  afterEach: [],
});

const root = newSuite("", "run", undefined);
let current = root;

const NO_SANITIZERS = { sanitizeOps: false, sanitizeResources: false, sanitizeExit: false } as const;

function withTimeout<T>(what: string, ms: number, work: () => T | Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out in ${ms} ms`)), ms);
  });
  return Promise.race([Promise.resolve().then(work), timeout]).finally(() => clearTimeout(timer));
}

async function runHooks(hooks: Fn[], what: string): Promise<void> {
  for (const hook of hooks) await withTimeout(what, HOOK_TIMEOUT, hook);
}

/** beforeEach hooks from the outermost suite in; afterEach from the innermost out. */
function eachHooks(suite: Suite): { before: Fn[]; after: Fn[] } {
  const chain: Suite[] = [];
  for (let s: Suite | undefined = suite; s; s = s.parent) chain.unshift(s);
  return { before: chain.flatMap((s) => s.beforeEach), after: chain.reverse().flatMap((s) => s.afterEach) };
}

async function runTest(test: TestCase, suite: Suite): Promise<void> {
  const { before, after } = eachHooks(suite);
  await runHooks(before, "beforeEach");
  try {
    await withTimeout(`test "${test.name}"`, test.timeout, () => test.fn());
  } finally {
    await runHooks(after, "afterEach");
  }
}

async function runSuite(suite: Suite, t: DenoTestContext): Promise<void> {
  await runHooks(suite.beforeAll, "beforeAll");
  try {
    for (const child of suite.children) {
      const ignore = child.mode !== "run";
      if (child.kind === "test")
        await t.step({ name: child.name, ignore, fn: () => runTest(child, suite), ...NO_SANITIZERS });
      else await t.step({ name: child.name, ignore, fn: (inner) => runSuite(child, inner), ...NO_SANITIZERS });
    }
  } finally {
    await runHooks(suite.afterAll, "afterAll");
  }
}

/** Registers a top-level test or suite with Deno as soon as it is fully collected. */
function register(child: Suite | TestCase): void {
  const ignore = child.mode !== "run";
  if (child.kind === "test") Deno.test({ name: child.name, ignore, fn: () => runTest(child, root), ...NO_SANITIZERS });
  else Deno.test({ name: child.name, ignore, fn: (t) => runSuite(child, t), ...NO_SANITIZERS });
}

function addSuite(name: string, body: () => unknown, mode: Mode): void {
  const parentMode = current.mode;
  const suite = newSuite(name, parentMode === "run" ? mode : parentMode, current);
  current.children.push(suite);
  const previous = current;
  current = suite;
  try {
    const result = body();
    if (result && typeof (result as Promise<unknown>).then === "function") {
      throw new Error(`describe("${name}") returned a promise: collect tests synchronously`);
    }
  } finally {
    current = previous;
  }
  if (previous === root) register(suite);
}

function addTest(name: string, fn: TestFn | undefined, mode: Mode, timeout?: number | { timeout?: number }): void {
  const ms = typeof timeout === "number" ? timeout : (timeout?.timeout ?? TEST_TIMEOUT);
  const test: TestCase = {
    kind: "test",
    name,
    fn: fn ?? (() => {}),
    mode: fn ? (current.mode === "run" ? mode : current.mode) : "todo",
    timeout: ms,
  };
  current.children.push(test);
  if (current === root) register(test);
}

// ---------------------------------------------------------------------------------------------
// Names for .each: printf-style %s %j %d %i %f %o %O %# %%, and $key for object rows.

function show(value: unknown): string {
  return Deno.inspect(value, { depth: 8, colors: false, iterableLimit: 40, strAbbreviateSize: 200 });
}

function formatName(template: string, args: unknown[], index: number): string {
  let i = 0;
  let name = template.replace(/%[sdifjoO#%]/g, (spec) => {
    if (spec === "%%") return "%";
    if (spec === "%#") return String(index);
    const value = args[i++];
    switch (spec) {
      case "%s":
        return typeof value === "string" ? value : show(value);
      case "%d":
      case "%i":
        return String(spec === "%i" ? Math.trunc(Number(value)) : Number(value));
      case "%f":
        return String(Number(value));
      case "%j":
        return JSON.stringify(value);
      default:
        return show(value);
    }
  });
  const row = args[0];
  if (args.length === 1 && row && typeof row === "object" && !Array.isArray(row)) {
    name = name.replace(/\$([\w.]+)/g, (m, key: string) =>
      key in (row as object) ? show((row as Record<string, unknown>)[key]).replace(/^"|"$/g, "") : m,
    );
  }
  return name;
}

function eachOf(add: (name: string, fn: TestFn, timeout?: number) => void) {
  return (table: readonly unknown[]) => (template: string, fn: TestFn, timeout?: number) => {
    table.forEach((row, index) => {
      const args = Array.isArray(row) ? row : [row];
      add(formatName(template, args, index), () => fn(...args), timeout);
    });
  };
}

type ItFn = {
  (name: string, fn?: TestFn, timeout?: number | { timeout?: number }): void;
  skip(name: string, fn?: TestFn, timeout?: number): void;
  only(name: string, fn?: TestFn, timeout?: number): void;
  todo(name: string, fn?: TestFn): void;
  skipIf(condition: unknown): (name: string, fn?: TestFn, timeout?: number) => void;
  runIf(condition: unknown): (name: string, fn?: TestFn, timeout?: number) => void;
  each(table: readonly unknown[]): (name: string, fn: TestFn, timeout?: number) => void;
};

function makeIt(): ItFn {
  const it = ((name: string, fn?: TestFn, timeout?: number | { timeout?: number }) =>
    addTest(name, fn, "run", timeout)) as ItFn;
  it.skip = (name, fn, timeout) => addTest(name, fn, "skip", timeout);
  it.only = (name, fn, timeout) => addTest(name, fn, "run", timeout); // no `only` for steps in Deno: run it
  it.todo = (name) => addTest(name, undefined, "todo");
  it.skipIf = (condition) => (name, fn, timeout) => addTest(name, fn, condition ? "skip" : "run", timeout);
  it.runIf = (condition) => (name, fn, timeout) => addTest(name, fn, condition ? "run" : "skip", timeout);
  it.each = eachOf((name, fn, timeout) => addTest(name, fn, "run", timeout));
  return it;
}

type DescribeFn = {
  (name: string, body: () => unknown): void;
  skip(name: string, body: () => unknown): void;
  only(name: string, body: () => unknown): void;
  todo(name: string, body?: () => unknown): void;
  skipIf(condition: unknown): (name: string, body: () => unknown) => void;
  runIf(condition: unknown): (name: string, body: () => unknown) => void;
  each(table: readonly unknown[]): (name: string, body: (...args: Any[]) => unknown) => void;
};

function makeDescribe(): DescribeFn {
  const d = ((name: string, body: () => unknown) => addSuite(name, body, "run")) as DescribeFn;
  d.skip = (name, body) => addSuite(name, body, "skip");
  d.only = (name, body) => addSuite(name, body, "run");
  d.todo = (name, body) => addSuite(name, body ?? (() => {}), "todo");
  d.skipIf = (condition) => (name, body) => addSuite(name, body, condition ? "skip" : "run");
  d.runIf = (condition) => (name, body) => addSuite(name, body, condition ? "run" : "skip");
  d.each = (table) => (template, body) => {
    table.forEach((row, index) => {
      const args = Array.isArray(row) ? row : [row];
      addSuite(formatName(template, args, index), () => body(...args), "run");
    });
  };
  return d;
}

export const it = makeIt();
export const test = it;
export const describe = makeDescribe();
export const suite = describe;

function addHook(kind: "beforeAll" | "afterAll" | "beforeEach" | "afterEach", fn: Fn): void {
  if (current === root && (kind === "beforeAll" || kind === "afterAll")) {
    // File scope: Deno runs these once per test module, around all of its tests.
    Deno.test[kind](() => withTimeout(kind, HOOK_TIMEOUT, fn));
    return;
  }
  current[kind].push(fn);
}

export const beforeAll = (fn: Fn): void => addHook("beforeAll", fn);
export const afterAll = (fn: Fn): void => addHook("afterAll", fn);
export const beforeEach = (fn: Fn): void => addHook("beforeEach", fn);
export const afterEach = (fn: Fn): void => addHook("afterEach", fn);

// ---------------------------------------------------------------------------------------------
// expect

const ASYMMETRIC = Symbol.for("codeslice.asymmetricMatcher");

interface Asymmetric {
  [ASYMMETRIC]: true;
  asymmetricMatch(actual: unknown): boolean;
  toString(): string;
}

function isAsymmetric(value: unknown): value is Asymmetric {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[ASYMMETRIC] === true;
}

function asymmetric(description: string, match: (actual: unknown) => boolean): Asymmetric {
  return {
    [ASYMMETRIC]: true,
    asymmetricMatch: match,
    toString: () => description,
    [Symbol.for("Deno.customInspect")]: () => description,
  } as Asymmetric;
}

/** Own enumerable keys (strings and symbols); with `dropUndefined`, keys holding undefined are left out. */
function ownKeys(value: object, dropUndefined: boolean): (string | symbol)[] {
  const keys: (string | symbol)[] = [
    ...Object.keys(value),
    ...Object.getOwnPropertySymbols(value).filter((s) => Object.prototype.propertyIsEnumerable.call(value, s)),
  ];
  return dropUndefined ? keys.filter((k) => (value as Record<string | symbol, unknown>)[k] !== undefined) : keys;
}

/** Vitest's `equals`: recursive, asymmetric-aware; `strict` is toStrictEqual. */
function equals(a: unknown, b: unknown, strict = false, seen = new Map<unknown, unknown>()): boolean {
  if (isAsymmetric(b)) return b.asymmetricMatch(a);
  if (isAsymmetric(a)) return a.asymmetricMatch(b);
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.prototype.toString.call(a) !== Object.prototype.toString.call(b)) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof RegExp) return String(a) === String(b);
  if (a instanceof Error && b instanceof Error && (a.name !== b.name || a.message !== b.message)) return false;
  const iterable = Array.isArray(a) || ArrayBuffer.isView(a) || a instanceof Map || a instanceof Set;
  if ((iterable || strict) && (a as object).constructor !== (b as object).constructor) return false;
  if (ArrayBuffer.isView(a)) {
    const x = a as unknown as ArrayLike<unknown>;
    const y = b as unknown as ArrayLike<unknown>;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(a)) {
    const y = b as unknown[];
    if (a.length !== y.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (strict && i in a !== i in y) return false;
      if (!equals(a[i], y[i], strict, seen)) return false;
    }
  }
  if (a instanceof Map) {
    const y = b as Map<unknown, unknown>;
    if (a.size !== y.size) return false;
    for (const [k, v] of a) {
      if (y.has(k)) {
        if (!equals(v, y.get(k), strict, seen)) return false;
      } else if (![...y].some(([k2, v2]) => equals(k, k2, strict, seen) && equals(v, v2, strict, seen))) return false;
    }
    return true;
  }
  if (a instanceof Set) {
    const y = b as Set<unknown>;
    if (a.size !== y.size) return false;
    for (const v of a) if (!y.has(v) && ![...y].some((v2) => equals(v, v2, strict, seen))) return false;
    return true;
  }
  const ka = ownKeys(a, !strict);
  const kb = ownKeys(b, !strict);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!equals((a as Record<string | symbol, unknown>)[k], (b as Record<string | symbol, unknown>)[k], strict, seen))
      return false;
  }
  return true;
}

/** Vitest's toMatchObject: every property of `expected` matches, recursively; arrays element-wise. */
function matchesObject(actual: unknown, expected: unknown): boolean {
  if (isAsymmetric(expected)) return expected.asymmetricMatch(actual);
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => matchesObject(actual[i], e))
    );
  }
  const plain =
    typeof expected === "object" &&
    expected !== null &&
    !(expected instanceof Date) &&
    !(expected instanceof RegExp) &&
    !ArrayBuffer.isView(expected) &&
    !(expected instanceof Map) &&
    !(expected instanceof Set);
  if (!plain) return equals(actual, expected);
  if (typeof actual !== "object" || actual === null) return false;
  for (const k of ownKeys(expected as object, false)) {
    if (!(k in actual)) return false;
    if (
      !matchesObject((actual as Record<string | symbol, unknown>)[k], (expected as Record<string | symbol, unknown>)[k])
    )
      return false;
  }
  return true;
}

function typeMatches(actual: unknown, ctor: unknown): boolean {
  switch (ctor) {
    case String:
      return typeof actual === "string" || actual instanceof String;
    case Number:
      return typeof actual === "number" || actual instanceof Number;
    case Boolean:
      return typeof actual === "boolean" || actual instanceof Boolean;
    case BigInt:
      return typeof actual === "bigint";
    case Symbol:
      return typeof actual === "symbol";
    case Function:
      return typeof actual === "function";
    case Object:
      return typeof actual === "object" && actual !== null;
    default:
      return actual instanceof (ctor as new (...args: unknown[]) => unknown);
  }
}

/** An assertion failure, with the values shown the way Deno shows them. */
class AssertionError extends Error {
  override name = "AssertionError";
}

type Matchers = Record<string, (...args: Any[]) => Any>;

interface ExpectState {
  actual: unknown;
  negate: boolean;
  message: string | undefined;
  /** "rejects"/"resolves": the promise is awaited first, and matchers apply to its outcome. */
  promise: "rejects" | "resolves" | undefined;
}

function makeMatchers(state: ExpectState): Matchers {
  const check = (actual: unknown, pass: boolean, describeFailure: (not: string) => string): void => {
    if (pass === state.negate) {
      const not = state.negate ? "not " : "";
      throw new AssertionError(`${state.message ? `${state.message}: ` : ""}${describeFailure(not)}`);
    }
  };
  const base: Record<string, (actual: unknown, ...args: Any[]) => void> = {
    toBe: (actual, expected) =>
      check(
        actual,
        Object.is(actual, expected),
        (not) =>
          `expected ${show(actual)} ${not}to be ${show(expected)}${!Object.is(actual, expected) && equals(actual, expected) ? " (equal, but not the same object: use toEqual)" : ""}`,
      ),
    toEqual: (actual, expected) =>
      check(actual, equals(actual, expected), (not) => `expected ${show(actual)} ${not}to equal ${show(expected)}`),
    toStrictEqual: (actual, expected) =>
      check(
        actual,
        equals(actual, expected, true),
        (not) => `expected ${show(actual)} ${not}to strictly equal ${show(expected)}`,
      ),
    toMatchObject: (actual, expected) =>
      check(
        actual,
        matchesObject(actual, expected),
        (not) => `expected ${show(actual)} ${not}to match object ${show(expected)}`,
      ),
    toContain: (actual, item) => {
      const pass =
        typeof actual === "string"
          ? actual.includes(String(item))
          : actual instanceof Set
            ? actual.has(item)
            : actual != null && typeof (actual as Iterable<unknown>)[Symbol.iterator] === "function"
              ? [...(actual as Iterable<unknown>)].some((x) => x === item)
              : false;
      check(actual, pass, (not) => `expected ${show(actual)} ${not}to contain ${show(item)}`);
    },
    toContainEqual: (actual, item) =>
      check(
        actual,
        [...(actual as Iterable<unknown>)].some((x) => equals(x, item)),
        (not) => `expected ${show(actual)} ${not}to contain an element equal to ${show(item)}`,
      ),
    toBeUndefined: (actual) =>
      check(actual, actual === undefined, (not) => `expected ${show(actual)} ${not}to be undefined`),
    toBeDefined: (actual) =>
      check(actual, actual !== undefined, (not) => `expected ${show(actual)} ${not}to be defined`),
    toBeNull: (actual) => check(actual, actual === null, (not) => `expected ${show(actual)} ${not}to be null`),
    toBeTruthy: (actual) => check(actual, Boolean(actual), (not) => `expected ${show(actual)} ${not}to be truthy`),
    toBeFalsy: (actual) => check(actual, !actual, (not) => `expected ${show(actual)} ${not}to be falsy`),
    toBeNaN: (actual) => check(actual, Number.isNaN(actual), (not) => `expected ${show(actual)} ${not}to be NaN`),
    toBeGreaterThan: (actual, n) =>
      check(actual, (actual as number) > n, (not) => `expected ${show(actual)} ${not}to be > ${show(n)}`),
    toBeGreaterThanOrEqual: (actual, n) =>
      check(actual, (actual as number) >= n, (not) => `expected ${show(actual)} ${not}to be >= ${show(n)}`),
    toBeLessThan: (actual, n) =>
      check(actual, (actual as number) < n, (not) => `expected ${show(actual)} ${not}to be < ${show(n)}`),
    toBeLessThanOrEqual: (actual, n) =>
      check(actual, (actual as number) <= n, (not) => `expected ${show(actual)} ${not}to be <= ${show(n)}`),
    toBeCloseTo: (actual, n, digits = 2) =>
      check(
        actual,
        Math.abs((actual as number) - n) < 10 ** -digits / 2,
        (not) => `expected ${show(actual)} ${not}to be close to ${show(n)}`,
      ),
    toBeInstanceOf: (actual, ctor) =>
      check(
        actual,
        typeMatches(actual, ctor),
        (not) => `expected ${show(actual)} ${not}to be an instance of ${(ctor as { name?: string })?.name}`,
      ),
    toBeTypeOf: (actual, type) =>
      check(actual, typeof actual === type, (not) => `expected ${show(actual)} ${not}to be of type ${type}`),
    toHaveLength: (actual, n) =>
      check(
        actual,
        (actual as { length?: number })?.length === n,
        (not) => `expected ${show(actual)} ${not}to have length ${n}`,
      ),
    toHaveProperty: (actual, path: string | string[], ...value: unknown[]) => {
      const keys = Array.isArray(path) ? path : path.split(".");
      let cursor: unknown = actual;
      let found = true;
      for (const k of keys) {
        if (cursor == null || !(k in Object(cursor))) {
          found = false;
          break;
        }
        cursor = (cursor as Record<string, unknown>)[k];
      }
      const pass = found && (value.length === 0 || equals(cursor, value[0]));
      check(
        actual,
        pass,
        (not) =>
          `expected ${show(actual)} ${not}to have property ${keys.join(".")}${value.length ? ` = ${show(value[0])}` : ""}`,
      );
    },
    toMatch: (actual, pattern: string | RegExp) => {
      const pass =
        typeof actual === "string" && (typeof pattern === "string" ? actual.includes(pattern) : pattern.test(actual));
      check(actual, pass, (not) => `expected ${show(actual)} ${not}to match ${show(pattern)}`);
    },
    toThrow: (actual, expected?: unknown) => {
      let thrown = false;
      let error: unknown;
      if (state.promise === "rejects") {
        thrown = true;
        error = actual;
      } else {
        if (typeof actual !== "function") throw new AssertionError("toThrow expects a function (or .rejects)");
        try {
          (actual as () => unknown)();
        } catch (e) {
          thrown = true;
          error = e;
        }
      }
      const message = (error as { message?: string })?.message ?? String(error);
      const pass =
        thrown &&
        (expected === undefined ||
          (typeof expected === "string"
            ? message.includes(expected)
            : expected instanceof RegExp
              ? expected.test(message)
              : isAsymmetric(expected)
                ? expected.asymmetricMatch(error)
                : typeof expected === "function"
                  ? error instanceof (expected as new () => unknown)
                  : expected instanceof Error
                    ? message === expected.message
                    : matchesObject(error, expected)));
      check(actual, pass, (not) =>
        thrown
          ? `expected the error ${show(error)} ${not}to match ${show(expected)}`
          : `expected the function ${not}to throw`,
      );
    },
  };
  base.toThrowError = base.toThrow!;

  const matchers: Matchers = {};
  for (const [name, fn] of Object.entries(base)) {
    matchers[name] = (...args: unknown[]) => {
      if (!state.promise) return fn(state.actual, ...args);
      return Promise.resolve(state.actual).then(
        (value) => {
          if (state.promise === "rejects")
            throw new AssertionError(
              `${state.message ? `${state.message}: ` : ""}expected the promise to reject, but it resolved to ${show(value)}`,
            );
          return fn(value, ...args);
        },
        (reason) => {
          if (state.promise === "resolves")
            throw new AssertionError(
              `${state.message ? `${state.message}: ` : ""}expected the promise to resolve, but it rejected with ${show(reason)}`,
            );
          return fn(reason, ...args);
        },
      );
    };
  }
  return matchers;
}

function assertion(
  actual: unknown,
  message: string | undefined,
  negate: boolean,
  promise: ExpectState["promise"],
): Any {
  const m = makeMatchers({ actual, message, negate, promise });
  Object.defineProperty(m, "not", { get: () => assertion(actual, message, !negate, promise) });
  Object.defineProperty(m, "rejects", { get: () => assertion(actual, message, negate, "rejects") });
  Object.defineProperty(m, "resolves", { get: () => assertion(actual, message, negate, "resolves") });
  return m;
}

/** `expect(value, message?)` with Vitest's matchers, plus its asymmetric matchers as properties. */
export const expect = Object.assign(
  (actual: unknown, message?: string) => assertion(actual, message, false, undefined),
  {
    anything: () => asymmetric("Anything", (a) => a !== null && a !== undefined),
    any: (ctor: unknown) => asymmetric(`Any<${(ctor as { name?: string })?.name}>`, (a) => typeMatches(a, ctor)),
    arrayContaining: (items: unknown[]) =>
      asymmetric(
        `ArrayContaining ${show(items)}`,
        (a) => Array.isArray(a) && items.every((i) => a.some((x) => equals(x, i))),
      ),
    objectContaining: (shape: Record<string, unknown>) =>
      asymmetric(
        `ObjectContaining ${show(shape)}`,
        (a) =>
          typeof a === "object" &&
          a !== null &&
          Object.keys(shape).every((k) => k in a && equals((a as Record<string, unknown>)[k], shape[k])),
      ),
    stringContaining: (s: string) =>
      asymmetric(`StringContaining ${show(s)}`, (a) => typeof a === "string" && a.includes(s)),
    stringMatching: (p: string | RegExp) =>
      asymmetric(
        `StringMatching ${show(p)}`,
        (a) => typeof a === "string" && (typeof p === "string" ? a.includes(p) : p.test(a)),
      ),
    closeTo: (n: number, digits = 2) =>
      asymmetric(`CloseTo ${n}`, (a) => typeof a === "number" && Math.abs(a - n) < 10 ** -digits / 2),
  },
);
