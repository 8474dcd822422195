/**
 * The callers/callees picture: the symbol in the middle, its callers on the left, its callees on
 * the right, one arrow per calling relation (thicker for more call sites, fainter for less sure
 * resolutions). Hand-rolled SVG: a neighbourhood is at most a few dozen nodes.
 */
import type { Neighbourhood, NeighbourNode } from "../../src/worker/index.ts";
import { h, svg } from "./dom.ts";

const WIDTH = 640;
const NODE_W = 170;
const NODE_H = 30;
const GAP = 10;

/** The last part of a qualified name ("api.services.OrderService.place" → "OrderService.place"). */
export function shortName(qualified: string): string {
  const local = qualified.includes("#") ? qualified.slice(qualified.indexOf("#") + 1) : qualified;
  const parts = local.split(".");
  return parts.length > 2 ? parts.slice(-2).join(".") : local;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Renders `n` into an element; `onPick` is called with a node's qualified name when it is chosen. */
export function renderNeighbourhood(n: Neighbourhood, onPick: (node: NeighbourNode) => void): HTMLElement {
  const left = n.nodes.filter((x) => x.role === "caller" || x.role === "both");
  const right = n.nodes.filter((x) => x.role === "callee");
  const center = n.nodes.find((x) => x.role === "center")!;
  const rows = Math.max(left.length, right.length, 1);
  const height = Math.max(160, rows * (NODE_H + GAP) + 60);
  const pos = new Map<string, { x: number; y: number }>();
  const column = (nodes: NeighbourNode[], x: number) =>
    nodes.forEach((node, i) => pos.set(node.id, { x, y: 40 + i * (NODE_H + GAP) + ((rows - nodes.length) * (NODE_H + GAP)) / 2 }));
  column(left, 10);
  column(right, WIDTH - NODE_W - 10);
  pos.set(center.id, { x: (WIDTH - NODE_W) / 2, y: height / 2 - NODE_H / 2 });

  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, width: "100%", role: "group", "aria-label": `Callers and callees of ${center.qualified}`, "data-testid": "graph-svg" });
  root.append(
    svg("defs", {}, svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head" }))),
    svg("text", { x: 10, y: 20, class: "column-title" }, left.length ? "callers" : "no callers"),
    svg("text", { x: WIDTH - 10, y: 20, class: "column-title", "text-anchor": "end" }, right.length ? "callees" : "no callees"),
  );
  for (const e of n.edges) {
    const a = pos.get(e.from);
    const b = pos.get(e.to);
    if (!a || !b) continue;
    const x1 = a.x + NODE_W;
    const y1 = a.y + NODE_H / 2;
    const x2 = b.x;
    const y2 = b.y + NODE_H / 2;
    const mid = (x1 + x2) / 2;
    const path = svg("path", {
      d: `M ${x1} ${y1} C ${mid} ${y1}, ${mid} ${y2}, ${x2 - 2} ${y2}`,
      class: "edge",
      "stroke-width": Math.min(1 + e.sites, 5),
      "stroke-opacity": (0.35 + 0.65 * e.confidence).toFixed(2),
      "marker-end": "url(#arrow)",
    });
    path.append(svg("title", {}, `${e.sites} call site${e.sites === 1 ? "" : "s"}, confidence ${e.confidence.toFixed(2)}`));
    root.append(path);
  }
  for (const node of n.nodes) {
    const p = pos.get(node.id)!;
    const g = svg("g", { class: `node ${node.role}`, transform: `translate(${p.x} ${p.y})`, tabindex: 0, role: "button", "data-qualified": node.qualified });
    g.append(
      svg("title", {}, `${node.qualified}\n${node.kind} at ${node.path}:${node.line}${node.role === "center" ? "" : "\nClick to centre the picture here"}`),
      svg("rect", { width: NODE_W, height: NODE_H, rx: 6 }),
      svg("text", { x: NODE_W / 2, y: NODE_H / 2 + 4, "text-anchor": "middle" }, clip(shortName(node.qualified), 24)),
    );
    if (node.role !== "center") {
      g.addEventListener("click", () => onPick(node));
      g.addEventListener("keydown", (e) => {
        if ((e as KeyboardEvent).key === "Enter" || (e as KeyboardEvent).key === " ") onPick(node);
      });
    }
    root.append(g);
  }
  const notes: string[] = [];
  if (n.hidden.callers) notes.push(`+${n.hidden.callers} more callers`);
  if (n.hidden.callees) notes.push(`+${n.hidden.callees} more callees`);
  return h("div", { class: "graph-figure" },
    root,
    notes.length ? h("p", { class: "graph-note" }, notes.join(" · ")) : null,
    n.external.length ? h("p", { class: "graph-external" }, "Calls outside the project: ", n.external.map((x) => h("code", {}, x.target))) : null,
  );
}
