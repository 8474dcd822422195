/**
 * The playground's callers/callees picture in headless Chromium: same-named nodes told apart by
 * file, "show all" for the neighbours left out (by keyboard), bundle members marked (with a
 * legend), Back to the previous centre, and text at a readable size, wide and at 390 px.
 * Assertions read DOM attributes and computed sizes, not pixels.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, openSite, openZip, seriousViolations, shot, type Site } from "./support/playground-page.ts";

/**
 * app.run calls two functions both named util.helper (in a/x/util.py and b/y/util.py) and hub.hub;
 * hub.hub has 15 callers (app.run and callers/c0…c13), more than the picture draws at first (10).
 */
const FILES: Record<string, string> = {
  "a/x/util.py": "def helper():\n    return 1\n",
  "b/y/util.py": "def helper():\n    return 2\n",
  "app.py":
    "from a.x.util import helper as first\nfrom b.y.util import helper as second\nfrom hub import hub\n\n\ndef run():\n    return first() + second() + hub()\n",
  "hub.py": "def hub():\n    return 0\n",
};
const HUB_CALLERS = 15;
for (let i = 0; i < HUB_CALLERS - 1; i++)
  FILES[`callers/c${i}.py`] = `from hub import hub\n\n\ndef call${i}():\n    return hub() + ${i}\n`;

let site: Site;
beforeAll(async () => {
  site = await openSite();
}, 300_000);
afterAll(async () => {
  await site?.close();
});

const graph = (page: Page) => page.getByTestId("graph-svg");
const centre = (page: Page) => graph(page).locator("g.node.center").getAttribute("data-qualified");

/** Types a target and slices it; waits for the picture centred on `centreOn`. */
async function slice(page: Page, target: string, centreOn = target): Promise<void> {
  await page.fill("#target", target);
  await page.click("#context-form button[type=submit]");
  await page.waitForSelector(`[data-testid=graph-svg] g.node.center[data-qualified="${centreOn}"]`);
  await page.waitForSelector("body[data-context=ready][data-graph=ready]");
}

/** Every text in the picture: its computed font size times the SVG's scale (what is seen, in CSS px), and whether it fits its box. */
function textSizes(page: Page) {
  return graph(page).evaluate((svg: SVGSVGElement) => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    // The leaves that hold text: a node's name and file lines (tspans), the column titles (texts).
    return [...svg.querySelectorAll("tspan, text:not(:has(tspan))")].map((t) => {
      const leaf = t as SVGTextContentElement;
      const box = t.closest("g.node")?.querySelector("rect");
      return {
        text: t.textContent ?? "",
        px: parseFloat(getComputedStyle(t).fontSize) * scale,
        fits: !box || leaf.getComputedTextLength() * scale <= box.getBoundingClientRect().width,
      };
    });
  });
}

