/** Launching the tests' Chromium with playwright-core; scripts/ensure-chromium.mjs finds (or provisions) it. */
import { chromium, type Browser } from "playwright-core";
import { ensureChromium } from "../../../scripts/ensure-chromium.mjs";

/**
 * CHROMIUM_PATH if set (`npm test` sets it through scripts/ensure-chromium.mjs), else the same
 * lookup: Playwright's browser cache, then chromium / chromium-browser / google-chrome(-stable) on
 * PATH, then provisioning. Exported to the environment so Vitest's workers reuse it.
 */
export const CHROMIUM_PATH: string = ensureChromium().path;
process.env.CHROMIUM_PATH = CHROMIUM_PATH;
/** Flags Chromium needs here: no sandbox (containers), no GPU, and no background network traffic. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}
