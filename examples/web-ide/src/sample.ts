/** The project the page opens: a tiny shop in Python and TypeScript. */
export const SAMPLE: Record<string, string> = {
  "shop/models.py": `"""Shop models."""


class Order:
    """An order placed by a customer."""

    def __init__(self, items: list[int]):
        self.items = items

    def total(self) -> int:
        """The order's total in cents."""
        return sum_items(self.items)


def sum_items(items: list[int]) -> int:
    """Adds up item prices."""
    return sum(items)
`,
  "shop/views.py": `from shop.models import Order


def checkout(items: list[int]) -> str:
    """Place an order and show its total."""
    order = Order(items)
    return format_total(order.total())


def format_total(cents: int) -> str:
    return f"{cents / 100:.2f} EUR"
`,
  "web/cart.ts": `import { formatPrice } from "./format";

/** A shopping cart. */
export class Cart {
  private items: number[] = [];

  add(cents: number): void {
    this.items.push(cents);
  }

  total(): string {
    return formatPrice(this.items.reduce((a, b) => a + b, 0));
  }
}
`,
  "web/format.ts": `/** Formats a price in euros. */
export function formatPrice(cents: number): string {
  return (cents / 100).toFixed(2) + " EUR";
}
`,
};
