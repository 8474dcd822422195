/** The bundled sample project (playground/sample/), as text files. */
const raw = import.meta.glob("../sample/**/*", { query: "?raw", import: "default", eager: true }) as Record<
  string,
  string
>;

/** `{ "api/app.py": text, … }` */
export const SAMPLE_FILES: Record<string, string> = Object.fromEntries(
  Object.entries(raw).map(([path, text]) => [path.replace(/^\.\.\/sample\//, ""), text]),
);

export const SAMPLE_LABEL = "bookshop (sample)";
