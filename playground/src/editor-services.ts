/**
 * What the playground's code editor asks of the engine, as one small interface: the files, a
 * file's text, and what a position names (definition, references, hover, call hierarchy). Today it
 * is answered from the engine worker's existing requests (`query`, `signature`, `snippet`); a
 * language server answering over worker messages can stand behind the same interface.
 */
import type { WorkerEngine } from "../../src/worker/worker-client.ts";

/** A place in a file: 1-based line, 0-based column (where known). */
export interface Place {
  path: string;
  line: number;
  column?: number;
  /** The symbol defined or used there (qualified name), when known. */
  symbol?: string;
  /** The name to put the cursor on in that line (the called name, or the symbol's own). */
  name?: string;
  /** How sure the engine is of the edge that led here (0-1), when it came from a call edge. */
  confidence?: number;
}

/** A position in an open file and the identifier under it. */
export interface Position {
  path: string;
  line: number;
  column: number;
  word: string;
}

/** A call hierarchy around one symbol: who calls it (with the call line) and what it calls. */
export interface CallHierarchy {
  symbol: Place & { symbol: string };
  incoming: (Place & { symbol: string })[];
  outgoing: (Place & { symbol: string })[];
}

/** The editor's questions. Every answer is plain data; an unknown name answers empty, not an error. */
export interface EditorServices {
  /** Indexed source files, sorted. */
  files(signal?: AbortSignal): Promise<string[]>;
  /** A whole file's text (at most `maxLines` lines) and whether it was cut. */
  read(path: string, signal?: AbortSignal): Promise<{ text: string; capped: boolean }>;
  /** The definitions the identifier at `at` names (resolved call edges first, then same-named symbols). */
  definition(at: Position, signal?: AbortSignal): Promise<Place[]>;
  /** The call sites of the symbol at `at`. */
  references(at: Position, signal?: AbortSignal): Promise<Place[]>;
  /** The symbol's signature and docstring as an agent reads them. */
  hover(at: Position, signal?: AbortSignal): Promise<{ symbol: string; text: string } | undefined>;
  /** Callers and callees of the symbol at `at`. */
  callHierarchy(at: Position, signal?: AbortSignal): Promise<CallHierarchy | undefined>;
}

/** Most lines the editor shows of one file. */
export const MAX_FILE_LINES = 20_000;

const q = (s: string) => JSON.stringify(s);
const IDENT = /^[A-Za-z_$][\w$]*$/;

/** Editor services from the engine worker's own requests. */
export function workerEditorServices(engine: WorkerEngine): EditorServices {
  const rows = async (text: string, signal?: AbortSignal) =>
    (await engine.query(text, { budget: 50_000, ...(signal ? { signal } : {}) })).rows;
  const places = (r: unknown[][]): Place[] => {
    const seen = new Set<string>();
    const out: Place[] = [];
    for (const [symbol, path, line, confidence] of r) {
      const key = `${symbol}@${path}:${line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        symbol: String(symbol),
        path: String(path),
        line: Number(line),
        ...(typeof confidence === "number" ? { confidence } : {}),
      });
    }
    return out;
  };

  async function definition(at: Position, signal?: AbortSignal): Promise<Place[]> {
    if (!IDENT.test(at.word)) return [];
    // A call on this line to a symbol of this name: the graph already resolved it.
    const called = places(
      await rows(
        `MATCH (a:Symbol)-[c:CALLS]->(b:Symbol) WHERE c.path = ${q(at.path)} AND c.line = ${at.line} AND b.name = ${q(at.word)} RETURN b.qualified, b.path, b.line, c.confidence ORDER BY c.confidence DESC LIMIT 20`,
        signal,
      ),
    );
    if (called.length) return called;
    // The name defined here, or (an import, a type use) every symbol of that name, this file's first.
    const named = places(
      await rows(`MATCH (s:Symbol) WHERE s.name = ${q(at.word)} RETURN s.qualified, s.path, s.line LIMIT 50`, signal),
    );
    const here = named.filter((p) => p.path === at.path && p.line === at.line);
    if (here.length) return here;
    return named.sort((a, b) => Number(b.path === at.path) - Number(a.path === at.path));
  }

  async function symbolAt(at: Position, signal?: AbortSignal): Promise<Place | undefined> {
    return (await definition(at, signal))[0];
  }

  return {
    async files(signal) {
      const r = await rows("MATCH (f:File) RETURN f.path ORDER BY f.path LIMIT 1000", signal);
      return r.map((x) => String(x[0]));
    },
    async read(path, signal) {
      const s = await engine.snippet(path, 1, MAX_FILE_LINES, {
        maxLines: MAX_FILE_LINES,
        ...(signal ? { signal } : {}),
      });
      return { text: s.text, capped: s.capped && s.end >= s.start + MAX_FILE_LINES - 1 };
    },
    definition,
    async references(at, signal) {
      const target = await symbolAt(at, signal);
      if (!target) return [];
      const r = await rows(
        `MATCH (a:Symbol)-[c:CALLS]->(b:Symbol {qualified: ${q(target.symbol!)}}) RETURN a.qualified, c.path, c.line, c.confidence ORDER BY c.path, c.line LIMIT 500`,
        signal,
      );
      return places(r).map((p) => ({ ...p, name: at.word }));
    },
    async hover(at, signal) {
      const target = await symbolAt(at, signal);
      if (!target) return undefined;
      const s = await engine.signature(target.symbol!, signal ? { signal } : {});
      return { symbol: target.symbol!, text: s.text };
    },
    async callHierarchy(at, signal) {
      const target = await symbolAt(at, signal);
      if (!target) return undefined;
      const symbol = target.symbol!;
      const [incoming, outgoing] = await Promise.all([
        rows(
          `MATCH (a:Symbol)-[c:CALLS]->(b:Symbol {qualified: ${q(symbol)}}) RETURN a.qualified, c.path, c.line, c.confidence ORDER BY c.path, c.line LIMIT 200`,
          signal,
        ),
        rows(
          `MATCH (a:Symbol {qualified: ${q(symbol)}})-[c:CALLS]->(b:Symbol) RETURN b.qualified, b.path, b.line, c.confidence ORDER BY c.line LIMIT 200`,
          signal,
        ),
      ]);
      return {
        symbol: { ...target, symbol },
        incoming: places(incoming) as CallHierarchy["incoming"],
        outgoing: places(outgoing) as CallHierarchy["outgoing"],
      };
    },
  };
}
