/**
 * The callers/callees picture: the symbol in the middle, its callers on the left, its callees on
 * the right, one arrow per calling relation (thicker for more call sites, fainter for less sure
 * resolutions). Hand-rolled SVG: a neighbourhood is at most a few dozen nodes, or a few hundred
 * once "show all" is asked for.
 *
 * The picture is drawn at the pixel width of its container (one SVG unit is one CSS pixel), so its
 * text is as large as the stylesheet says at every width: the page redraws it when the width
 * changes. Below NARROW px the centre goes on top with callers and callees in two columns under it.
 */
import type { Neighbourhood, NeighbourNode } from "../../src/worker/index.ts";
import { h, svg } from "./dom.ts";

/** Below this width (px) the centre goes on top and the two sides share the width under it. */
export const NARROW = 480;
const PAD = 8;
/** Room between the columns for the arrows: wide layout (each side), narrow layout (the middle). */
const GUTTER_WIDE = 40;
const GUTTER_NARROW = 28;
/** Matches `.graph text` in styles.css: 12 px monospace, about 0.6 em per character. */
const FONT_PX = 12;
const CHAR_PX = FONT_PX * 0.62;
const ROW_GAP = 8;
const TITLE_H = 26;

/** The last part of a qualified name ("api.services.OrderService.place" → "OrderService.place"). */
export function shortName(qualified: string): string {
  const local = qualified.includes("#") ? qualified.slice(qualified.indexOf("#") + 1) : qualified;
  const parts = local.split(".");
  return parts.length > 2 ? parts.slice(-2).join(".") : local;
}

let measureCtx: CanvasRenderingContext2D | null | undefined;
/** Numbers the nodes' clip paths (ids unique in the page). */
let clipCount = 0;

/**
 * Width of `text` in the graph's font (`.graph text`: 12 px of the page's monospace), measured with
 * a canvas; an estimate per character where no canvas is at hand. A fixed 0.62 em per character
 * cut names a few pixels short of fitting ("OrderService.check…" in a box with room for it).
 */
function textWidth(text: string): number {
  if (measureCtx === undefined) {
    measureCtx = typeof document === "undefined" ? null : document.createElement("canvas").getContext("2d");
    if (measureCtx) {
      const family = getComputedStyle(document.documentElement).getPropertyValue("--mono").trim() || "monospace";
      measureCtx.font = `${FONT_PX}px ${family}`;
    }
  }
  return measureCtx ? measureCtx.measureText(text).width : text.length * CHAR_PX;
}

/**
 * The start of `text` that fits `room` pixels with an ellipsis after it (`cut`), or all of it.
 * The ellipsis is drawn apart from the node's text (see nodeElement): the text a screen reader
 * compares with the node's label is then a plain prefix of the name.
 */
function clip(text: string, room: number): { text: string; cut: boolean } {
  if (textWidth(text) <= room) return { text, cut: false };
  let n = text.length - 1;
  while (n > 1 && textWidth(`${text.slice(0, n)}…`) > room) n--;
  return { text: text.slice(0, n), cut: true };
}

/**
 * For nodes whose short names collide, the shortest tail of their file's path that tells them
 * apart ("x/util.py" and "y/util.py"), with the line when they share a file. Other nodes get none.
 */
export function fileLabels(nodes: readonly NeighbourNode[]): Map<string, string> {
  const groups = new Map<string, NeighbourNode[]>();
  for (const n of nodes) {
    const key = shortName(n.qualified);
    groups.set(key, [...(groups.get(key) ?? []), n]);
  }
  const labels = new Map<string, string>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const parts = group.map((n) => n.path.split("/"));
    const longest = Math.max(...parts.map((p) => p.length));
    let depth = 1;
    const tail = (p: string[], d: number) => p.slice(-d).join("/");
    while (depth < longest && new Set(parts.map((p) => tail(p, depth))).size < new Set(group.map((n) => n.path)).size)
      depth++;
    group.forEach((n, i) => {
      const file = tail(parts[i]!, depth);
      const sharesFile = group.some((o) => o !== n && o.path === n.path);
      labels.set(n.id, sharesFile ? `${file}:${n.line}` : file);
    });
  }
  return labels;
}

