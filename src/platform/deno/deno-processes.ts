/** Starting test runners on Deno: Deno.Command without a shell (needs --allow-run), killed on timeout. */
import { EngineError } from "../../shared/errors.ts";
import type { ProcessResult, ProcessRunner } from "../../core/ports.ts";
import { OutputBuffer, runnerEnv } from "../output-buffer.ts";
import type { DenoApi } from "./deno-api.ts";

/**
 * A ProcessRunner for one project root. Deno.Command cannot start a process group, so a timeout
 * kills the runner itself; a runner that forked workers usually takes them down with it.
 */
export class DenoProcesses implements ProcessRunner {
  constructor(
    private readonly root: string,
    private readonly deno: DenoApi,
  ) {}

  async run(
    argv: readonly string[],
    options: { cwd: string; timeoutMs: number; maxOutputBytes: number; signal?: AbortSignal },
  ): Promise<ProcessResult> {
    const Command = this.deno.Command;
    if (!Command)
      throw new EngineError("run_refused", "This Deno cannot start processes.", { data: { reason: "unsupported" } });
    const started = performance.now();
    const out = new OutputBuffer(options.maxOutputBytes);
    let child;
    try {
      child = new Command(argv[0]!, {
        args: argv.slice(1),
        cwd: options.cwd ? `${this.root}/${options.cwd}` : this.root,
        env: runnerEnv(this.deno.env.toObject()),
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (e) {
      if ((e as { name?: string }).name === "NotFound")
        return { exitCode: null, timedOut: false, notFound: true, output: "", outputBytes: 0, durationMs: 0 };
      throw e;
    }
    let timedOut = false;
    const kill = () => {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    options.signal?.addEventListener("abort", kill, { once: true });
    const drain = async (stream: ReadableStream<Uint8Array>) => {
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) out.push(chunk);
    };
    const [status] = await Promise.all([child.status, drain(child.stdout), drain(child.stderr)]);
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", kill);
    return {
      exitCode: status.signal ? null : status.code,
      ...(status.signal ? { signal: status.signal } : {}),
      timedOut,
      killScope: "process",
      output: out.text(),
      outputBytes: out.total,
      durationMs: performance.now() - started,
    };
  }
}
