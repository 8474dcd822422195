/** The shopping cart kept in the browser until checkout. */
import { quote } from "./api";
import { formatPrice, plural } from "./format";

export class Cart {
  private readonly items = new Map<string, number>();

  constructor(private readonly customer: string) {}

  add(isbn: string, quantity = 1): void {
    this.items.set(isbn, (this.items.get(isbn) ?? 0) + quantity);
  }

  remove(isbn: string): void {
    this.items.delete(isbn);
  }

  count(): number {
    let n = 0;
    for (const q of this.items.values()) n += q;
    return n;
  }

  /** Asks the API for the price, discount code included. */
  async total(code?: string): Promise<string> {
    const amount = await quote(this.customer, Object.fromEntries(this.items), code);
    return formatPrice(amount);
  }

  summary(): string {
    return `${plural(this.count(), "book")} in the cart`;
  }
}
