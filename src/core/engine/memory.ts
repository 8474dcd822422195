/**
 * Heap guards: before the engine builds something whose size it can estimate (the records and
 * code graph, the search index), it checks the host's heap. Work that would not fit is refused
 * with `memory_limit` naming the sizes, instead of the process dying out of memory mid-answer
 * (an MCP server under --max-old-space-size=64 died on django's first call).
 */
import type { HeapUsage } from "../ports.ts";
import { EngineError } from "../../shared/errors.ts";

/**
 * Heap per symbol, measured on django (10,253 symbols, Node 20): records 1.6 KB, graph 1.2 KB,
 * search index 0.9 KB; building takes about a third more while it runs.
 */
export const HEAP_PER_SYMBOL = { records: 1_600, graph: 1_200, search: 900 } as const;
const BUILD_OVERHEAD = 1.35;
/** Part of the limit the engine lets itself reach: V8 needs room to collect. */
const USABLE_SHARE = 0.92;

/** Mebibytes, the unit of --max-old-space-size. */
const mb = (bytes: number) => Math.ceil(bytes / 1048576);

/** Throws `memory_limit` when `bytes` more would not fit under the heap limit. */
export function ensureHeadroom(memory: (() => HeapUsage) | undefined, bytes: number, what: string): void {
  if (!memory) return;
  const { used, limit } = memory();
  const needed = bytes * BUILD_OVERHEAD;
  if (used + needed <= limit * USABLE_SHARE) return;
  throw new EngineError(
    "memory_limit",
    `Not enough memory for ${what}: it needs about ${mb(needed)} MiB more, and ${mb(used)} of this process's ` +
      `${mb(limit)} MiB heap are in use.`,
    {
      hint:
        `Give the process more heap (at least ${mb((used + needed) / USABLE_SHARE) + 16} MiB), or index a ` +
        `smaller folder.`,
      data: {
        what,
        neededMiB: mb(needed),
        usedMiB: mb(used),
        limitMiB: mb(limit),
        suggestedMiB: mb((used + needed) / USABLE_SHARE) + 16,
      },
    },
  );
}
