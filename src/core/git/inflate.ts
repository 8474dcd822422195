/**
 * zlib inflation with the Compression Streams API, which Node 20, Deno and browsers all provide:
 * git stores every object deflated, and the engine may not bring a native zlib or a polyfill.
 * Inflation is bounded: a 724 KB loose object can hold 512 MiB of zeros, so the reader inflates a
 * header first, checks the size it declares, and stops any stream that outgrows what it declared.
 */

/** Thrown when a stream inflates to more than its limit; `inflated` is how far it got. */
export class InflateLimitError extends Error {
  constructor(
    readonly limit: number,
    readonly inflated: number,
  ) {
    super(`inflates to more than ${limit} bytes`);
  }
}

/**
 * Inflates one complete zlib stream (RFC 1950), as git writes loose objects and pack entries.
 * Past `limit` bytes it stops and throws {@link InflateLimitError}; with `prefix`, it stops
 * quietly once it holds that many bytes and returns what it has (a header's worth).
 */
export async function inflate(data: Uint8Array, limit = Infinity, prefix = false): Promise<Uint8Array> {
  const reader = new Blob([data as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("deflate"))
    .getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
      if (total >= limit && prefix) break;
      if (total > limit) throw new InflateLimitError(limit, total);
    }
  } finally {
    // Stops the decompressor where it is: nothing past the limit is inflated.
    reader.cancel().catch(() => {});
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
