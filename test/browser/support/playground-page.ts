/**
 * What the playground's Playwright files share: the built site and a browser (one per file), a
 * page that records its errors, waits on the page's own state attributes, and small projects
 * zipped to disk (Playwright hands a path to Chromium as a real file).
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { buildPlayground } from "./build-playground.ts";
import { launchChromium } from "./chromium.ts";
import { serveStatic } from "./static-server.ts";
import { makeZip } from "./zip-writer.ts";

export interface Site {
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

const SHOTS = fileURLToPath(new URL("../../../test-results/playground/", import.meta.url));

/** A full-page screenshot in test-results/playground/ (for people reading a run, not asserted on). */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
}

/** Builds the playground into a folder of its own, serves it and launches Chromium. */
export async function openSite(): Promise<Site> {
  const served = await serveStatic(await buildPlayground());
  const browser = await launchChromium();
  return {
    url: served.url,
    browser,
    close: async () => {
      await browser.close();
      await served.close();
    },
  };
}

/** A fresh context (no storage from another test) and page; page errors are collected. */
export async function newPage(
  site: Site,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await site.browser.newContext({
    viewport: { width: 1440, height: 1000 },
    serviceWorkers: "block",
    ...options,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Waits until a project has been indexed (or opening failed) and the progress bar is gone. */
export async function settled(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(() => !document.body.dataset.busy, undefined, { timeout });
}

/** Opens `files` as a zip through the file input and waits for the index. */
export async function openZip(page: Page, name: string, files: Record<string, string>): Promise<void> {
  await page.setInputFiles("#file-input", await zipOnDisk(name, files));
  await page.waitForSelector("body[data-indexed]", { timeout: 60_000 });
  await settled(page);
}

/** `files` zipped under one top folder (as GitHub's archives are), written to a temp file. */
export async function zipOnDisk(name: string, files: Record<string, string>): Promise<string> {
  const zip = await makeZip(Object.entries(files).map(([p, data]) => ({ name: `proj/${p}`, data })));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-e2e-")), name);
  fs.writeFileSync(file, zip);
  return file;
}

/** The id (or a description) of the focused element. */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    return el.id
      ? `#${el.id}`
      : `${el.tagName.toLowerCase()}${el.getAttribute("data-qualified") ? `[data-qualified="${el.getAttribute("data-qualified")}"]` : ""}`;
  });
}

/** Clicks `word` in line `line` (1-based) of the file open in the code editor (CodeMirror draws one .cm-line per line). */
export async function clickWord(page: Page, line: number, word: string): Promise<void> {
  const box = await page.evaluate(
    ([n, w]) => {
      const el = document.querySelectorAll(".cm-content .cm-line")[n - 1];
      if (!el) return undefined;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const full = el.textContent ?? "";
      const at = new RegExp(`\\b${w}\\b`).exec(full)?.index;
      if (at === undefined) return undefined;
      let seen = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const len = node.textContent!.length;
        if (at < seen + len) {
          const range = document.createRange();
          range.setStart(node, at - seen);
          range.setEnd(node, Math.min(len, at - seen + w.length));
          const r = range.getBoundingClientRect();
          return { x: r.left + Math.min(r.width / 2, 4), y: r.top + r.height / 2 };
        }
        seen += len;
      }
      return undefined;
    },
    [line, word] as const,
  );
  if (!box) throw new Error(`"${word}" is not on line ${line} of ${await page.getByTestId("code-path").innerText()}`);
  await page.mouse.click(box.x, box.y);
}

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe-core's WCAG 2.1 A/AA violations of impact serious or critical, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() =>
    (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            o: object,
          ): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } }),
  );
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    );
}
