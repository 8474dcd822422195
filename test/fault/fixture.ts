/**
 * The fault suite's shared pieces: a small Python + TypeScript project with calls, classes,
 * inheritance and imports across files, a seeded random generator so every failing seed can be
 * replayed, and tree snapshots to prove nothing outside the cache folder changed.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";

/** ~15 files: two empty __init__.py (they share one record), Python services and a TS client. */
export const PROJECT: Record<string, string> = {
  "inventory/__init__.py": "",
  "inventory/util/__init__.py": "",
  "inventory/models.py": `"""Inventory models."""


class Item:
    """A thing on a shelf."""

    def __init__(self, sku: str, price: int):
        self.sku = sku
        self.price = price

    def label(self) -> str:
        """A printable label."""
        return format_label(self.sku, self.price)


class Perishable(Item):
    """An item that goes off."""

    def label(self) -> str:
        return "!" + super().label()


def format_label(sku: str, price: int) -> str:
    """SKU and price on one line."""
    return f"{sku}: {price}"
`,
  "inventory/util/money.py": `def cents(amount: float) -> int:
    """Whole cents of an amount."""
    return round(amount * 100)


def add_tax(cents_value: int, rate: float = 0.2) -> int:
    return cents_value + round(cents_value * rate)
`,
  "inventory/store.py": `from inventory.models import Item, Perishable
from inventory.util.money import add_tax, cents


class Store:
    """Items by SKU."""

    def __init__(self):
        self.items: dict[str, Item] = {}

    def add(self, item: Item) -> None:
        self.items[item.sku] = item

    def price_of(self, sku: str) -> int:
        item = self.items[sku]
        return add_tax(item.price)

    def stock_fresh(self, sku: str, amount: float) -> Perishable:
        fresh = Perishable(sku, cents(amount))
        self.add(fresh)
        return fresh
`,
  "inventory/checkout.py": `from inventory.store import Store
from inventory.models import format_label


class Checkout:
    def __init__(self, store: Store):
        self.store = store
        self.lines: list[str] = []

    def scan(self, sku: str) -> int:
        """Add one item to the receipt and return its price."""
        price = self.store.price_of(sku)
        self.lines.append(format_label(sku, price))
        return price

    def total(self, skus: list[str]) -> int:
        return sum(self.scan(s) for s in skus)
`,
  "inventory/report.py": `from inventory.checkout import Checkout
from inventory.store import Store


def daily_report(store: Store, skus: list[str]) -> str:
    checkout = Checkout(store)
    total = checkout.total(skus)
    return "\\n".join(checkout.lines) + f"\\nTotal: {total}"
`,
  "tests/test_checkout.py": `from inventory.checkout import Checkout
from inventory.models import Item
from inventory.store import Store


def test_scan():
    store = Store()
    store.add(Item("a", 100))
    assert Checkout(store).scan("a") == 120
`,
  "web/src/money.ts": `/** Cents as a price string. */
export function formatPrice(cents: number): string {
  return (cents / 100).toFixed(2);
}

export function withTax(cents: number, rate = 0.2): number {
  return Math.round(cents * (1 + rate));
}
`,
  "web/src/types.ts": `export interface Line {
  sku: string;
  cents: number;
}

export type Receipt = { lines: Line[]; total: number };
`,
  "web/src/cart.ts": `import { formatPrice, withTax } from "./money";
import type { Line, Receipt } from "./types";

/** A shopping cart. */
export class Cart {
  private lines: Line[] = [];

  add(sku: string, cents: number): void {
    this.lines.push({ sku, cents: withTax(cents) });
  }

  total(): number {
    return this.lines.reduce((sum, l) => sum + l.cents, 0);
  }

  receipt(): Receipt {
    return { lines: [...this.lines], total: this.total() };
  }

  describe(): string {
    return formatPrice(this.total());
  }
}
`,
  "web/src/api.ts": `import { Cart } from "./cart";

export async function submit(cart: Cart): Promise<string> {
  const receipt = cart.receipt();
  const response = await fetch("/api/orders", { method: "POST", body: JSON.stringify(receipt) });
  return response.ok ? cart.describe() : "failed";
}
`,
  "web/src/main.ts": `import { submit } from "./api";
import { Cart } from "./cart";

export function main(): Promise<string> {
  const cart = new Cart();
  cart.add("apple", 120);
  cart.add("pear", 80);
  return submit(cart);
}
`,
  "web/src/copy.ts": `import { formatPrice, withTax } from "./money";

/** Same shape as cart.ts's describe, on purpose: two callers of formatPrice. */
export function priceLine(cents: number): string {
  return formatPrice(withTax(cents));
}
`,
  "README.md": "# inventory\n",
};

/** Answers compared across runs: three context targets, callers of two symbols, the whole graph. */
export const CONTEXT_TARGETS = ["Checkout.scan", "web/src/cart.ts::Cart.describe", "inventory/store.py"] as const;
export const CALLERS_TARGETS = ["format_label", "formatPrice"] as const;

/** A small deterministic generator (mulberry32): a failing seed replays exactly. */
export function rng(seed: number) {
  let a = (seed * 0x9e3779b1 + 0x6d2b79f5) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    /** 0 ≤ result < n. */
    int,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    chance: (p: number) => next() < p,
    bytes: (n: number) => Uint8Array.from({ length: n }, () => int(256)),
  };
}
export type Rng = ReturnType<typeof rng>;

/**
 * The seeds a loop runs: `count` of them (times FAULT_SCALE, default 1) from FAULT_SEED_FROM
 * (default 0), or only FAULT_SEED when it is set, to replay a failure.
 */
export function seedList(count: number): number[] {
  const env = process.env;
  if (env.FAULT_SEED) return [Number(env.FAULT_SEED)];
  const n = Math.max(1, Math.round(count * Number(env.FAULT_SCALE ?? 1)));
  const from = Number(env.FAULT_SEED_FROM ?? 0);
  return Array.from({ length: n }, (_, i) => from + i);
}

const temps: string[] = [];

/** A fresh temp folder (real path), removed by {@link removeTemps}. */
export function tempDir(prefix = "codeslice-fault-"): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}

export function removeTemps(): void {
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}

/**
 * Writes `files` under `root`. With `past`, every file's mtime is set an hour back, so later runs
 * trust their stat (the path where records are loaded lazily from the cache) instead of re-hashing
 * files touched within the racy-git window.
 */
export function writeProject(root: string, files: Record<string, string | Uint8Array> = PROJECT, past = true): void {
  const then = new Date(Date.now() - 3_600_000);
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(root, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
    if (past) fs.utimesSync(full, then, then);
  }
}

/** Every entry under `dir` with a digest of its content and its mtime, for before/after comparisons. */
export function treeOf(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (skip(key)) continue;
      const full = path.join(dir, key);
      if (e.isDirectory()) {
        out[key] = "<dir>";
        walk(key);
      } else if (e.isFile()) {
        out[key] = `${createHash("sha1").update(fs.readFileSync(full)).digest("hex")} ${fs.statSync(full).mtimeMs}`;
      } else out[key] = "<other>";
    }
  };
  if (fs.existsSync(dir)) walk("");
  return out;
}

/** A value as JSON would carry it (undefined fields dropped), for deep equality across runs. */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A stack frame in error output: the mark of an unexpected error. */
export const STACK_FRAME = /\n\s+at /;
