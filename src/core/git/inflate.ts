/**
 * zlib inflation with the Compression Streams API, which Node 20, Deno and browsers all provide:
 * git stores every object deflated, and the engine may not bring a native zlib or a polyfill.
 */

/** Inflates one complete zlib stream (RFC 1950), as git writes loose objects and pack entries. */
export async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