describe("the playground's callers/callees picture", () => {
  it("tells same-named nodes apart by file", async () => {
    const { context, page, errors } = await newPage(site);
    await page.goto(site.url);
    await openZip(page, "names.zip", FILES);
    await slice(page, "app.run");
    const nodes = await graph(page)
      .locator("g.node")
      .evaluateAll((gs) =>
        gs.map((g) => ({
          qualified: g.getAttribute("data-qualified")!,
          name: g.querySelector(".name")?.textContent ?? "",
          file: g.querySelector(".file")?.textContent ?? null,
          label: g.getAttribute("aria-label") ?? "",
        })),
      );
    const helpers = nodes.filter((n) => n.qualified.endsWith(".helper"));
    expect(helpers.map((n) => n.qualified).sort()).toEqual(["a.x.util.helper", "b.y.util.helper"]);
    // Same name on screen, told apart by the file under it.
    expect(helpers[0]!.name).toBe(helpers[1]!.name);
    expect(helpers.map((n) => n.file).sort()).toEqual(["x/util.py", "y/util.py"]);
    // What is seen, name and file together, is different for every node; a screen reader hears the path.
    expect(new Set(nodes.map((n) => `${n.name}|${n.file}`)).size).toBe(nodes.length);
    // A screen reader hears what is seen first (label in name), then the qualified name and the path.
    for (const n of helpers) {
      expect(n.label.startsWith(`${n.name} ${n.file}`)).toBe(true);
      expect(n.label).toContain(n.qualified);
      expect(n.label).toContain(n.qualified.startsWith("a.") ? "a/x/util.py" : "b/y/util.py");
    }
    // A name no other node shares gets no file line.
    expect(nodes.find((n) => n.qualified === "hub.hub")?.file).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("'show all' draws the neighbours left out, by keyboard, and focus goes to the first new one", async () => {
    const { context, page, errors } = await newPage(site);
    await page.goto(site.url);
    await openZip(page, "hub.zip", FILES);
    await slice(page, "hub.hub");
    const callers = graph(page).locator("g.node.caller, g.node.both");
    expect(await callers.count()).toBe(10);
    const more = page.locator("#graph button.graph-more");
    expect(await more.innerText()).toBe(`Show ${HUB_CALLERS - 10} more callers`);
    const before = new Set(await callers.evaluateAll((gs) => gs.map((g) => g.getAttribute("data-qualified"))));
    await more.focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector("body[data-graph=ready]");
    expect(await callers.count()).toBe(HUB_CALLERS);
    expect(await more.count()).toBe(0);
    await shot(page, "31-graph-all-callers");
    expect(await seriousViolations(page)).toEqual([]);
    // Focus lands on a caller that was not drawn before, not on the page's body.
    const now = await page.evaluate(() => document.activeElement?.getAttribute("data-qualified") ?? null);
    expect(now).not.toBeNull();
    expect(before.has(now)).toBe(false);
    // Every caller the engine knows is drawn once.
    const all = await callers.evaluateAll((gs) => gs.map((g) => g.getAttribute("data-qualified")!));
    expect(new Set(all).size).toBe(HUB_CALLERS);
    expect(all).toContain("app.run");
    for (let i = 0; i < HUB_CALLERS - 1; i++) expect(all).toContain(`callers.c${i}.call${i}`);
    // Another budget slices the same centre again: the picture stays expanded.
    await page.locator("#budget").fill("300");
    await expect.poll(() => page.getByTestId("usage").getAttribute("data-budget")).toBe("300");
    // Drawn again for the new answer (data-graph goes to "loading" with the slice), not the old picture.
    await page.waitForSelector("body[data-context=ready][data-graph=ready]");
    expect(await callers.count()).toBe(HUB_CALLERS);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("marks the nodes whose code is in the current bundle, with a legend, and follows the budget", async () => {
    const { context, page, errors } = await newPage(site);
    await page.goto(site.url);
    await openZip(page, "marks.zip", FILES);
    /** Each node: marked or not, and whether the rendered bundle has a block from its file. */
    const marks = () =>
      page.evaluate(() => {
        const bundle = document.getElementById("bundle")!.textContent ?? "";
        return [...document.querySelectorAll("[data-testid=graph-svg] g.node")].map((g) => ({
          qualified: g.getAttribute("data-qualified")!,
          marked: g.classList.contains("in-bundle"),
          inText: bundle.includes(`## ${g.getAttribute("data-path")}:`),
        }));
      });
    // Counts the slices the page starts (body[data-context] turning to "loading").
    await page.evaluate(() => {
      const w = window as unknown as { slices: number };
      w.slices = 0;
      new MutationObserver(() => void (document.body.dataset.context === "loading" && w.slices++)).observe(
        document.body,
        { attributes: true, attributeFilter: ["data-context"] },
      );
    });
    await page.fill("#target", "hub.hub");
    for (const budget of ["400", "200"]) {
      // The slider moves and Slice is pressed at once (one task): the slider's re-slice, queued for
      // 150 ms, is dropped, so one answer comes, not a second one re-rendering the panel after it.
      await page.evaluate((b) => {
        (window as unknown as { slices: number }).slices = 0;
        const slider = document.getElementById("budget") as HTMLInputElement;
        slider.value = b;
        slider.dispatchEvent(new Event("input", { bubbles: true }));
        (document.getElementById("context-form") as HTMLFormElement).requestSubmit();
      }, budget);
      await page.waitForSelector("body[data-context=ready][data-graph=ready]");
      expect(await page.getByTestId("usage").getAttribute("data-budget")).toBe(budget);
      await page.waitForTimeout(600);
      expect(await page.evaluate(() => (window as unknown as { slices: number }).slices)).toBe(1);
      await expect.poll(async () => (await marks()).every((m) => m.marked === m.inText)).toBe(true);
      const m = await marks();
      expect(m.find((x) => x.qualified === "hub.hub")?.marked).toBe(true);
      if (budget === "400") {
        // Some callers fit, some were cut: both kinds are on the picture.
        expect(m.filter((x) => x.marked && x.qualified !== "hub.hub").length).toBeGreaterThan(0);
        expect(m.filter((x) => !x.marked).length).toBeGreaterThan(0);
      } else {
        expect(m.filter((x) => x.marked).map((x) => x.qualified)).toEqual(["hub.hub"]);
      }
    }
    await shot(page, "32-graph-bundle-marks");
    // The legend names the mark, and the mark's colour is the legend's.
    const legend = page.locator('#graph .graph-legend li[data-legend="in-bundle"]');
    expect(await legend.innerText()).toMatch(/in the bundle/);
    const swatch = await legend.locator(".swatch").evaluate((s) => getComputedStyle(s).backgroundColor);
    const bar = await graph(page)
      .locator("g.node.in-bundle rect.bundle-mark")
      .first()
      .evaluate((r) => getComputedStyle(r).fill);
    expect(bar).toBe(swatch);
    // A slice that fails leaves no marks from the answer it replaced.
    await page.fill("#target", "no.such.symbol");
    await page.click("#context-form button[type=submit]");
    await page.waitForSelector("body[data-context=error]");
    expect(await graph(page).locator("g.node.in-bundle").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("Back returns to the previous centre, step by step, and hides when there is none", async () => {
    const { context, page, errors } = await newPage(site);
    await page.goto(site.url);
    await openZip(page, "back.zip", FILES);
    const back = page.getByTestId("graph-back");
    await slice(page, "app.run");
    expect(await back.isHidden()).toBe(true);
    // app.run → hub.hub (a callee) → callers.c3.call3 (one of its callers), by click and by keyboard.
    await graph(page).locator('g.node[data-qualified="hub.hub"]').click();
    await page.waitForSelector('[data-testid=graph-svg] g.node.center[data-qualified="hub.hub"]');
    expect(await back.getAttribute("data-target")).toBe("app.run");
    await graph(page).locator('g.node[data-qualified="callers.c3.call3"]').focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector('[data-testid=graph-svg] g.node.center[data-qualified="callers.c3.call3"]');
    // The chosen node became the centre: focus stays in the picture, not back at the top of the page.
    expect(await page.evaluate(() => document.getElementById("graph")!.contains(document.activeElement))).toBe(true);
    expect(await back.getAttribute("data-target")).toBe("hub.hub");
    expect(await back.innerText()).toBe("← Back to hub.hub");
    expect(await seriousViolations(page)).toEqual([]);
    await back.focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector('[data-testid=graph-svg] g.node.center[data-qualified="hub.hub"]');
    await page.waitForSelector("body[data-context=ready]");
    // The context follows the picture.
    expect(await page.inputValue("#target")).toBe("hub.hub");
    await expect.poll(() => page.locator("#chunks li").first().getAttribute("data-symbol")).toBe("hub.hub");
    expect(await back.getAttribute("data-target")).toBe("app.run");
    await back.focus();
    await page.keyboard.press("Space");
    await page.waitForSelector('[data-testid=graph-svg] g.node.center[data-qualified="app.run"]');
    expect(await centre(page)).toBe("app.run");
    expect(await back.isHidden()).toBe(true);
    // The button hid under the keyboard's focus: focus went to the picture, and Tab goes on to its nodes.
    await page.waitForSelector("body[data-graph=ready]");
    expect(await page.evaluate(() => document.getElementById("graph")!.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-qualified"))).toMatch(/helper|hub/);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const { width, height, min } of [
    { width: 1440, height: 1000, min: 12 },
    { width: 390, height: 844, min: 11 },
  ]) {
    it(`text is at least ${min} px as seen at ${width} px wide, and every name fits its box`, async () => {
      const { context, page, errors } = await newPage(site, { viewport: { width, height } });
      await page.goto(site.url);
      await openZip(page, "sizes.zip", FILES);
      await slice(page, "app.run");
      const sizes = await textSizes(page);
      expect(sizes.length).toBeGreaterThan(4);
      const small = sizes.filter((s) => s.px < min);
      expect(small, JSON.stringify(small)).toEqual([]);
      const overflowing = sizes.filter((s) => !s.fits);
      expect(overflowing, JSON.stringify(overflowing)).toEqual([]);
      // The picture fits its panel (nothing to scroll sideways) and the page does not scroll sideways.
      const fit = await page.evaluate(() => ({
        svg: document.querySelector("[data-testid=graph-svg]")!.getBoundingClientRect().width,
        panel: document.getElementById("graph")!.clientWidth,
        page: document.documentElement.scrollWidth,
      }));
      expect(fit.svg).toBeLessThanOrEqual(fit.panel);
      expect(fit.page).toBeLessThanOrEqual(width);
      expect(await graph(page).getAttribute("data-layout")).toBe(width < 600 ? "narrow" : "wide");
      await shot(page, `30-graph-${width}`);
      // Resizing the window draws the picture again at the new width, still readable.
      if (width > 600) {
        await page.setViewportSize({ width: 390, height: 844 });
        await expect.poll(() => graph(page).getAttribute("data-layout")).toBe("narrow");
        expect((await textSizes(page)).filter((s) => s.px < 11)).toEqual([]);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
