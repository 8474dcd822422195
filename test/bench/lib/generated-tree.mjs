// The generated tree the browser benches index: packages of Python modules and TypeScript modules
// that import and call each other, about 30-40 lines each, deterministic (browser-bench.mjs drops
// it on the playground as a zip; browser-store-bench.mjs indexes it in a worker and in Node).
import zlib from "node:zlib";

/** `n` source files (60% Python, 40% TypeScript) plus two manifests, as [path, Buffer] pairs. */
export function generateTree(n) {
  const py = Math.round(n * 0.6);
  const files = [];
  const write = (rel, text) => files.push([rel, Buffer.from(text)]);
  for (let i = 0; i < py; i++) {
    const pkg = `pkg${Math.floor(i / 50)}`;
    const prev = i % 50 === 0 ? undefined : `${pkg}.mod${i - 1}`;
    write(
      `app/${pkg}/mod${i}.py`,
      [
        `"""Module ${i}: records and their processing."""`,
        prev ? `from app.${prev} import Service${i - 1}, helper${i - 1}` : "import os",
        "",
        `def helper${i}(value: int) -> int:`,
        `    """Scale a value (step ${i})."""`,
        prev ? `    return helper${i - 1}(value) + ${i}` : `    return value * 2`,
        "",
        `class Record${i}:`,
        `    def __init__(self, key: str, size: int) -> None:`,
        `        self.key = key`,
        `        self.size = size`,
        "",
        `    def weight(self) -> int:`,
        `        return helper${i}(self.size)`,
        "",
        `class Service${i}${prev ? `(Service${i - 1})` : ""}:`,
        `    """Loads and saves Record${i} objects."""`,
        "",
        `    def load(self, key: str) -> Record${i}:`,
        `        record = Record${i}(key, len(key))`,
        `        self.check(record)`,
        `        return record`,
        "",
        `    def check(self, record: Record${i}) -> bool:`,
        `        return record.weight() > ${i % 7}`,
        "",
        `    def save(self, record: Record${i}) -> str:`,
        `        if not self.check(record):`,
        `            raise ValueError(record.key)`,
        `        return f"{record.key}:{record.weight()}"`,
        "",
      ].join("\n"),
    );
  }
  for (let i = 0; i < n - py; i++) {
    const dirName = `web/src/feature${Math.floor(i / 40)}`;
    const prev = i % 40 === 0 ? undefined : `./view${i - 1}`;
    write(
      `${dirName}/view${i}.ts`,
      [
        `/** View ${i}. */`,
        prev ? `import { render${i - 1}, Store${i - 1} } from "${prev}";` : "",
        "",
        `export interface Item${i} {`,
        "  id: string;",
        "  count: number;",
        "}",
        "",
        `export class Store${i}${prev ? ` extends Store${i - 1}` : ""} {`,
        `  private items: Item${i}[] = [];`,
        "",
        `  add(item: Item${i}): void {`,
        "    this.items.push(item);",
        "  }",
        "",
        "  total(): number {",
        "    return this.items.reduce((n, item) => n + item.count, 0);",
        "  }",
        "}",
        "",
        `export function render${i}(store: Store${i}): string {`,
        prev ? `  const before = render${i - 1}(store);` : '  const before = "";',
        `  return \`\${before}<p>${i}: \${store.total()}</p>\`;`,
        "}",
        "",
        `export function format${i}(item: Item${i}): string {`,
        "  return `${item.id} × ${item.count}`;",
        "}",
        "",
      ].join("\n"),
    );
  }
  write("pyproject.toml", '[project]\nname = "generated"\nversion = "1.0.0"\n');
  write("web/package.json", '{\n  "name": "generated-web",\n  "version": "1.0.0"\n}\n');
  return files;
}

/** A zip archive (deflated entries under one top folder) of `files` ([path, Buffer] pairs). */
export function zipOf(files, top) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [rel, data] of files) {
    const name = Buffer.from(`${top}/${rel}`);
    const body = zlib.deflateRawSync(data);
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x314, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
