/** A process's output kept within a size: its first part and its last, with a line where bytes were dropped. */

/** Collects byte chunks; keeps the first half of `max` bytes and the last half. */
export class OutputBuffer {
  private head: Uint8Array[] = [];
  private headBytes = 0;
  private tail: Uint8Array[] = [];
  private tailBytes = 0;
  /** Bytes written in all. */
  total = 0;

  constructor(private readonly max: number) {}

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    const room = Math.floor(this.max / 2) - this.headBytes;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
      if (!chunk.length) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const limit = this.max - Math.floor(this.max / 2);
    while (this.tailBytes - this.tail[0]!.length >= limit) this.tailBytes -= this.tail.shift()!.length;
  }

  /** The text kept, decoded as UTF-8, with a marker where bytes were dropped. */
  text(): string {
    const decode = (parts: Uint8Array[]) => new TextDecoder().decode(concat(parts));
    const dropped = this.total - this.headBytes - this.tailBytes;
    return dropped > 0
      ? `${decode(this.head)}\n[… ${dropped} bytes of output left out …]\n${decode(this.tail)}`
      : decode([...this.head, ...this.tail]);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The environment a test runner gets: the caller's, with colours off and CI on (plain, non-interactive output). */
export function runnerEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return {
    ...out,
    CI: "1",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
    PYTEST_ADDOPTS: [out.PYTEST_ADDOPTS, "--color=no"].filter(Boolean).join(" "),
  };
}
