/**
 * The parse pool: hands files to worker threads (the platform's `ParseWorkers`) and gets each
 * record's stored bytes back. It never fails a file and never waits forever: a worker that dies
 * (crash, out of memory, an entry that does not load) or stays silent past `stallMs` is
 * terminated and every file it held resolves `undefined`, which the indexer answers by parsing
 * that file in its own thread. The records are the same either way; only the thread differs.
 */
import type { Logger, ParseWorkers, WorkerChannel } from "../ports.ts";
import type { ParseJob, ParseReply } from "./parse-worker.ts";

/** One file for the pool. */
export type PoolJob = Omit<ParseJob, "type" | "id">;

/** What the indexer holds. */
export interface ParsePool {
  /** The record's stored bytes, or undefined when the pool could not make them (parse it in-thread). */
  extract(job: PoolJob): Promise<Uint8Array | undefined>;
  /** Terminates the workers; files still waiting resolve undefined. */
  close(): void;
}

/** Options for {@link createParsePool}. */
export interface ParsePoolOptions {
  /** Worker threads to start (on first use). */
  size: number;
  /** A worker holding a file this long without a word is taken for hung (default 60 s). */
  stallMs?: number;
  logger?: Logger;
}

/**
 * Files a worker holds at once: the next one is already there when it finishes one, so it never
 * idles for a round trip; more would only pile text up in a queue the engine can see.
 */
const PER_WORKER = 2;
const DEFAULT_STALL_MS = 60_000;

interface Pending {
  message: ParseJob;
  resolve: (bytes: Uint8Array | undefined) => void;
  timer?: ReturnType<typeof setTimeout>;
}

interface Slot {
  channel: WorkerChannel;
  inFlight: Map<number, Pending>;
  dead: boolean;
}

/** A pool of `options.size` workers from `workers`, started when the first file arrives. */
export function createParsePool(workers: ParseWorkers, options: ParsePoolOptions): ParsePool {
  const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
  const slots: Slot[] = [];
  const queue: Pending[] = [];
  let nextId = 1;
  let started = false;
  let closed = false;
  // A worker that died is replaced, up to one replacement per worker the pool started with: a
  // file that kills every worker it meets then costs a bounded number of threads, not one each.
  let respawns = options.size;
  let warned = false;

  const warn = (why: string) => {
    if (warned) return;
    warned = true;
    options.logger?.log("warn", `a parse worker stopped (${why}); its files are parsed in the engine's thread.`);
  };

  const fail = (slot: Slot, why: string) => {
    if (slot.dead) return;
    slot.dead = true;
    try {
      slot.channel.terminate();
    } catch {
      // already gone
    }
    warn(why);
    for (const p of slot.inFlight.values()) {
      if (p.timer !== undefined) clearTimeout(p.timer);
      p.resolve(undefined);
    }
    slot.inFlight.clear();
    if (!closed && respawns > 0) {
      respawns--;
      spawn();
    }
    pump();
  };

  const spawn = () => {
    let channel: WorkerChannel;
    try {
      channel = workers.spawn();
    } catch (error) {
      warn(`cannot start one: ${(error as Error).message}`);
      return;
    }
    const slot: Slot = { channel, inFlight: new Map(), dead: false };
    slots.push(slot);
    channel.listen(
      (message) => {
        const reply = message as ParseReply;
        const p = slot.inFlight.get(reply?.id);
        if (!p || slot.dead) return;
        slot.inFlight.delete(reply.id);
        if (p.timer !== undefined) clearTimeout(p.timer);
        p.resolve(reply.type === "parsed" && reply.bytes instanceof Uint8Array ? reply.bytes : undefined);
        pump();
      },
      (error) => fail(slot, error.message),
    );
  };

  const pump = () => {
    while (queue.length > 0) {
      let best: Slot | undefined;
      let live = false;
      for (const s of slots) {
        if (s.dead) continue;
        live = true;
        if (s.inFlight.size < PER_WORKER && (!best || s.inFlight.size < best.inFlight.size)) best = s;
      }
      if (!live || closed) {
        for (const p of queue.splice(0)) p.resolve(undefined);
        return;
      }
      if (!best) return;
      const p = queue.shift()!;
      best.inFlight.set(p.message.id, p);
      const slot = best;
      p.timer = setTimeout(() => fail(slot, `no answer in ${stallMs} ms`), stallMs);
      try {
        slot.channel.post(p.message);
      } catch (error) {
        fail(slot, (error as Error).message);
      }
    }
  };

  return {
    extract(job) {
      if (closed) return Promise.resolve(undefined);
      if (!started) {
        started = true;
        for (let i = 0; i < options.size; i++) spawn();
      }
      return new Promise((resolve) => {
        queue.push({ message: { type: "parse", id: nextId++, ...job }, resolve });
        pump();
      });
    },
    close() {
      closed = true;
      for (const p of queue.splice(0)) p.resolve(undefined);
      for (const s of slots) {
        for (const p of s.inFlight.values()) {
          if (p.timer !== undefined) clearTimeout(p.timer);
          p.resolve(undefined);
        }
        s.inFlight.clear();
        if (!s.dead) {
          s.dead = true;
          try {
            s.channel.terminate();
          } catch {
            // already gone
          }
        }
      }
    },
  };
}
