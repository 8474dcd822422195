/**
 * examples/web-ide as a web IDE developer gets it: its own `npm ci` (CI runs it, .ci/run) and its
 * own `npm run build` (Vite, against the built package through `codeslice/worker` and
 * `codeslice/wasm/*` only), served on 127.0.0.1 and driven in headless Chromium by keyboard: the
 * page indexes its sample in the engine worker, F12 on a call goes to the definition in another
 * file, hovering the name shows its docstring, and Shift-F12 lists its references.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCliBuilt, repoRoot } from "../support/cli.ts";
import { launchChromium } from "./support/chromium.ts";
import { serveStatic } from "./support/static-server.ts";

const example = path.join(repoRoot, "examples", "web-ide");
let served: Awaited<ReturnType<typeof serveStatic>>;
let browser: Browser;

beforeAll(async () => {
  ensureCliBuilt(); // the example imports the package's build (dist/), as an installed copy would
  if (!fs.existsSync(path.join(example, "node_modules", "@codemirror", "lsp-client"))) {
    throw new Error("examples/web-ide has no node_modules: run `npm ci --prefix examples/web-ide` (.ci/run does)");
  }
  const built = spawnSync("npm", ["run", "build", "--silent"], { cwd: example, encoding: "utf8", timeout: 240_000 });
  if (built.status !== 0) throw new Error(`the example did not build:\n${built.stdout}\n${built.stderr}`);
  served = await serveStatic(path.join(example, "dist"));
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

/** The cursor as the page's status bar shows it: `path:line:column`. */
const cursor = (page: Page) => page.locator("#position").textContent();

/** Moves the mouse onto `word` in the editor line holding `lineText` (the middle of the word's own box). */
async function hoverWord(page: Page, lineText: string, word: string): Promise<void> {
  const box = await page.evaluate(
    ([lineText, word]) => {
      const line = Array.from(document.querySelectorAll(".cm-line")).find((l) => l.textContent?.includes(lineText));
      const walker = document.createTreeWalker(line!, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(word);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        const r = range.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }
      return undefined;
    },
    [lineText, word] as const,
  );
  if (!box) throw new Error(`no "${word}" on the line "${lineText}"`);
  await page.mouse.move(box.x, box.y);
}

describe("examples/web-ide", () => {
  it("indexes its sample and goes to a definition in another file, with hover and references", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(served.url);
    await page.waitForSelector("body[data-ready]", { timeout: 60_000 });
    expect(await page.locator("#status").textContent()).toMatch(/^Indexed 4 files/);
    expect(await page.locator("#file").textContent()).toBe("shop/views.py");

    // The cursor into `total` of `order.total()`, by keyboard.
    await page.locator(".cm-line", { hasText: "return format_total(order.total())" }).click();
    await page.keyboard.press("End");
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowLeft");
    expect(await cursor(page)).toBe("shop/views.py:7:35");

    await page.keyboard.press("F12");
    await expect.poll(() => page.locator("#file").textContent(), { timeout: 20_000 }).toBe("shop/models.py");
    // On the name of `def total(self)`, line 10.
    await expect.poll(() => cursor(page), { timeout: 10_000 }).toBe("shop/models.py:10:9");

    // Shift-F12 on the definition: the one call site, in views.py.
    await page.keyboard.press("Shift+F12");
    const panel = page.locator(".cm-lsp-reference-panel");
    await expect.poll(() => panel.textContent(), { timeout: 20_000 }).toContain("views.py");

    // Hover `sum_items` on line 13: its signature and docstring.
    await page.keyboard.press("Escape");
    await hoverWord(page, "return sum_items(self.items)", "sum_items");
    await expect
      .poll(() => page.locator(".cm-tooltip-hover").textContent(), { timeout: 20_000 })
      .toContain("Adds up item prices.");
    expect(errors).toEqual([]);
  }, 120_000);
});
