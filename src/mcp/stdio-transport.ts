/**
 * MCP over stdio, newline-delimited JSON-RPC, that answers bad input instead of dropping it.
 * The SDK's StdioServerTransport ignores a line that is not JSON (the client then waits forever
 * for its answer) and closes the connection when a line passes 10 MB. This one replies with a
 * JSON-RPC error (-32700 parse error, -32600 invalid request, with the id when one can be read),
 * skips an oversized line, keeps serving, and reports the end of stdin as the end of the session.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";

/** Largest line accepted (a request with a 1 MB argument is fine; this is far past any real one). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export class StdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private buffered = 0;
  /** True while skipping the rest of an oversized line. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const line = this.chunks.length ? Buffer.concat([...this.chunks, piece]) : piece;
      this.chunks = [];
      this.buffered = 0;
      this.handleLine(line.toString("utf8").replace(/\r$/, ""));
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || this.skipping) return;
    this.buffered += rest.length;
    if (this.buffered > this.maxLineBytes) {
      this.chunks = [];
      this.buffered = 0;
      this.skipping = true;
      this.reply({ code: -32600, message: `Invalid Request: message longer than ${this.maxLineBytes} bytes` });
      return;
    }
    this.chunks.push(Buffer.from(rest));
  };

  private readonly onEnd = () => void this.close();
  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private handleLine(line: string): void {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.onerror?.(new Error(`unparsable message: ${(error as Error).message}`));
      this.reply({ code: -32700, message: "Parse error: each line must be one JSON-RPC message" });
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      this.onerror?.(new Error("message is not JSON-RPC 2.0"));
      // Responses and notifications get no reply; a request we can name gets one.
      this.reply(
        { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" },
        typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null,
      );
      return;
    }
    try {
      this.onmessage?.(parsed.data);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  /** An error reply; `id` is null when the request's id could not be read (JSON-RPC 2.0 §5). */
  private reply(error: { code: number; message: string }, id: string | number | null = null): void {
    void this.send({ jsonrpc: "2.0", id, error } as unknown as JSONRPCMessage).catch(() => {});
  }

  async start(): Promise<void> {
    this.stdin.on("data", this.onData);
    this.stdin.on("end", this.onEnd);
    this.stdin.on("error", this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.onData);
    this.stdin.off("end", this.onEnd);
    this.stdin.off("error", this.onStreamError);
    this.stdin.pause();
    this.chunks = [];
    this.onclose?.();
  }
}
