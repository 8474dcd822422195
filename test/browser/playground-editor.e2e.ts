/**
 * The playground's code editor in headless Chromium, on the bundled sample: a file from the tree,
 * go to a definition in another file, references, hover, the call hierarchy, copy context (the
 * clipboard read back), back and forward; then the same by keyboard alone at 390 px, and axe-core.
 * One site build and one indexed page per viewport, shared by the steps (CI time stays small).
 */
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clickWord,
  newPage,
  openSite,
  seriousViolations,
  settled,
  shot,
  type Site,
} from "./support/playground-page.ts";

let site: Site;
beforeAll(async () => {
  site = await openSite();
}, 300_000);
afterAll(async () => {
  await site?.close();
});

const text = (page: Page, selector: string) => page.locator(selector).innerText();
const codePath = (page: Page) => page.getByTestId("code-path").innerText();

async function sample(
  width: number,
  height: number,
  { keyboard = false } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const opened = await newPage(site, { viewport: { width, height } });
  await opened.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(site.url).origin });
  await opened.page.goto(site.url);
  if (keyboard) {
    // Tab to "Load the sample project" and press Enter: no click anywhere.
    for (let i = 0; i < 10 && (await opened.page.evaluate(() => document.activeElement?.id)) !== "load-sample"; i++)
      await opened.page.keyboard.press("Tab");
    expect(await opened.page.evaluate(() => document.activeElement?.id)).toBe("load-sample");
    await opened.page.keyboard.press("Enter");
  } else await opened.page.click("#load-sample");
  await opened.page.waitForSelector("body[data-indexed]", { timeout: 60_000 });
  await settled(opened.page);
  await opened.page.waitForSelector("#code-tree button.file");
  return opened;
}

/** Whether the element's box is inside the viewport (at least its top part). */
const inView = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.top < innerHeight && r.bottom > 0;
    });

