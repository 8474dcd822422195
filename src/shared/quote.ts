/**
 * Quoting what a user typed inside a message meant for people: between double quotes, as typed.
 * JSON.stringify is for the `--json` output: in a message it doubled every backslash, so a Windows
 * path (`C:\src\app.py`) or a regular expression (`foo\(`) came back as `"C:\\src\\app.py"`, which
 * is neither what was typed nor something to paste back.
 */

/** A control character shown as an escape (`\n`, `\t`, `\u001b`): a message stays on its lines. */
function escaped(c: string): string {
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  if (c === "\t") return "\\t";
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * `text` between double quotes for a human-readable message: backslashes and quotes as typed, only
 * control characters escaped (a newline would break the message's line). A value that is not a
 * string (a number, `undefined` from a caller that did not check) is written as JSON would.
 */
export function quoted(text: unknown): string {
  if (typeof text !== "string") return String(JSON.stringify(text));
  return `"${text.replace(/[\u0000-\u001f\u007f]/g, escaped)}"`;
}
