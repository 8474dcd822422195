/**
 * Starting test runners on Node: child_process.spawn without a shell, in its own process group so a timeout kills
 * everything it started.
 */
import { spawn } from "node:child_process";
import * as nodePath from "node:path";
import type { ProcessResult, ProcessRunner } from "../../core/ports.ts";
import { OutputBuffer, runnerEnv } from "../output-buffer.ts";

/** A ProcessRunner for one project root. */
export class NodeProcesses implements ProcessRunner {
  constructor(private readonly root: string) {}

  run(
    argv: readonly string[],
    options: { cwd: string; timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal },
  ): Promise<ProcessResult> {
    const started = performance.now();
    const out = new OutputBuffer(options.maxOutputBytes);
    return new Promise((resolve) => {
      const child = spawn(argv[0]!, argv.slice(1), {
        cwd: nodePath.join(this.root, options.cwd),
        shell: false,
        detached: process.platform !== "win32",
        stdio: ["ignore", "pipe", "pipe"],
        env: runnerEnv(process.env),
        windowsHide: true,
      });
      let timedOut = false;
      let notFound = false;
      const kill = () => {
        try {
          // The negative pid is the process group: the runner and every worker it forked.
          if (child.pid !== undefined && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
          else child.kill("SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, options.timeoutMs);
      const onAbort = () => kill();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      child.stdout.on("data", (b: Buffer) => out.push(b));
      child.stderr.on("data", (b: Buffer) => out.push(b));
      child.on("error", (e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") notFound = true;
        else out.push(new TextEncoder().encode(`${e.message}\n`));
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        resolve({
          exitCode: code,
          ...(signal ? { signal } : {}),
          timedOut,
          killScope: process.platform === "win32" ? "process" : "group",
          ...(notFound ? { notFound } : {}),
          output: out.text(),
          outputBytes: out.total,
          durationMs: performance.now() - started,
        });
      });
    });
  }
}
