// Fallback peak-RSS probe when GNU time is absent (`apt-get install -y time` gives the better one):
// runs the CLI in this process and writes process.resourceUsage().maxRSS (KiB) to a file on exit.
// usage: node rss-wrapper.mjs <rss-out-file> <cli.js> [cli args...]
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const [, , rssFile, cli, ...args] = process.argv;
process.argv = [process.argv[0], cli, ...args];
process.on("exit", () => fs.writeFileSync(rssFile, String(process.resourceUsage().maxRSS)));
await import(pathToFileURL(cli).href);