/** How the page draws a neighbourhood: at what width, what is in the bundle, what a choice does. */
export interface GraphOptions {
  /** The container's width in CSS pixels. */
  width: number;
  /** Whether a node's code is in the current bundle, and in which form. */
  inBundle: (node: NeighbourNode) => "full" | "outline" | undefined;
  /** A node other than the centre was chosen (click, Enter or Space). */
  onPick: (node: NeighbourNode) => void;
  /** "Show all" was chosen: draw again with every caller and callee. */
  onExpand: () => void;
  /** This answer already holds every neighbour the engine gives (no button, only a count). */
  expanded: boolean;
}

type Box = { x: number; y: number; w: number };

/** Where each node goes, for either layout. */
function layout(n: Neighbourhood, width: number, nodeH: number) {
  const left = n.nodes.filter((x) => x.role === "caller" || x.role === "both");
  const right = n.nodes.filter((x) => x.role === "callee");
  const center = n.nodes.find((x) => x.role === "center")!;
  const rows = Math.max(left.length, right.length, 1);
  const step = nodeH + ROW_GAP;
  const pos = new Map<string, Box>();
  const narrow = width < NARROW;
  if (!narrow) {
    const w = Math.max(90, Math.min(230, Math.floor((width - 2 * PAD - 2 * GUTTER_WIDE) / 3)));
    const top = TITLE_H + 4;
    const height = Math.max(130, top + rows * step + PAD);
    const column = (nodes: NeighbourNode[], x: number) =>
      nodes.forEach((node, i) => pos.set(node.id, { x, y: top + i * step + ((rows - nodes.length) * step) / 2, w }));
    column(left, PAD);
    column(right, width - PAD - w);
    pos.set(center.id, { x: (width - w) / 2, y: Math.max(top, top + (rows * step) / 2 - step / 2), w });
    return { narrow, pos, height, titles: { y: 18, leftX: PAD, rightX: width - PAD }, left, right, center };
  }
  const w = Math.max(60, Math.floor((width - 2 * PAD - GUTTER_NARROW) / 2));
  pos.set(center.id, { x: PAD, y: PAD, w: width - 2 * PAD });
  const titleY = PAD + nodeH + 22;
  const top = titleY + 10;
  const column = (nodes: NeighbourNode[], x: number) =>
    nodes.forEach((node, i) => pos.set(node.id, { x, y: top + i * step, w }));
  column(left, PAD);
  column(right, width - PAD - w);
  const height = top + rows * step + PAD;
  return { narrow, pos, height, titles: { y: titleY, leftX: PAD, rightX: width - PAD }, left, right, center };
}

/** The arrow from box `a` to box `b`: side to side in the wide layout, through the middle in the narrow one. */
function edgePath(a: Box, b: Box, nodeH: number, narrow: boolean, width: number, toCenter: boolean): string {
  const ay = a.y + nodeH / 2;
  const by = b.y + nodeH / 2;
  if (!narrow) {
    const forward = a.x < b.x;
    const x1 = forward ? a.x + a.w : a.x;
    const x2 = forward ? b.x - 2 : b.x + b.w + 2;
    const mid = (x1 + x2) / 2;
    return `M ${x1} ${ay} C ${mid} ${ay}, ${mid} ${by}, ${x2} ${by}`;
  }
  // Narrow: the centre is on top; arrows run up (callers) or down (callees) the middle gutter.
  const bus = width / 2 + (toCenter ? -6 : 6);
  if (toCenter) {
    const x1 = a.x < bus ? a.x + a.w : a.x;
    return `M ${x1} ${ay} H ${bus} V ${b.y + nodeH + 2}`;
  }
  const x2 = b.x < bus ? b.x + b.w + 2 : b.x - 2;
  return `M ${bus} ${a.y + nodeH} V ${by} H ${x2}`;
}

/**
 * Renders `n` into an element: the SVG picture, "show all" when some neighbours were left out, a
 * legend, and the calls that leave the project.
 */
