// What a run would take on an idle machine with C cores, from CPU seconds that move far less with
// other work on a shared machine than wall time does. Shared by bench:pool and bench:jobs.
//
// The model (a lower bound: perfect spread of the parallel work, no memory-bandwidth limit):
//   * the engine's own (main) thread is serial: reading, hashing, store lookups, decoding records,
//     writing them, the graph; its CPU seconds E bound the wall time from below;
//   * everything else (parse + extraction on the workers, GC, compiler and IO threads) shares the
//     cores; the whole process's CPU seconds over C cores bound it too;
//   * each worker costs a fixed start-up s (a fresh isolate loads the modules, the runtime, the
//     grammars, compiles the queries and warms its JIT), read off two measured settings:
//     s = (CPU with W workers − CPU with 1 job) / W.
// So with C cores and the default C − 1 workers: wall ≥ max(E, (CPU₁ + (C − 1) × s) / C), with E
// the engine thread's CPU measured with a pool (it does not shrink with more workers).
import fs from "node:fs";

const TICK_S = 0.01; // USER_HZ is 100 on Linux

/**
 * CPU seconds (user + sys) of the calling process's main thread, from /proc/self/task/<pid>/stat
 * (Linux only; null elsewhere).
 */
export function mainThreadCpu() {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * TICK_S;
  } catch {
    return null;
  }
}

/** The idle-machine lower bound on wall time: max(engine-thread CPU, process CPU / cores). */
export function idleBound({ mainCpu, cpu, cores }) {
  return Math.max(mainCpu ?? 0, cpu / cores);
}

/** Per-worker CPU start-up, from a 1-job run and a run with `workers` workers. */
export function perWorkerCpu({ cpuOneJob, cpuPool, workers }) {
  return (cpuPool - cpuOneJob) / workers;
}

/**
 * Projected idle-machine wall time on `cores` cores with cores − 1 workers (the default `--jobs`):
 * max(E, (CPU₁ + (cores − 1) × s) / cores). Returns the bound and its two terms.
 */
export function projectCores({ cpuOneJob, mainCpuPool, perWorker, cores }) {
  const workers = Math.max(1, cores - 1);
  const spread = (cpuOneJob + workers * perWorker) / cores;
  return { cores, workers, engineThread: mainCpuPool, spread, wall: Math.max(mainCpuPool, spread) };
}
