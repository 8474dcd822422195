/**
 * Random damage to a cache folder, as disks, crashes, sync tools and people do it: truncation,
 * flipped bytes, foreign content, deletion, a folder where a file was and a file where a folder
 * was, and JSON of the wrong shape (raw, and sealed so it passes the checksum and reaches the shape
 * check). Only the index data (`v<N>/…`) is damaged: the tag and .gitignore have their own tests.
 * Uses node:fs only, so the same code damages a cache under Deno.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { seal, unseal } from "../../src/core/engine/seal.ts";
import type { Rng } from "./fixture.ts";
import { SCHEMA_VERSION } from "../../src/core/engine/snapshot.ts";
import { encodePack } from "../../src/platform/store-pack.ts";
import { packsIn } from "../support/packs.ts";

/** The cache's version folder (v<schema>). */
const V = `v${SCHEMA_VERSION}`;

interface Entries {
  files: string[];
  folders: string[];
}

/** Files and folders of the index data under `dir` (relative POSIX paths), sorted for replay. */
function entries(dir: string): Entries {
  const out: Entries = { files: [], folders: [] };
  const walk = (rel: string) => {
    for (const e of fs
      .readdirSync(path.join(dir, rel), { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && !/^v\d+$/.test(e.name)) continue; // CACHEDIR.TAG, .gitignore
      if (e.isDirectory()) {
        out.folders.push(key);
        walk(key);
      } else out.files.push(key);
    }
  };
  walk("");
  return out;
}

const enc = new TextEncoder();

/** JSON values that are valid JSON and the wrong shape for any stored value. */
const WRONG_JSON = [
  "{}",
  "[]",
  "null",
  "0",
  '"snapshot"',
  '{"schema":16}',
  '{"schema":16,"createdAt":1,"scanMode":"walk","files":{},"skipped":[]}',
  '{"language":"python"}',
];

/**
 * Fields `checkSnapshot` / `checkRecord` vouch for, as paths with array indices written `N`. A
 * wrong type anywhere else (an optional field the checks do not look at) is a separate case.
 */
const CHECKED_FIELDS: Record<string, string[]> = {
  // checkSnapshot
  files: ["path", "size", "mtimeMs", "hash", "language", "record", "definitions", "diagnostics"],
  skipped: ["path", "reason"],
  contentSkips: ["path", "reason"],
  // checkRecord
  definitions: [
    "name",
    "qualified",
    "kind",
    "signature",
    "exported",
    "parent",
    "start",
    "end",
    "nameLine",
    "bodyStart",
  ],
  imports: ["kind", "module", "line", "scope"],
  calls: ["name", "kind", "line", "caller"],
  typeRefs: ["name", "line", "scope"],
  bindings: ["kind", "name", "line", "scope"],
  diagnostics: ["line", "message"],
  // checkScanCache (scan.json): each folder, input stamp and unwalked path as a whole
  dirs: [],
  inputs: [],
  unwalked: [],
};
const CHECKED = new RegExp(
  `^(schema|createdAt|scanMode|language|hash|lines|version|key|mode|${Object.keys(CHECKED_FIELDS).join("|")})$|` +
    Object.entries(CHECKED_FIELDS)
      .map(([list, fields]) => (fields.length ? `^${list}\\.N(\\.(${fields.join("|")}))?$` : `^${list}\\.N$`))
      .join("|"),
);
/** Cross-references: an index out of range is the wrong shape too. */
const REFERENCE = new Set(["parent", "scope", "caller"]);

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * One node the shape checks cover, replaced by a value of another JSON type (or, for a
 * cross-reference, an index out of range), or a required field removed: a value every check must
 * reject. Returns a description of the change.
 */
function reshapeChecked(value: unknown, rand: Rng): string {
  const nodes: { parent: Record<string, unknown> | unknown[]; key: string | number; at: string }[] = [];
  const walk = (v: unknown, at: string) => {
    if (v === null || typeof v !== "object") return;
    const kids: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [k, x] of kids) {
      const p = at ? `${at}.${typeof k === "number" ? "N" : k}` : String(k);
      if (CHECKED.test(p))
        nodes.push({ parent: v as Record<string, unknown>, key: k, at: at ? `${at}.${k}` : String(k) });
      walk(x, p);
    }
  };
  walk(value, "");
  // A value none of the checks looks inside (a new kind of stored value): the wrong type as a whole.
  if (nodes.length === 0) return "no checked field; left as it was";
  const node = rand.pick(nodes);
  const holder = node.parent as Record<string | number, unknown>;
  const old = holder[node.key];
  // Optional fields (a snapshot file's hash/record, a record's counts) may be absent: replace those.
  const optional = new Set(["hash", "language", "record", "definitions", "diagnostics", "contentSkips"]);
  if (rand.chance(0.2) && !Array.isArray(node.parent) && !optional.has(node.key as string)) {
    delete holder[node.key as string];
    return `removed ${node.at}`;
  }
  const options: unknown[] = [null, "x", true, [], {}, [0]];
  if (typeof old !== "number") options.push(2.5);
  if (REFERENCE.has(String(node.key))) options.push(1_000_000, -2);
  if (node.key === "scanMode") options.push("svn");
  const replacement = rand.pick(
    options.filter(
      (r) =>
        typeOf(r) !== typeOf(old) ||
        (REFERENCE.has(String(node.key)) && typeof r === "number") ||
        node.key === "scanMode",
    ),
  );
  holder[node.key] = replacement;
  return `${node.at} = ${JSON.stringify(replacement)}`;
}

