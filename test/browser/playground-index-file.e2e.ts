/**
 * Index files in the playground (built, in headless Chromium): "Save index file" writes the open
 * project's index; in a fresh browser, "Open index file…" before the project is opened makes the
 * index that follows parse nothing; a damaged or foreign file is refused with the engine's message
 * and the open project stays as it was.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, openSite, openZip, settled, type Site } from "./support/playground-page.ts";

const FILES: Record<string, string> = {
  "shop/prices.py": 'def price(cart):\n    """The price of a cart."""\n    return sum(item.cost for item in cart)\n',
  "shop/cart.py":
    "from shop.prices import price\n\n\nclass Cart:\n    def total(self):\n        return price(self.items)\n",
  "web/api.ts": "export function fetchCart(id: string): string {\n  return id.trim();\n}\n",
};

let site: Site;
let dir: string;
beforeAll(async () => {
  site = await openSite();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-index-file-"));
}, 300_000);
afterAll(async () => {
  await site?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const counter = async (page: Page, id: string) => Number(await page.getByTestId(id).innerText());
const message = (page: Page, code: string) => page.locator(`#messages li[data-code="${code}"]`);

/** Saves the open project's index through the button and returns the file's path. */
async function saveIndex(page: Page): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save-index")]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  await settled(page);
  return file;
}

describe("index files in the playground", () => {
  let saved: string;

  it("saves the index of an open project as one .csidx file", async () => {
    const { context, page, errors } = await newPage(site);
    await page.goto(site.url);
    expect(await page.locator("#save-index").isDisabled()).toBe(true);
    await openZip(page, "shop.zip", FILES);
    expect(await counter(page, "parsed-count")).toBe(3);
    saved = await saveIndex(page);
    expect(path.basename(saved)).toBe("shop.zip.csidx");
    // The artifact's magic: \x89CSLICE\n.
    expect([...fs.readFileSync(saved).subarray(0, 8)]).toEqual([0x89, 0x43, 0x53, 0x4c, 0x49, 0x43, 0x45, 0x0a]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("in a fresh browser, an index file picked before the project makes its index parse nothing", async () => {
    const { context, page, errors } = await newPage(site);
    await page.goto(site.url);
    await page.setInputFiles("#index-input", saved);
    await message(page, "index_pending").waitFor();
    await openZip(page, "shop.zip", FILES);
    await message(page, "index_loaded").waitFor();
    expect(await counter(page, "parsed-count")).toBe(0);
    expect(await counter(page, "reused-count")).toBe(3);
    expect(await counter(page, "symbols-count")).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a damaged or foreign file is refused with the engine's message; the project stays open", async () => {
    const { context, page, errors } = await newPage(site);
    await page.goto(site.url);
    await openZip(page, "shop.zip", FILES);
    const symbols = await counter(page, "symbols-count");
    const bytes = fs.readFileSync(saved);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    const damaged = path.join(dir, "damaged.csidx");
    fs.writeFileSync(damaged, bytes);
    await page.setInputFiles("#index-input", damaged);
    await settled(page);
    const corrupt = message(page, "artifact_corrupt");
    await corrupt.waitFor();
    expect(await corrupt.innerText()).toContain("The index file is damaged.");
    const foreign = path.join(dir, "notes.csidx");
    fs.writeFileSync(foreign, "just some text");
    await page.setInputFiles("#index-input", foreign);
    await settled(page);
    await message(page, "artifact_foreign").waitFor();
    expect(await page.locator("#messages li.error").count()).toBe(1); // one error at a time
    expect(await counter(page, "symbols-count")).toBe(symbols);
    expect(await page.locator("body[data-indexed]").count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
