#!/usr/bin/env node
// The long tasks of a page's main thread in a Chromium trace (bench:browser with
// CODESLICE_BENCH_TRACE=DIR): each top-level task of 50 ms or more on the renderer's main thread,
// its wall time and its thread (CPU) time, and the events inside it that took the most wall time,
// so a task stretched by a busy machine (thread time far below wall) tells apart from one that
// computes.
// Usage: node test/bench/lib/long-tasks.mjs TRACE.json [--min 50]
import fs from "node:fs";

const [file, ...rest] = process.argv.slice(2);
const min = Number(rest[rest.indexOf("--min") + 1] ?? 50) || 50;
const raw = JSON.parse(fs.readFileSync(file, "utf8"));
const events = Array.isArray(raw) ? raw : raw.traceEvents;
// The renderer main thread(s): thread_name CrRendererMain.
const mains = new Set(
  events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
);
const onMain = events.filter((e) => mains.has(`${e.pid}:${e.tid}`) && e.ph === "X" && typeof e.dur === "number");
const isTask = (e) => e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask";
const all = onMain.filter(isTask);
// Outermost tasks only (Chromium nests RunTask events of one task).
const tasks = all.filter(
  (e) =>
    e.dur >= min * 1000 &&
    !all.some(
      (o) =>
        o !== e &&
        o.ts <= e.ts &&
        o.ts + o.dur >= e.ts + e.dur &&
        (o.ts < e.ts || o.dur > e.dur || all.indexOf(o) < all.indexOf(e)),
    ),
);
const inner = (t) =>
  onMain.filter(
    (e) =>
      e !== t &&
      e.ts >= t.ts &&
      e.ts + e.dur <= t.ts + t.dur &&
      e.dur >= 5000 &&
      e.name !== "RunTask" &&
      e.name !== "ThreadControllerImpl::RunTask",
  );
for (const t of tasks.sort((a, b) => b.dur - a.dur)) {
  const parts = inner(t)
    .sort((a, b) => b.dur - a.dur)
    .slice(0, 8)
    .map((e) => {
      const d = e.args?.data ?? e.args?.beginData ?? {};
      const what = d.url
        ? ` ${String(d.url).split("/").pop()}`
        : d.functionName
          ? ` ${d.functionName}`
          : d.type
            ? ` ${d.type}`
            : "";
      return `${e.name}${what} ${(e.dur / 1000).toFixed(0)}/${((e.tdur ?? 0) / 1000).toFixed(0)}`;
    });
  console.log(
    `task ${(t.dur / 1000).toFixed(0)} ms wall, ${((t.tdur ?? 0) / 1000).toFixed(0)} ms thread: ${parts.join("; ")}`,
  );
}
if (!tasks.length) console.log(`no main-thread task of ${min} ms or more`);
const longest = (key) => Math.max(0, ...all.map((e) => (e[key] ?? 0) / 1000));
console.log(
  `longest main-thread task: ${longest("dur").toFixed(0)} ms wall; most thread time in one task: ${longest("tdur").toFixed(0)} ms`,
);
