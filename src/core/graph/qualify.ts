/** Repository-wide qualified names: Python dotted modules, `path#Outer.inner` elsewhere. */

/** The dotted Python module for a file path (`pkg/__init__.py` → `pkg`), or undefined if not Python. */
export function pythonModule(path: string): string | undefined {
  const m = /^(.*)\.pyi?$/.exec(path);
  if (!m) return undefined;
  const parts = m[1]!.split("/");
  if (parts.at(-1) === "__init__") parts.pop();
  return parts.join(".");
}

/** The module pseudo-definition name for a file: what module-level code is attributed to. */
export function moduleName(path: string, language: string): string {
  if (language === "python") return pythonModule(path) ?? path;
  return path;
}

/** The repository-wide qualified name of a definition whose in-file path is `inFile`. */
export function qualifiedName(path: string, language: string, inFile: string): string {
  if (language === "python") {
    const mod = pythonModule(path) ?? path;
    return mod === "" ? inFile : `${mod}.${inFile}`;
  }
  return `${path}#${inFile}`;
}
