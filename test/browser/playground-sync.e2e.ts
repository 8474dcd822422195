/**
 * The playground problems issue 28 lists under "Why", one test each, in headless Chromium: panels
 * that fell out of sync, a bad file that closed the open project, progress that said the wrong
 * thing, what opens at 390 px, cut graph labels, a case typo, several matches as plain text, an
 * empty zip, a zip opened twice, and another project keeping the old search. One site build.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { newPage, openSite, openZip, settled, zipOnDisk, type Site } from "./support/playground-page.ts";
import { makeZip } from "./support/zip-writer.ts";

let site: Site;
beforeAll(async () => {
  site = await openSite();
}, 300_000);
afterAll(async () => {
  await site?.close();
});

const text = (page: Page, selector: string) => page.locator(selector).innerText();
const count = async (page: Page, testid: string) =>
  Number((await page.getByTestId(testid).innerText()).replace(/,/g, ""));

type Opened = Awaited<ReturnType<typeof newPage>>;
/** Pages a test opened, closed after it; the shared one stays for the file. */
const toClose: Opened[] = [];
afterEach(async () => {
  for (const o of toClose.splice(0)) await o.context.close();
});

let shared: Promise<Opened> | undefined;
/** One indexed sample at 1,440 px for the tests that only search and slice (saves an index per test). */
const sharedSample = () => (shared ??= indexedSample());

async function withSample(width = 1440, height = 1000): Promise<Opened> {
  const opened = await indexedSample(width, height);
  toClose.push(opened);
  return opened;
}

async function indexedSample(width = 1440, height = 1000): Promise<Opened> {
  const opened = await newPage(site, { viewport: { width, height } });
  await opened.page.goto(site.url);
  await opened.page.click("#load-sample");
  await opened.page.waitForSelector("body[data-indexed]", { timeout: 60_000 });
  await settled(opened.page);
  return opened;
}

/** Types a target and slices; waits until the context panel has an answer or an error. */
async function slice(page: Page, target: string): Promise<void> {
  await page.fill("#target", target);
  await page.evaluate(() => delete document.body.dataset.context);
  await page.click("#context-form button[type=submit]");
  await page.waitForFunction(
    () => document.body.dataset.context === "ready" || document.body.dataset.context === "error",
  );
  await page.waitForFunction(() => document.body.dataset.graph !== "loading");
}

const SHOP: Record<string, string> = {
  "shop/prices.py": "def price(cart):\n    return sum(item.cost for item in cart)\n",
  "shop/cart.py":
    "from shop.prices import price\n\n\nclass Cart:\n    def total(self):\n        return price(self.items)\n",
};

describe("issue 28: panels follow one selection", () => {
  it("a file target leaves no graph or impact of the symbol before it", async () => {
    const { page, errors } = await sharedSample();
    await slice(page, "api.pricing.order_total");
    await page.waitForSelector('[data-testid=graph-svg] [data-qualified="api.pricing.order_total"]');
    expect(await text(page, "#impact")).toContain("api.pricing.order_total");
    await slice(page, "api/models.py");
    expect(await page.locator("body").getAttribute("data-context")).toBe("ready");
    expect(await page.locator('[data-testid=graph-svg] [data-qualified="api.pricing.order_total"]').count()).toBe(0);
    expect(await text(page, "#impact")).not.toContain("api.pricing.order_total");
    expect(errors).toEqual([]);
  });

  it("a name that matches several symbols clears the graph and impact and lists each match as a link", async () => {
    const { page, errors } = await sharedSample();
    await slice(page, "api.pricing.order_total");
    await page.waitForSelector('[data-testid=graph-svg] [data-qualified="api.pricing.order_total"]');
    await slice(page, "add");
    expect(await page.getByTestId("context-error").getAttribute("data-code")).toBe("ambiguous_symbol");
    expect(await page.locator('[data-testid=graph-svg] [data-qualified="api.pricing.order_total"]').count()).toBe(0);
    expect(await text(page, "#impact")).not.toContain("api.pricing.order_total");
    // Every match is a button that slices it.
    const links = page.locator("[data-testid=context-error] button");
    expect(await links.count()).toBeGreaterThanOrEqual(2);
    const labels = await links.allInnerTexts();
    expect(labels).toContain("api.models.Order.add");
    await links.filter({ hasText: "api.models.Order.add" }).click();
    await page.waitForSelector('[data-testid=graph-svg] [data-qualified="api.models.Order.add"]');
    expect(errors).toEqual([]);
  });

  it("a case typo gets a suggestion that works", async () => {
    const { page } = await sharedSample();
    await slice(page, "Orderservice.place");
    expect(await page.locator("body").getAttribute("data-context")).toBe("error");
    const suggestion = page.locator('[data-testid=context-error] button:text-is("api.services.OrderService.place")');
    await suggestion.waitFor({ timeout: 10_000 });
    await suggestion.click();
    await page.waitForSelector("body[data-context=ready]");
    expect(await page.locator("#target").inputValue()).toBe("api.services.OrderService.place");
  });
});

