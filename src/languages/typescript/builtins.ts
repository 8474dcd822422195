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
 * The globals ECMAScript itself defines (LanguageSpec.globals): its built-in namespaces and constructors. What a host
 * adds (a server runtime's, a browser's, the web platform's every host shares) is the host environment's
 * (`HostEnvironment`), not the language's.
 */
export const JS_GLOBALS: ReadonlySet<string> = new Set(
  (
    "globalThis JSON Math Reflect Atomics Intl Object Array Promise Number String Symbol Date RegExp Error Map Set " +
    "WeakMap WeakSet Proxy BigInt Boolean Function ArrayBuffer Uint8Array"
  ).split(/\s+/),
);
