// The Chromium a bench drives, and the CPU of its threads read from /proc (Linux).
import fs from "node:fs";
import { ChromiumError, ensureChromium } from "../../../scripts/ensure-chromium.mjs";

/** The Chromium binary to launch; exits the bench with the reason when there is none. */
export function benchChromium() {
  try {
    return ensureChromium().path;
  } catch (e) {
    if (!(e instanceof ChromiumError)) throw e;
    console.error(`codeslice bench: ${e.message}`);
    process.exit(1);
  }
}

/**
 * Every thread of the processes descended from the one whose command line holds `marker` (a
 * switch Chromium ignores), by "pid/tid": its name and CPU seconds so far.
 */
export function browserThreads(marker) {
  const roots = new Set();
  const parents = new Map();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(text.slice(text.lastIndexOf(")") + 2).split(" ")[1]));
      if (fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").includes(marker)) roots.add(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 16; p = parents.get(p) ?? 0, hops++) if (roots.has(p)) return true;
    return false;
  };
  const out = new Map();
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    let tids;
    try {
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const text = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const comm = text.slice(text.indexOf("(") + 1, text.lastIndexOf(")"));
        const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
        out.set(`${pid}/${tid}`, { comm, cpu: (Number(f[11]) + Number(f[12])) / 100 });
      } catch {
        // ended meanwhile
      }
    }
  }
  return out;
}