describe("issue 28: opening projects", () => {
  it("a renamed text file opened as a zip leaves the open project as it was", async () => {
    const { page } = await withSample();
    const mapBefore = await text(page, "#map");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-e2e-")), "notes.zip");
    fs.writeFileSync(file, "These are notes, not an archive.\n".repeat(20));
    await page.setInputFiles("#file-input", file);
    await page.waitForSelector('#messages li.error[data-code="not_a_zip"]');
    await settled(page);
    expect(await text(page, "#project-label")).toBe("bookshop (sample)");
    expect(await text(page, "#map")).toBe(mapBefore);
    // Search and slice still answer from the sample.
    await page.fill("#search", "order total");
    await page.waitForSelector(
      '#search-results[data-query="order total"] button[data-qualified="api.pricing.order_total"]',
    );
    await slice(page, "api.pricing.order_total");
    expect(await page.locator("body").getAttribute("data-context")).toBe("ready");
  });

  it("a damaged zip (a zip's first bytes, then garbage) brings the open project back as it was", async () => {
    const { page } = await withSample();
    const mapBefore = await text(page, "#map");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-e2e-")), "damaged.zip");
    fs.writeFileSync(
      file,
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from("not the rest of a zip\n".repeat(40))]),
    );
    await page.setInputFiles("#file-input", file);
    await page.waitForSelector("#messages li.error");
    await page.waitForFunction(
      () =>
        document.getElementById("project-label")?.textContent === "bookshop (sample)" &&
        document.body.dataset.indexed === "true" &&
        !document.body.dataset.busy,
      undefined,
      { timeout: 60_000 },
    );
    // The error stays on screen; the sample answers again, from its stored index.
    expect(await page.locator("#messages li.error").count()).toBe(1);
    expect(await text(page, "#map")).toBe(mapBefore);
    expect(await count(page, "parsed-count")).toBe(0);
    await slice(page, "api.pricing.order_total");
    expect(await page.locator("body").getAttribute("data-context")).toBe("ready");
  });

  it("another project clears the old search and target text", async () => {
    const { page } = await withSample();
    await page.fill("#search", "order total");
    await page.waitForSelector('#search-results[data-query="order total"] button');
    await slice(page, "api.pricing.order_total");
    await openZip(page, "shop.zip", SHOP);
    expect(await page.locator("#search").inputValue()).toBe("");
    expect(await page.locator("#target").inputValue()).toBe("");
    expect(await page.locator("#search-results li").count()).toBe(0);
  });

  it("opening the same zip again reuses its index", async () => {
    const { page } = await withSample();
    const zip = await zipOnDisk("shop.zip", SHOP);
    await page.setInputFiles("#file-input", zip);
    await page.waitForFunction(
      () =>
        document.getElementById("project-label")?.textContent === "shop.zip" &&
        document.body.dataset.indexed === "true" &&
        !document.body.dataset.busy,
      undefined,
      { timeout: 60_000 },
    );
    expect(await count(page, "parsed-count")).toBe(2);
    await page.evaluate(() => delete document.body.dataset.indexed);
    await page.setInputFiles("#file-input", zip);
    await page.waitForSelector("body[data-indexed]", { timeout: 60_000 });
    await settled(page);
    expect(await count(page, "parsed-count")).toBe(0);
    expect(await count(page, "reused-count")).toBe(2);
  });

  it("an empty zip leaves Save index file disabled and offers no Re-index after a reload", async () => {
    const { page } = await newPage(site);
    await page.goto(site.url);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "codeslice-e2e-")), "empty.zip");
    fs.writeFileSync(file, await makeZip([]));
    await page.setInputFiles("#file-input", file);
    await page.waitForFunction(
      () =>
        document.getElementById("project-label")?.textContent?.startsWith("empty.zip") && !document.body.dataset.busy,
      undefined,
      { timeout: 60_000 },
    );
    await settled(page);
    expect(await page.locator("#save-index").isDisabled()).toBe(true);
    expect(await page.locator('#messages li[data-code="no_source"]').count()).toBe(1);
    expect(await page.locator('#messages button[data-action="Re-index"]').count()).toBe(0);
    await page.reload();
    await page.waitForTimeout(1500);
    await settled(page);
    expect(await page.locator('#messages button[data-action="Re-index"]').count()).toBe(0);
    expect(await page.locator("#save-index").isDisabled()).toBe(true);
  });
});

