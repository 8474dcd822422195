/**
 * The playground by keyboard alone, in headless Chromium: from a fresh page, Tab to "Open zip or
 * files…" and press Enter (the file chooser the key opens is fed the zip, as a user would pick it),
 * Tab to search and type, Tab to a hit and press Enter, Tab to Copy and press it, open the rendered
 * bundle with Space and Tab into it. No click and no fill: only key presses and typing.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { focused, newPage, openSite, settled, zipOnDisk, type Site } from "./support/playground-page.ts";

const FILES: Record<string, string> = {
  "shop/prices.py": 'def price(cart):\n    """The price of a cart."""\n    return sum(item.cost for item in cart)\n',
  "shop/cart.py":
    "from shop.prices import price\n\n\nclass Cart:\n    def total(self):\n        return price(self.items)\n",
  "shop/checkout.py": "from shop.cart import Cart\n\n\ndef checkout(cart: Cart):\n    return cart.total()\n",
};

let site: Site;
beforeAll(async () => {
  site = await openSite();
}, 300_000);
afterAll(async () => {
  await site?.close();
});

/**
 * Presses Tab (or Shift+Tab) until the focused element is `target` (as `focused` names it); fails
 * after `max` presses, naming where focus went, so a control the keyboard cannot reach is caught.
 */
async function tabTo(page: Page, target: string, { max = 80, back = false } = {}): Promise<void> {
  const path: string[] = [];
  for (let i = 0; i < max; i++) {
    const now = await focused(page);
    if (now === target) return;
    path.push(now);
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  if ((await focused(page)) === target) return;
  throw new Error(
    `${back ? "Shift+Tab" : "Tab"} did not reach ${target} in ${max} presses; focus went: ${path.join(" → ")}`,
  );
}

/** True when the focused element shows a focus ring (an outline that is drawn). */
const ringShown = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.activeElement!);
    return style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  });

describe("the playground by keyboard alone", () => {
  it("opens a zip, searches, picks a hit, and reaches the bundle and its Copy button", async () => {
    const { context, page, errors } = await newPage(site);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(site.url).origin });
    // Listening from the start turns on Playwright's file-chooser interception before the key press.
    const chooser = page.waitForEvent("filechooser", { timeout: 60_000 });
    await page.goto(site.url);

    // Open the zip: Tab to the button, Enter; the chooser that opens gets the file.
    await tabTo(page, "#open-files", { max: 10 });
    expect(await ringShown(page)).toBe(true);
    await page.keyboard.press("Enter");
    await (await chooser).setFiles(await zipOnDisk("shop.zip", FILES));
    await page.waitForSelector("body[data-indexed]", { timeout: 60_000 });
    await settled(page);
    expect(await page.locator("#project-label").innerText()).toBe("shop.zip");

    // Search: Tab to the field and type.
    await tabTo(page, "#search");
    expect(await ringShown(page)).toBe(true);
    await page.keyboard.type("price");
    const hit = '[data-qualified="shop.prices.price"]';
    await page.waitForSelector(`#search-results[data-query="price"] button${hit}`);

    // Pick the hit: Tab into the results, Enter.
    await tabTo(page, `button${hit}`, { max: 25 });
    expect(await ringShown(page)).toBe(true);
    await page.keyboard.press("Enter");
    await page.waitForSelector("body[data-context=ready]");
    expect(await page.locator("#target").inputValue()).toBe("shop.prices.price");
    expect(await page.locator("#chunks li").first().getAttribute("data-symbol")).toBe("shop.prices.price");

    // Copy: Tab on to the Copy button, Enter; the clipboard holds the bundle.
    await tabTo(page, "#copy-bundle");
    expect(await ringShown(page)).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("bundle-status").innerText()).toMatch(/^Copied/);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain("## shop/prices.py:");

    // Read the bundle: Tab to its disclosure, Space opens it, Tab goes into the text.
    await tabTo(page, "summary", { max: 5 });
    await page.keyboard.press("Space");
    expect(await page.locator("#bundle-details").evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("#bundle");
    expect(await ringShown(page)).toBe(true);
    const shown = await page.evaluate(() => document.activeElement!.textContent ?? "");
    expect(shown.trimEnd()).toBe(copied.trimEnd());
    // The places in the bundle are links the keyboard reaches too: Enter on one opens its lines.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement!.classList.contains("where"))).toBe(true);
    const where = await page.evaluate(() => document.activeElement!.textContent ?? "");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#snippet-title").innerText()).toBe(where);
    expect(await page.locator("#snippet").innerText()).toContain("def price(cart):");
    // And back out the way it came.
    await tabTo(page, "#bundle", { back: true, max: 5 });
    await tabTo(page, "#copy-bundle", { back: true, max: 10 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("at 390 px, the first fields Tab reaches after the sources are search and target, before the map", async () => {
    const { context, page } = await newPage(site, { viewport: { width: 390, height: 844 } });
    await page.goto(site.url);
    await tabTo(page, "#load-sample", { max: 10 });
    await page.keyboard.press("Enter");
    await page.waitForSelector("body[data-indexed]", { timeout: 60_000 });
    await settled(page);
    const order: string[] = [];
    for (let i = 0; i < 60 && !order.includes("#target"); i++) {
      await page.keyboard.press("Tab");
      order.push(await focused(page));
    }
    expect(order).toContain("#search");
    expect(order.indexOf("#search")).toBeLessThan(order.indexOf("#target"));
    // Nothing in the map comes before them.
    const mapFocus = await page.evaluate(() => document.getElementById("map")!.contains(document.activeElement));
    expect(mapFocus).toBe(false);
    const before = order.slice(0, order.indexOf("#search"));
    expect(
      before.every((x) => !x.startsWith("button[data-qualified") && x !== "summary"),
      before.join(" → "),
    ).toBe(true);
    await context.close();
  });
});
