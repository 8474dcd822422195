/**
 * Mutations of real source files for the fault suite: byte flips, truncation, deletion, and
 * insertions of random bytes, invalid UTF-8, NUL bytes, huge lines, deep bracket nesting,
 * unterminated strings and comments, keywords, odd whitespace and spliced copies of the file's own
 * text. Deterministic for a given generator, so a seed replays.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Rng } from "./fixture.ts";
import { repoRoot } from "./run.ts";

/** The corpus: path in the test project → original bytes. */
export function corpus(): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const add = (dir: string, prefix: string, ext: RegExp, maxBytes: number) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
      if (!e.isFile() || !ext.test(e.name)) continue;
      const full = path.join(e.parentPath, e.name);
      const bytes = fs.readFileSync(full);
      if (bytes.length <= maxBytes)
        out.set(`${prefix}/${path.relative(dir, full).split(path.sep).join("/")}`, new Uint8Array(bytes));
    }
  };
  const debian = "/usr/lib/python3/dist-packages";
  add(path.join(debian, "requests"), "requests", /\.py$/, 40_000);
  add(path.join(debian, "click"), "click", /\.py$/, 40_000);
  if (out.size === 0) add(path.join(repoRoot, "playground", "sample"), "sample", /\.py$/, 40_000);
  add(path.join(repoRoot, "src"), "ts", /\.ts$/, 40_000);
  return out;
}

const enc = new TextEncoder();

/** Byte strings worth inserting. */
function insertion(rand: Rng, original: Uint8Array): { what: string; bytes: Uint8Array } {
  // Binary bytes, invalid UTF-8 and NULs skip the whole file (binary / not UTF-8): rarer than the
  // rest, so most mutated files still reach the parser.
  const kind = rand.chance(0.2) ? rand.int(3) : 3 + rand.int(7);
  switch (kind) {
    case 0:
      return { what: "random bytes", bytes: rand.bytes(1 + rand.int(64)) };
    case 1:
      return {
        what: "invalid UTF-8",
        bytes: Uint8Array.from(
          rand.pick([[0xc3, 0x28], [0xff, 0xfe], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0x80]]),
        ),
      };
    case 2:
      return { what: "NUL bytes", bytes: new Uint8Array(1 + rand.int(8)) };
    case 3: {
      // A long line of code, or one long word (a data literal; its tokens are counted in linear
      // time, see tokenizer-bugs.test.ts).
      if (rand.chance(0.5)) {
        const n = 20_000 + rand.int(100_000);
        return {
          what: `a ${n}-character line of code`,
          bytes: enc.encode("a = f(b) + g(c); ".repeat(Math.ceil(n / 17))),
        };
      }
      const n = 2_000 + rand.int(60_000);
      return {
        what: `a ${n}-character word`,
        bytes: enc.encode(rand.pick(["x", "=", "ab", "Zq9"]).repeat(n).slice(0, n)),
      };
    }
    case 4: {
      const depth = 500 + rand.int(4000);
      const open = rand.pick(["(", "[", "{", "([{", "f(", "[[", "{a:"]);
      return {
        what: `${depth} open brackets`,
        bytes: enc.encode(open.repeat(depth) + (rand.chance(0.5) ? ")]}".repeat(depth) : "")),
      };
    }
    case 5:
      return {
        what: "an unterminated string or comment",
        bytes: enc.encode(rand.pick(['"""never closed', "'", "/* open", "`${", "r'''", '"\\', "#"])),
      };
    case 6: {
      const start = rand.int(original.length);
      return { what: "a spliced copy of its own text", bytes: original.slice(start, start + rand.int(2000)) };
    }
    case 7:
      return {
        what: "keywords",
        bytes: enc.encode(
          rand.pick([
            "\ndef ",
            "\nclass ",
            "function ",
            "export default ",
            "import ",
            "from . import (",
            "async def (",
            "@",
            "lambda",
            "=>",
            "interface X<",
            "\n\tdef f():\n  return\n",
          ]),
        ),
      };
    case 8:
      return {
        what: "CR and odd whitespace",
        bytes: enc.encode(rand.pick(["\r", "\r\n\r", "\t\v\f", "\u2028", "\ufeff", "\u00a0"])),
      };
    default:
      return { what: "deep indentation", bytes: enc.encode(`\n${" ".repeat(1000 + rand.int(5000))}x = 1\n`) };
  }
}

/** `original` with 1–4 random mutations; returns the bytes and what was done. */
export function mutate(original: Uint8Array, rand: Rng): { bytes: Uint8Array; ops: string[] } {
  let bytes = original.slice();
  const ops: string[] = [];
  const count = 1 + rand.int(4);
  for (let i = 0; i < count; i++) {
    const at = rand.int(bytes.length + 1);
    switch (rand.int(5)) {
      case 0: {
        // Mostly the low seven bits, so the text stays ASCII and reaches the parser; a flipped high
        // bit makes invalid UTF-8, which skips the whole file.
        const n = 1 + rand.int(16);
        const high = rand.chance(0.2);
        for (let k = 0; k < n && bytes.length; k++) {
          const at = rand.int(bytes.length);
          const flipped = bytes[at]! ^ (1 << rand.int(high ? 8 : 7));
          bytes[at] = flipped === 0 && !high ? 1 : flipped; // a space with bit 5 flipped is a NUL: binary
        }
        ops.push(`flip ${n} bits${high ? " (high bits too)" : ""}`);
        break;
      }
      case 1:
        bytes = bytes.slice(0, at);
        ops.push(`truncate to ${at}`);
        break;
      case 2: {
        const len = rand.int(500);
        bytes = Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + len)]);
        ops.push(`delete ${len} bytes at ${at}`);
        break;
      }
      default: {
        const ins = insertion(rand, original);
        const out = new Uint8Array(bytes.length + ins.bytes.length);
        out.set(bytes.subarray(0, at));
        out.set(ins.bytes, at);
        out.set(bytes.subarray(at), at + ins.bytes.length);
        bytes = out;
        ops.push(`insert ${ins.what} at ${at}`);
      }
    }
  }
  return { bytes, ops };
}

/** Names defined in the original text: targets for queries (they may be gone after mutation). */
export function namesIn(text: string): string[] {
  return [...text.matchAll(/(?:def|class|function|interface)\s+([A-Za-z_]\w*)/g)].map((m) => m[1]!);
}
