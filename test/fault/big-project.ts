/**
 * A generated project of about 1,000 small files (Python packages and TypeScript modules, each
 * importing and calling into the previous one), big enough that a cold index takes a few seconds
 * and can be interrupted at several points.
 */
export function bigProject(pyFiles = 600, tsFiles = 400): Record<string, string> {
  const files: Record<string, string> = {};
  const pkgs = 20;
  for (let p = 0; p < pkgs; p++) files[`app/pkg${p}/__init__.py`] = "";
  for (let i = 0; i < pyFiles; i++) {
    const pkg = i % pkgs;
    const prev =
      i > 0 ? `from app.pkg${(i - 1) % pkgs}.mod${i - 1} import Service${i - 1}, compute_${i - 1}\n\n\n` : "";
    files[`app/pkg${pkg}/mod${i}.py`] =
      `${prev}class Service${i}:\n    """Service number ${i}."""\n\n    def __init__(self, factor: int = ${i}):\n        self.factor = factor\n\n` +
      `    def handle(self, x: int) -> int:\n        return compute_${i}(x) * self.factor\n\n\n` +
      `def compute_${i}(x: int) -> int:\n    return ${i > 0 ? `compute_${i - 1}(x) + Service${i - 1}().handle(x)` : "x"} + ${i}\n`;
  }
  for (let i = 0; i < tsFiles; i++) {
    const prev = i > 0 ? `import { render${i - 1}, Widget${i - 1} } from "./view${i - 1}";\n\n` : "";
    files[`web/src/view${i}.ts`] =
      `${prev}export interface Props${i} {\n  id: number;\n  label: string;\n}\n\n` +
      `export function render${i}(p: Props${i}): string {\n  return ${i > 0 ? `render${i - 1}(p) + new Widget${i - 1}().draw(p)` : "p.label"} + "${i}";\n}\n\n` +
      `export class Widget${i} {\n  draw(p: Props${i}): string {\n    return render${i}(p);\n  }\n}\n`;
  }
  files["README.md"] = "# generated\n";
  return files;
}