export function renderNeighbourhood(n: Neighbourhood, o: GraphOptions): HTMLElement {
  const files = fileLabels(n.nodes);
  const nodeH = files.size ? 42 : 28;
  const width = Math.max(240, Math.floor(o.width));
  const { narrow, pos, height, titles, left, right, center } = layout(n, width, nodeH);

  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "group",
    "aria-label": `Callers and callees of ${center.qualified}`,
    "data-testid": "graph-svg",
    "data-layout": narrow ? "narrow" : "wide",
  });
  root.append(
    svg(
      "defs",
      {},
      svg(
        "marker",
        {
          id: "arrow",
          viewBox: "0 0 10 10",
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: "auto-start-reverse",
        },
        svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head" }),
      ),
    ),
    svg("text", { x: titles.leftX, y: titles.y, class: "column-title" }, left.length ? "callers" : "no callers"),
    svg(
      "text",
      { x: titles.rightX, y: titles.y, class: "column-title", "text-anchor": "end" },
      right.length ? "callees" : "no callees",
    ),
  );
  for (const e of n.edges) {
    const a = pos.get(e.from);
    const b = pos.get(e.to);
    if (!a || !b) continue;
    const path = svg("path", {
      d: edgePath(a, b, nodeH, narrow, width, e.to === center.id),
      class: "edge",
      "stroke-width": Math.min(1 + e.sites, 5),
      "stroke-opacity": (0.35 + 0.65 * e.confidence).toFixed(2),
      "marker-end": "url(#arrow)",
    });
    path.append(
      svg("title", {}, `${e.sites} call site${e.sites === 1 ? "" : "s"}, confidence ${e.confidence.toFixed(2)}`),
    );
    root.append(path);
  }
  for (const node of n.nodes) root.append(...nodeElement(node, pos.get(node.id)!, nodeH, files.get(node.id), o));

  const hidden = n.hidden.callers + n.hidden.callees;
  const counts = [
    n.hidden.callers ? `${n.hidden.callers} more caller${n.hidden.callers === 1 ? "" : "s"}` : "",
    n.hidden.callees ? `${n.hidden.callees} more callee${n.hidden.callees === 1 ? "" : "s"}` : "",
  ]
    .filter(Boolean)
    .join(" and ");
  return h(
    "div",
    { class: "graph-figure" },
    root,
    hidden
      ? o.expanded
        ? h("p", { class: "graph-note" }, `+${counts} not drawn (more than the engine lists at once).`)
        : h(
            "p",
            { class: "graph-note" },
            h(
              "button",
              { type: "button", class: "graph-more", "data-hidden": hidden, onclick: () => o.onExpand() },
              `Show ${counts}`,
            ),
          )
      : null,
    h(
      "ul",
      { class: "graph-legend", "aria-label": "Legend" },
      h("li", {}, h("span", { class: "swatch caller", "aria-hidden": "true" }), "caller"),
      h("li", {}, h("span", { class: "swatch callee", "aria-hidden": "true" }), "callee"),
      h(
        "li",
        { "data-legend": "in-bundle" },
        h("span", { class: "swatch in-bundle", "aria-hidden": "true" }),
        "code in the bundle",
      ),
      h(
        "li",
        { "data-legend": "outline" },
        h("span", { class: "swatch in-bundle outline", "aria-hidden": "true" }),
        "outline in the bundle",
      ),
    ),
    n.external.length
      ? h(
          "p",
          { class: "graph-external" },
          "Calls outside the project: ",
          n.external.map((x) => h("code", {}, x.target)),
        )
      : null,
  );
}

/**
 * One node: a box with its short name, the file when the name is shared, the bundle mark; and,
 * beside it in the picture, the ellipses of a cut name or file (hidden from screen readers).
 */
