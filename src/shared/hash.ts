/** Content hashing with Web Crypto, which Node 20, Deno and browsers all provide. */

const encoder = new TextEncoder();

function toHex(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += bytes[i]!.toString(16).padStart(2, "0");
  return out;
}

/**
 * The git blob id of `bytes` (SHA-1 of "blob <size>\0" + bytes). Used as every file's content hash
 * so that a tracked file whose stat matches the git index can reuse the index's id without reading.
 */
export async function gitBlobId(bytes: Uint8Array): Promise<string> {
  const header = encoder.encode(`blob ${bytes.length}\0`);
  const buf = new Uint8Array(header.length + bytes.length);
  buf.set(header, 0);
  buf.set(bytes, header.length);
  return toHex(await crypto.subtle.digest("SHA-1", buf));
}

/** Hex SHA-256 of bytes or a string. */
export async function sha256Hex(input: Uint8Array | string): Promise<string> {
  const bytes = typeof input === "string" ? encoder.encode(input) : input;
  return toHex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}
