/** Method names of JavaScript's built-in objects; see LanguageSpec.builtinMethods. */
export const JS_BUILTIN_METHODS: ReadonlySet<string> = new Set(
  // Array
  (
    "at concat copyWithin entries every fill filter find findIndex findLast findLastIndex flat flatMap forEach " +
    "includes " +
    "indexOf join keys lastIndexOf map pop push reduce " +
    "reduceRight reverse shift slice some sort splice toLocaleString " +
    "toReversed toSorted toSpliced unshift values with " +
    // String
    "charAt charCodeAt codePointAt endsWith localeCompare match matchAll normalize padEnd padStart repeat replace " +
    ("replaceAll search split startsWith substring substr toLowerCase toUpperCase trim trimEnd trimStart " +
      "toLocaleLowerCase ") +
    "toLocaleUpperCase " +
    // Object, Function, Number, Date, RegExp, JSON, Math, console
    "hasOwnProperty isPrototypeOf propertyIsEnumerable toString valueOf apply bind call toFixed toPrecision " +
    "getTime getFullYear getMonth getDate getDay getHours getMinutes getSeconds getMilliseconds toISOString toJSON " +
    "exec test parse stringify assign create defineProperty freeze getOwnPropertyNames getPrototypeOf setPrototypeOf " +
    "isArray from of log warn error info debug trace abs ceil floor max min pow random round sign sqrt trunc " +
    // Map, Set, WeakMap, Promise, iterators, events, DOM-ish
    "get set has delete clear add then catch finally resolve reject all allSettled race any next return throw " +
    "addEventListener removeEventListener dispatchEvent querySelector querySelectorAll getAttribute setAttribute " +
    "appendChild removeChild"
  ).split(/\s+/),
);

/**
 * Globals JavaScript code meets without binding them (LanguageSpec.hostGlobals): the language's built-in namespaces,
 * the web platform's, and `process`, `global` and `Buffer`, which every server host provides. No runtime's own
 * namespace is named here: the engine knows the language, not the runtimes it runs on.
 */
export const JS_HOST_GLOBALS: ReadonlySet<string> = new Set(
  (
    "process console window document globalThis global self navigator location history localStorage " +
    "sessionStorage performance crypto Buffer JSON Math Reflect Atomics Intl WebAssembly Object Array " +
    "Promise Number String Symbol Date RegExp Error Map Set WeakMap WeakSet Proxy BigInt Boolean Function URL " +
    "URLSearchParams ArrayBuffer Uint8Array TextEncoder TextDecoder AbortController"
  ).split(/\s+/),
);
