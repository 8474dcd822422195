/**
 * The CLI's binary files: an index artifact read for `index --import`, an artifact or a SCIP index
 * written for `index --export` and `scip --out`. "-" is stdin or stdout. A file is written next to
 * its final name and renamed into place, so a failed run never leaves half a file under that name.
 * The temporary file is created exclusively (a link planted at its name is never followed), and
 * one of the project's own files is not replaced unless `--force` says so.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { EngineError, type Engine } from "../index.ts";
import { UsageError } from "./output.ts";
import { quoted } from "../shared/quote.ts";

/** The bytes of `file`, or of stdin for "-". A file that cannot be read is a usage error. */
export function readBinary(file: string, what: string): Uint8Array {
  try {
    return new Uint8Array(fs.readFileSync(file === "-" ? 0 : file));
  } catch (error) {
    throw new UsageError(
      `cannot read the ${what} ${file === "-" ? "from stdin" : quoted(file)}: ` +
        `${(error as Error).message.split("\n")[0]}`,
    );
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
  let temp = "";
  let fd: number | undefined;
  try {
    // O_CREAT|O_EXCL ("wx") never opens an existing path, a symbolic link included, and O_NOFOLLOW
    // says so twice; an unguessable name makes a planted one unlikely, and a clash is retried.
    for (let attempt = 0; fd === undefined; attempt++) {
      temp = nodePath.join(
        nodePath.dirname(target),
        `.${nodePath.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
      );
      try {
        fd = fs.openSync(
          temp,
          fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0),
          0o666,
        );
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 4) {
          temp = "";
          throw error;
        }
      }
    }
    for (const part of parts) for (let done = 0; done < part.length; ) done += fs.writeSync(fd, part, done);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(temp, target);
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    // Only a file this run created is removed: never what another process put at a name.
    if (temp) fs.rmSync(temp, { force: true });
    const reason = (error as Error).message.split("\n")[0]!;
    throw new EngineError("io_error", `Cannot write ${target}: ${reason}`, {
      hint: "Pass a path in a folder you can write to.",
      data: { path: target, reason },
      cause: error,
    });
  }
}

/**
 * Refuses to write `file` over one of the project's own files (a source file of the index, or a
 * file git tracks), unless `force`: `index --export src/app.ts` replaced the code with an artifact
 * without a word. "-" and paths outside the root are always allowed.
 */
export async function refuseProjectFile(
  file: string,
  root: string,
  engine: Pick<Engine, "isProjectFile">,
  force: boolean | undefined,
): Promise<void> {
  if (file === "-" || force) return;
  let rel: string;
  try {
    const target = nodePath.resolve(file);
    if (!fs.lstatSync(target).isFile()) return;
    rel = nodePath.relative(
      fs.realpathSync(root),
      nodePath.join(fs.realpathSync(nodePath.dirname(target)), nodePath.basename(target)),
    );
  } catch {
    return; // nothing there yet
  }
  if (rel === "" || rel.startsWith("..") || nodePath.isAbsolute(rel)) return;
  if (await engine.isProjectFile(rel.split(nodePath.sep).join("/"))) {
    throw new UsageError(
      `${file} is a file of the project (${rel}); writing there would replace it. Pass another path, or --force ` +
        `to replace it anyway`,
    );
  }
}
