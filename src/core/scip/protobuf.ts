/**
 * A protocol-buffers writer for what SCIP needs: varints, booleans, strings, packed int32s and
 * nested messages. Hand-written (about a hundred lines) instead of a dependency and a code
 * generator. A nested message is written in place and its length inserted in front afterwards
 * (one memmove of the message), so no message is built in a buffer of its own.
 */

const encoder = new TextEncoder();

/** Bytes a varint of `value` takes. */
function varintSize(value: number): number {
  let n = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 128)) n++;
  return n;
}

/** Writes protobuf fields into a growing buffer; `take()` hands over what is written so far. */
export class ProtoWriter {
  private buf = new Uint8Array(1 << 16);
  private len = 0;

  /** Bytes written and not yet taken. */
  get length(): number {
    return this.len;
  }

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  /** A varint of a non-negative integer (up to 2^53). */
  private raw(value: number): void {
    this.ensure(10);
    let v = value;
    while (v >= 0x80) {
      this.buf[this.len++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.len++] = v;
  }

  private tag(field: number, wireType: 0 | 2): void {
    this.raw(field * 8 + wireType);
  }

  /** A non-negative integer field (int32 or enum); 0, proto3's default, is left out. */
  int(field: number, value: number): void {
    if (value === 0) return;
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`protobuf field ${field}: ${value} is not a non-negative integer`);
    this.tag(field, 0);
    this.raw(value);
  }

  /** A bool field; false, the default, is left out. */
  bool(field: number, value: boolean): void {
    if (!value) return;
    this.tag(field, 0);
    this.raw(1);
  }

  /** A string field; "" is left out unless `always` (a repeated string keeps its empty entries). */
  string(field: number, value: string, always = false): void {
    if (value === "" && !always) return;
    this.tag(field, 2);
    // UTF-8 takes at most 3 bytes per UTF-16 unit: short strings surely have a 1-byte length.
    const max = value.length * 3;
    const reserve = varintSize(max);
    this.ensure(reserve + max);
    const start = this.len + reserve;
    const { written } = encoder.encodeInto(value, this.buf.subarray(start, start + max));
    this.insertLength(this.len, reserve, written);
  }

  /** A packed repeated int32 field of non-negative values; an empty list is left out. */
  packed(field: number, values: readonly number[]): void {
    if (values.length === 0) return;
    // A negative or fractional number would write a broken varint that the whole index fails on.
    for (const v of values)
      if (!Number.isSafeInteger(v) || v < 0)
        throw new RangeError(`protobuf field ${field}: ${v} is not a non-negative integer`);
    this.message(field, () => {
      for (const v of values) this.raw(v);
    });
  }

  /** A nested message field: `body` writes its fields. Written even when empty (it is present). */
  message(field: number, body: () => void): void {
    this.tag(field, 2);
    const at = this.len;
    const reserve = 1;
    this.ensure(reserve);
    this.len += reserve;
    body();
    this.insertLength(at, reserve, this.len - at - reserve);
  }

  /**
   * Puts the varint `size` at `at`, where `reserved` bytes were left for it and `size` bytes of
   * content follow them, moving the content when the varint needs another width.
   */
  private insertLength(at: number, reserved: number, size: number): void {
    const n = varintSize(size);
    const contentStart = at + reserved;
    if (n !== reserved) {
      this.ensure(n - reserved);
      this.buf.copyWithin(at + n, contentStart, contentStart + size);
    }
    let v = size;
    let i = at;
    while (v >= 0x80) {
      this.buf[i++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[i] = v;
    this.len = at + n + size;
  }

  /** The bytes written since the last `take`, as their own copy; the writer starts empty again. */
  take(): Uint8Array {
    const out = this.buf.slice(0, this.len);
    this.len = 0;
    return out;
  }
}
