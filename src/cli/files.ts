/**
 * The CLI's binary files: an index artifact read for `index --import`, an artifact or a SCIP index
 * written for `index --export` and `scip --out`. "-" is stdin or stdout. A file is written next to
 * its final name and renamed into place, so a failed run never leaves half a file under that name.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { EngineError } from "../index.ts";
import { UsageError } from "./output.ts";

/** The bytes of `file`, or of stdin for "-". A file that cannot be read is a usage error. */
export function readBinary(file: string, what: string): Uint8Array {
  try {
    return new Uint8Array(fs.readFileSync(file === "-" ? 0 : file));
  } catch (error) {
    throw new UsageError(`cannot read the ${what} ${file === "-" ? "from stdin" : JSON.stringify(file)}: ${(error as Error).message.split("\n")[0]}`);
  }
}

/** Writes `parts` one after the other to `file` (atomically), or to stdout for "-". */
export function writeBinary(file: string, parts: Uint8Array[]): void {
  if (file === "-") {
    // Through the stream, not fs.writeSync(1): Node has made a piped stdout non-blocking, so a raw
    // write takes one pipe buffer (64 KiB) and returns; the stream writes the rest as the reader
    // drains it, and the process stays alive until it has.
    for (const part of parts) process.stdout.write(part);
    return;
  }
  const target = nodePath.resolve(file);
  const temp = nodePath.join(nodePath.dirname(target), `.${nodePath.basename(target)}.${process.pid}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, "w");
    for (const part of parts) for (let done = 0; done < part.length; ) done += fs.writeSync(fd, part, done);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temp, target);
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    const reason = (error as Error).message.split("\n")[0]!;
    throw new EngineError("io_error", `Cannot write ${target}: ${reason}`, { hint: "Pass a path in a folder you can write to.", data: { path: target, reason }, cause: error });
  }
}