describe("the playground's code editor", () => {
  it("opens a file from the tree and follows a name to its definition, references, hover, calls and context", async () => {
    const { page, errors } = await sample(1440, 1000);
    // A file from the tree: the whole file, highlighted.
    await page.click('#code-tree button.file[data-path="api/services.py"]');
    await expect.poll(() => codePath(page)).toBe("api/services.py:1");
    const lines = await page.locator(".cm-content .cm-line").count();
    expect(lines).toBeGreaterThan(40);
    expect(await page.locator(".cm-content .tok-keyword, .cm-content span[class^=ͼ]").count()).toBeGreaterThan(10);

    // Go to definition in another file: order_total is called on line 24 and defined in api/pricing.py.
    await clickWord(page, 24, "order_total");
    await page.keyboard.press("F12");
    await expect.poll(() => codePath(page)).toMatch(/^api\/pricing\.py:\d+$/);
    const defLine = Number((await codePath(page)).split(":")[1]);
    expect(
      await page
        .locator(".cm-content .cm-line")
        .nth(defLine - 1)
        .innerText(),
    ).toMatch(/def order_total\(/);
    // The other panels follow the symbol the editor chose.
    await expect.poll(() => page.locator("#target").inputValue()).toBe("api.pricing.order_total");

    // References: the call in services.py is listed, and opens there.
    await page.keyboard.press("Shift+F12");
    await page.waitForSelector("#code-results[data-kind=references]");
    const ref = page.locator('#code-results button[data-path="api/services.py"][data-line="24"]');
    expect(await ref.count()).toBe(1);

    // Hover: the signature and docstring, as `signature` answers (focus went to the list: back to the code).
    await page.locator(".cm-content").focus();
    await page.keyboard.press("Control+k");
    await page.waitForSelector("#code-results[data-kind=hover]");
    expect(await text(page, "#code-results")).toMatch(/def order_total\(order/);

    // A mouse hover over a name shows the same in a tooltip.
    await clickWord(page, defLine, "order_total");
    await page.mouse.move(1, 1);
    const box = await page.locator(".cm-cursor").first().boundingBox();
    await page.mouse.move(box!.x + 6, box!.y + box!.height / 2);
    await expect
      .poll(
        () =>
          page
            .locator(".cm-tooltip-hover")
            .innerText()
            .catch(() => ""),
        { timeout: 10_000 },
      )
      .toMatch(/def order_total\(order/);

    // Call hierarchy: callers in, callees out.
    await page.locator(".cm-content").focus();
    await page.keyboard.press("Shift+Alt+H");
    await page.waitForSelector("#code-results[data-kind=calls]");
    const calls = await text(page, "#code-results");
    expect(calls).toMatch(/Incoming \([1-9]/);
    expect(calls).toContain("api.services.OrderService.quote");

    // Copy context: the clipboard holds the bundle for this symbol.
    await page.locator(".cm-content").focus();
    await page.keyboard.press("Shift+Alt+C");
    await expect
      .poll(() => text(page, "[data-testid=code-status]"))
      .toMatch(/^Copied the context of api\.pricing\.order_total: [\d,]+ tokens\.$/);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain("def order_total(");
    expect(copied).toMatch(/api\/pricing\.py:\d+-\d+/);

    // The reference opens its line; Back returns to the definition, Forward to the reference.
    await ref.click();
    await expect.poll(() => codePath(page)).toBe("api/services.py:24");
    await page.click("#code-back");
    await expect.poll(() => codePath(page)).toBe(`api/pricing.py:${defLine}`);
    await page.click("#code-forward");
    await expect.poll(() => codePath(page)).toBe("api/services.py:24");

    // A search hit and a chunk open in the editor too.
    await page.fill("#search", "check stock");
    await page.locator('#search-results button[data-qualified="api.services.OrderService.check_stock"]').click();
    // The editor was already on services.py (line 24), so wait for the opened line itself, not just the path.
    await expect.poll(() => page.locator(".cm-opened").innerText()).toMatch(/def check_stock\(/);
    expect(await codePath(page)).toMatch(/^api\/services\.py:\d+$/);
    expect(await codePath(page)).not.toBe("api/services.py:24");
    // Back crosses views: from the search hit's place to the reference the editor had open.
    await page.click("#code-back");
    await expect.poll(() => codePath(page)).toBe("api/services.py:24");
    await shot(page, "editor-1440");
    expect(errors).toEqual([]);
  });

  it("works by keyboard alone at 390 px: quick open, references, definition, back; code wraps; no serious axe violation", async () => {
    const { page, errors } = await sample(390, 844, { keyboard: true });
    // Quick open (Ctrl+P): a symbol by name, Enter.
    await page.keyboard.press("Control+p");
    await page.waitForSelector("#quick-open[open]");
    await page.keyboard.type("order_total");
    await page.waitForSelector('#quick-list[data-ready="order_total"] button[data-symbol="api.pricing.order_total"]');
    expect(await seriousViolations(page), "quick open dialog").toEqual([]);
    await page.keyboard.press("Enter");
    await expect.poll(() => codePath(page)).toMatch(/^api\/pricing\.py:\d+$/);
    const defAt = await codePath(page);
    // What opened is in view, and focused.
    expect(await inView(page, ".cm-opened")).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.classList.contains("cm-content"))).toBe(true);
    // Code is readable: wrapped to the width, never scrolled sideways.
    const scroller = await page
      .locator(".code-editor .cm-scroller")
      .evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth }));
    expect(scroller.sw).toBeLessThanOrEqual(scroller.cw + 1);

    // References by key, then Enter on the call in services.py: the cursor lands on the call.
    await page.keyboard.press("Shift+F12");
    await page.waitForSelector('#code-results[data-kind=references] button[data-path="api/services.py"]');
    // Focus moved to the first reference; Tab on until the services.py call is focused.
    for (
      let i = 0;
      i < 10 &&
      !(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.path === "api/services.py"));
      i++
    )
      await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect.poll(() => codePath(page)).toBe("api/services.py:24");
    expect(await inView(page, ".cm-opened")).toBe(true);

    // F12 from there: back in pricing.py; Alt+← returns, Alt+→ goes again.
    await page.keyboard.press("F12");
    await expect.poll(() => codePath(page)).toBe(defAt);
    await page.keyboard.press("Alt+ArrowLeft");
    await expect.poll(() => codePath(page)).toBe("api/services.py:24");
    await page.keyboard.press("Alt+ArrowRight");
    await expect.poll(() => codePath(page)).toBe(defAt);
    await shot(page, "editor-390");

    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