/**
 * For a pack of records (`v<N>/records/*.pack`): one of its values, picked at random, rewritten
 * through `edit` with the pack's table kept valid, so the damage reaches the engine's own checks
 * (the seal, the shape) rather than the pack's CRC. Undefined when `full` is not a readable pack.
 */
function editPackValue(full: string, rand: Rng, edit: (value: Uint8Array) => Uint8Array): string | undefined {
  if (!full.endsWith(".pack")) return undefined;
  const pack = packsIn(path.dirname(full)).find((p) => p.file === full);
  const values = pack?.ops.filter((op) => op.value) ?? [];
  if (!pack || values.length === 0) return undefined;
  const target = rand.pick(values);
  const ops = pack.ops.map((op) => (op === target ? { key: op.key, value: edit(op.value!) } : op));
  fs.writeFileSync(full, encodePack(pack.seq, ops));
  return target.key;
}

export type DamageOp =
  | "truncate"
  | "flip"
  | "empty-object"
  | "random-bytes"
  | "append"
  | "delete"
  | "file-to-folder"
  | "folder-to-file"
  | "delete-folder"
  | "wrong-json"
  | "wrong-shape-sealed";

/**
 * Damages the cache folder `dir` with 1–3 random operations; returns what was done (for the
 * failure message). The snapshot is the target a third of the time, records and folders otherwise.
 */
