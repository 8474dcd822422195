// Preload for a timed CLI run (`node --import <this> cli.js …`): on exit, writes the main thread's
// CPU seconds to the file named by CODESLICE_BENCH_MAIN_CPU. That thread is the engine's; with a
// parse pool it is the serial part of a run (see cores.mjs). Does nothing without the variable.
import fs from "node:fs";
import { mainThreadCpu } from "./cores.mjs";

const out = process.env.CODESLICE_BENCH_MAIN_CPU;
if (out) process.on("exit", () => fs.writeFileSync(out, String(mainThreadCpu())));