describe("issue 28: progress and narrow screens", () => {
  it("while a project indexes, no full bar stands beside a time, and no count says 0 found or N of N", async () => {
    const opened = await newPage(site);
    toClose.push(opened);
    const { page } = opened;
    await page.goto(site.url);
    await page.evaluate(() => {
      const w = window as unknown as { __seen: string[] };
      w.__seen = [];
      const check = () => {
        if (!document.body.dataset.busy) return;
        const bar = document.getElementById("progress-bar") as HTMLProgressElement;
        const text = document.getElementById("progress-text")!.textContent ?? "";
        const time = document.getElementById("index-time")!.textContent ?? "";
        const full = bar.hasAttribute("value") && bar.value >= bar.max;
        if (full) w.__seen.push(`full bar: "${text}" beside index "${time}"`);
        if (/\bms\b/.test(time)) w.__seen.push(`a time while busy: "${time}" beside "${text}"`);
        if (/ 0 found/.test(text)) w.__seen.push(`"${text}"`);
        const m = /Indexing ([\d,]+) of ([\d,]+)/.exec(text);
        if (m && m[1] === m[2]) w.__seen.push(`"${text}"`);
      };
      new MutationObserver(check).observe(document.body, {
        attributes: true,
        childList: true,
        subtree: true,
        characterData: true,
      });
    });
    await page.click("#load-sample");
    await page.waitForSelector("body[data-indexed]", { timeout: 60_000 });
    await settled(page);
    expect(await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)).toEqual([]);
    expect(await text(page, "[data-testid=index-time]")).toMatch(/^[\d,]+ ms$/);
  });

  it("a search shows that it is searching until its hits arrive", async () => {
    const { page } = await sharedSample();
    await page.evaluate(() => {
      const w = window as unknown as { __busySeen: boolean };
      w.__busySeen = false;
      const list = document.getElementById("search-results")!;
      new MutationObserver(() => {
        if (list.getAttribute("aria-busy") === "true" && /Searching/.test(list.textContent ?? "")) w.__busySeen = true;
      }).observe(list, { attributes: true, childList: true, subtree: true });
    });
    await page.fill("#search", "discount");
    await page.waitForSelector('#search-results[data-query="discount"] button');
    expect(await page.evaluate(() => (window as unknown as { __busySeen: boolean }).__busySeen)).toBe(true);
    expect(await page.locator("#search-results").getAttribute("aria-busy")).not.toBe("true");
  });

  it("at 390 px a search hit and a chunk open scrolled into view", async () => {
    const { page } = await withSample(390, 844);
    await page.fill("#search", "check stock");
    await page
      .locator(
        '#search-results[data-query="check stock"] button[data-qualified="api.services.OrderService.check_stock"]',
      )
      .click();
    const inView = () =>
      page.evaluate(() => {
        const el = document.querySelector(".cm-opened");
        if (!el) return false;
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight;
      });
    await expect.poll(inView).toBe(true);
    await page.waitForSelector("body[data-context=ready]");
    await page.evaluate(() => scrollTo(0, 0));
    await page.locator("#chunks li button").nth(1).click();
    await expect.poll(inView).toBe(true);
  });

  it("graph labels are cut only when they do not fit, and never in the spoken label", async () => {
    for (const width of [1440, 390]) {
      const { page } = await withSample(width, 900);
      for (const centre of [
        "api.services.OrderService.check_stock",
        "api.services.OrderService.place",
        "api.pricing.order_total",
      ]) {
        await slice(page, centre);
        await page.waitForSelector(`[data-testid=graph-svg] [data-qualified="${centre}"]`);
        const nodes = await page.locator("[data-testid=graph-svg] g.node").evaluateAll((gs) =>
          gs.map((g) => {
            const box = g.querySelector("rect")!.getBBox();
            const name = g.querySelector("tspan.name") as SVGTextContentElement;
            const q = g.getAttribute("data-qualified")!;
            const local = q.split(".");
            const full = local.length > 2 ? local.slice(-2).join(".") : q;
            // How wide the whole name would be in this font.
            const probe = name.cloneNode() as SVGTextContentElement;
            probe.textContent = full;
            name.parentNode!.append(probe);
            const fullWidth = probe.getComputedTextLength();
            probe.remove();
            return {
              cut: name.getAttribute("data-cut") === "true",
              shown: name.textContent ?? "",
              full,
              fullWidth,
              room: box.width - 16,
              label: g.getAttribute("aria-label") ?? "",
            };
          }),
        );
        expect(nodes.length).toBeGreaterThanOrEqual(3);
        for (const n of nodes) {
          // Cut (an ellipsis on screen, or a shorter text) only when the whole name does not fit.
          if (n.cut || n.shown !== n.full)
            expect(n.fullWidth, `${n.full} was cut with ${n.room} px of room`).toBeGreaterThan(n.room);
          expect(n.label).not.toContain("…");
          expect(n.label.startsWith(n.full)).toBe(true);
        }
      }
    }
  });
});