export function damageCache(dir: string, rand: Rng, ops: readonly DamageOp[] = ALL_OPS): string[] {
  const done: string[] = [];
  const count = 1 + rand.int(3);
  for (let i = 0; i < count; i++) {
    const { files, folders } = entries(dir);
    let op = rand.pick(ops);
    if (op === "folder-to-file" || op === "delete-folder") {
      if (folders.length === 0) op = "delete";
    } else if (files.length === 0) op = folders.length ? "folder-to-file" : "delete";
    const snapshot = files.find((f) => f.endsWith("/snapshot.json"));
    const file = snapshot && rand.chance(1 / 3) ? snapshot : rand.pick(files.length ? files : [`${V}/snapshot.json`]);
    const full = path.join(dir, file);
    switch (op) {
      case "truncate": {
        const size = fs.statSync(full).size;
        const len = rand.chance(0.3) ? 0 : rand.int(Math.max(1, size));
        fs.truncateSync(full, len);
        done.push(`truncate ${file} to ${len}`);
        break;
      }
      case "flip": {
        const bytes = fs.readFileSync(full);
        const n = 1 + rand.int(4);
        for (let k = 0; k < n && bytes.length > 0; k++) {
          const at = rand.int(bytes.length);
          bytes[at] = bytes[at]! ^ (1 << rand.int(8));
        }
        fs.writeFileSync(full, bytes);
        done.push(`flip ${n} bit(s) in ${file}`);
        break;
      }
      case "empty-object":
        fs.writeFileSync(full, "{}");
        done.push(`write {} to ${file}`);
        break;
      case "random-bytes": {
        const n = rand.int(300);
        fs.writeFileSync(full, rand.bytes(n));
        done.push(`write ${n} random bytes to ${file}`);
        break;
      }
      case "append": {
        fs.appendFileSync(full, rand.bytes(1 + rand.int(20)));
        done.push(`append bytes to ${file}`);
        break;
      }
      case "delete":
        if (files.length) {
          fs.rmSync(full);
          done.push(`delete ${file}`);
        } else done.push("nothing to delete");
        break;
      case "file-to-folder":
        fs.rmSync(full);
        fs.mkdirSync(full);
        if (rand.chance(0.5)) fs.writeFileSync(path.join(full, "inner.json"), "{}");
        done.push(`replace ${file} by a folder`);
        break;
      case "folder-to-file": {
        // Any folder, the version folder included: the engine's concurrent writes through it must
        // repair it one at a time (see cache-bugs.test.ts, the folder race).
        if (folders.length === 0) {
          fs.rmSync(full, { recursive: true });
          done.push(`delete ${file}`);
          break;
        }
        const folder = rand.pick(folders);
        fs.rmSync(path.join(dir, folder), { recursive: true });
        fs.writeFileSync(path.join(dir, folder), rand.chance(0.5) ? rand.bytes(rand.int(64)) : "{}");
        done.push(`replace folder ${folder} by a file`);
        break;
      }
      case "delete-folder": {
        const folder = rand.pick(folders);
        fs.rmSync(path.join(dir, folder), { recursive: true });
        done.push(`delete folder ${folder}`);
        break;
      }
      case "wrong-json": {
        const text = rand.pick(WRONG_JSON);
        const value = rand.chance(0.5) ? enc.encode(text) : seal(enc.encode(text));
        const key = editPackValue(full, rand, () => value);
        if (key !== undefined) {
          done.push(`write ${text} (${text.length} chars, maybe sealed) to ${key} in ${file}`);
          break;
        }
        fs.writeFileSync(full, value);
        done.push(`write ${text} (${text.length} chars, maybe sealed) to ${file}`);
        break;
      }
      case "wrong-shape-sealed": {
        let change = "";
        const key = editPackValue(full, rand, (bytes) => {
          const inner = unseal(bytes);
          if (!inner) return seal(enc.encode("[]"));
          const value = JSON.parse(new TextDecoder().decode(inner)) as unknown;
          change = reshapeChecked(value, rand);
          return seal(enc.encode(JSON.stringify(value)));
        });
        if (key !== undefined) {
          done.push(`sealed wrong shape in ${key} in ${file}: ${change || "sealed []"}`);
          break;
        }
        const inner = unseal(new Uint8Array(fs.readFileSync(full)));
        if (!inner) {
          fs.writeFileSync(full, seal(enc.encode("[]")));
          done.push(`write sealed [] to already damaged ${file}`);
          break;
        }
        let value: unknown;
        try {
          value = JSON.parse(new TextDecoder().decode(inner));
        } catch {
          // A sealed binary value (the derived data, core/engine/derived.ts): a byte changed under a good seal.
          const at = rand.int(inner.length);
          const changed = inner.slice();
          changed[at] = changed[at]! ^ 0x5a;
          fs.writeFileSync(full, seal(changed));
          done.push(`sealed binary ${file} with byte ${at} changed`);
          break;
        }
        const reshaped = reshapeChecked(value, rand);
        fs.writeFileSync(full, seal(enc.encode(JSON.stringify(value))));
        done.push(`sealed wrong shape in ${file}: ${reshaped}`);
        break;
      }
    }
  }
  return done;
}

export const ALL_OPS: readonly DamageOp[] = [
  "truncate",
  "flip",
  "empty-object",
  "random-bytes",
  "append",
  "delete",
  "file-to-folder",
  "folder-to-file",
  "delete-folder",
  "wrong-json",
  "wrong-shape-sealed",
];
