/** Small text helpers shared by the tools: code fences, citations, counts. */

const FENCE_BY_EXTENSION: Record<string, string> = {
  py: "python", pyi: "python", ts: "ts", mts: "ts", cts: "ts", tsx: "tsx", js: "js", mjs: "js", cjs: "js", jsx: "jsx",
  go: "go", java: "java", rs: "rust", c: "c", h: "c", cc: "cpp", cpp: "cpp", cxx: "cpp", hpp: "cpp", hh: "cpp",
  cs: "csharp", rb: "ruby", php: "php", json: "json", md: "markdown", toml: "toml", yaml: "yaml", yml: "yaml", sh: "bash",
};

/** A fenced code block, with the language guessed from `path`; a longer fence when the body holds one. */
export function fence(path: string, body: string): string {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  const tick = body.includes("```") ? "````" : "```";
  return `${tick}${FENCE_BY_EXTENSION[ext] ?? ""}\n${body}\n${tick}`;
}

/** "1 file" / "3 files". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `path:line` for a citation (the path quoted when it holds a newline, a backslash or a quote). */
export { cite as at } from "../index.ts";
