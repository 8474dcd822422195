/** Launching Debian's Chromium with playwright-core (Playwright cannot download browsers here). */
import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium (`apt-get install chromium`); CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Flags Chromium needs here: no sandbox (containers), no GPU, and no background network traffic. */
export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run",
];

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}