function nodeElement(
  node: NeighbourNode,
  p: Box,
  nodeH: number,
  file: string | undefined,
  o: GraphOptions,
): SVGElement[] {
  const bundled = o.inBundle(node);
  const pickable = node.role !== "center";
  const room = Math.max(4 * CHAR_PX, p.w - 16);
  const nameClip = clip(shortName(node.qualified), room);
  const fileClip = file === undefined ? undefined : clip(file, room);
  // The spoken name is the whole name (what is on screen is its start: WCAG 2.5.3, label in name),
  // never the cut one with its ellipsis, then says the rest.
  const seen = file ? `${shortName(node.qualified)} ${file}` : shortName(node.qualified);
  const said = `${seen}: ${node.role === "both" ? "caller and callee" : node.role}, ${node.qualified}, ${node.kind} at ${node.path}:${node.line}${bundled ? `, ${bundled === "outline" ? "outline" : "code"} in the bundle` : ""}`;
  const g = svg("g", {
    class: `node ${node.role}${bundled ? " in-bundle" : ""}${bundled === "outline" ? " outline" : ""}`,
    transform: `translate(${p.x} ${p.y})`,
    role: pickable ? "button" : "img",
    "aria-label": said,
    "data-qualified": node.qualified,
    "data-id": node.id,
    "data-path": node.path,
    ...(bundled ? { "data-in-bundle": bundled } : {}),
    ...(pickable ? { tabindex: 0 } : {}),
  });
  // One text: the name, a space, the file on the line under it (so the text reads "name file").
  // A name too wide for its box is written whole (what a screen reader compares with the label)
  // and clipped where it no longer fits, with an ellipsis drawn after it outside the node.
  const nameY = file ? 17 : nodeH / 2 + 4;
  const line = (c: { cut: boolean }) =>
    c.cut ? { x: 8, "text-anchor": "start", "data-cut": "true" } : { x: p.w / 2, "text-anchor": "middle" };
  const clipId = `graph-clip-${++clipCount}`;
  const text = svg(
    "text",
    { "clip-path": `url(#${clipId})` },
    svg("tspan", { ...line(nameClip), y: nameY, class: "name" }, shortName(node.qualified)),
  );
  if (file !== undefined) text.append(" ", svg("tspan", { ...line(fileClip!), y: 34, class: "file" }, file));
  const rowH = file ? 22 : nodeH;
  const row = (c: { text: string; cut: boolean }, y: number, h: number) =>
    svg("rect", c.cut ? { x: 8, y, width: textWidth(c.text), height: h } : { x: 0, y, width: p.w, height: h });
  const clipPath = svg("clipPath", { id: clipId, clipPathUnits: "userSpaceOnUse" }, row(nameClip, 0, rowH));
  if (fileClip) clipPath.append(row(fileClip, rowH, nodeH - rowH));
  const ellipses: SVGElement[] = [];
  const ellipsis = (c: { text: string; cut: boolean }, y: number, cls: string) => {
    if (c.cut)
      ellipses.push(
        svg(
          "text",
          {
            x: p.x + 8 + textWidth(c.text),
            y: p.y + y,
            class: `ellipsis ${cls}${node.role === "center" ? " on-center" : ""}`,
            "aria-hidden": "true",
            "pointer-events": "none",
          },
          "…",
        ),
      );
  };
  ellipsis(nameClip, nameY, "name");
  if (fileClip) ellipsis(fileClip, 34, "file");
  g.append(
    svg(
      "title",
      {},
      `${node.qualified}\n${node.kind} at ${node.path}:${node.line}${bundled ? `\n${bundled === "outline" ? "Outline" : "Code"} in the bundle` : ""}${pickable ? "\nClick to centre the picture here" : ""}`,
    ),
    svg("rect", { width: p.w, height: nodeH, rx: 6 }),
    text,
    // After the box: the node's first rect is its box (styles and tests find it so).
    clipPath,
  );
  if (bundled) g.append(svg("rect", { class: "bundle-mark", x: 2, y: 4, width: 5, height: nodeH - 8, rx: 2 }));
  if (pickable) {
    g.addEventListener("click", () => o.onPick(node));
    g.addEventListener("keydown", (e) => {
      const key = (e as KeyboardEvent).key;
      if (key !== "Enter" && key !== " ") return;
      e.preventDefault(); // Space would scroll the page
      o.onPick(node);
    });
  }
  return [g, ...ellipses];
}
