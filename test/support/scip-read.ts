/** A small protocol-buffers reader for the SCIP an engine writes: fields by number, documents and their occurrences. */
/** A protocol-buffers message as field number → values (varints as numbers, the rest as bytes). */
export type Fields = Map<number, (number | Uint8Array)[]>;

/** Decodes one message's wire format: varint (0), 64-bit (1), length-delimited (2) and 32-bit (5) fields. */
export function decodeMessage(buf: Uint8Array): Fields {
  const out: Fields = new Map();
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 1; ; shift *= 128) {
      if (at >= buf.length) throw new Error("varint runs past the end");
      const b = buf[at++]!;
      value += (b & 0x7f) * shift;
      if (b < 0x80) return value;
    }
  };
  while (at < buf.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const type = key % 8;
    let value: number | Uint8Array;
    if (type === 0) value = varint();
    else if (type === 2) {
      const n = varint();
      if (at + n > buf.length) throw new Error(`field ${field} runs past the end`);
      value = buf.subarray(at, at + n);
      at += n;
    } else if (type === 1 || type === 5) {
      value = buf.subarray(at, at + (type === 1 ? 8 : 4));
      at += type === 1 ? 8 : 4;
    } else throw new Error(`wire type ${type} of field ${field}`);
    (out.get(field) ?? out.set(field, []).get(field)!).push(value);
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
export const str = (f: Fields, n: number) =>
  f.get(n)?.[0] === undefined ? "" : utf8.decode(f.get(n)![0] as Uint8Array);
export const int = (f: Fields, n: number) => (f.get(n)?.[0] as number | undefined) ?? 0;
export const messages = (f: Fields, n: number) => (f.get(n) ?? []).map((v) => decodeMessage(v as Uint8Array));
/** A packed repeated int32 (or its unpacked form). */
export const ints = (f: Fields, n: number) =>
  (f.get(n) ?? []).flatMap((v) => (typeof v === "number" ? [v] : packedVarints(v)));
function packedVarints(buf: Uint8Array): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 1;
  for (const b of buf) {
    value += (b & 0x7f) * shift;
    shift *= 128;
    if (b < 0x80) {
      out.push(value);
      value = 0;
      shift = 1;
    }
  }
  return out;
}

/** Every document of an index: its path, and its occurrences as [line, start, end], symbol, roles. */
export function scipDocuments(
  parts: Uint8Array[],
): { path: string; occurrences: { range: number[]; symbol: string; roles: number }[]; symbols: string[] }[] {
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return messages(decodeMessage(bytes), 2).map((d) => ({
    path: str(d, 1),
    occurrences: messages(d, 2).map((o) => ({ range: ints(o, 1), symbol: str(o, 2), roles: int(o, 3) })),
    symbols: messages(d, 3).map((si) => str(si, 1)),
  }));
}
