/** A small shop: Python models and services, a TypeScript web client, names that collide on purpose. */
export const FIXTURE = `
//- shop/__init__.py
//- shop/models.py
"""Shop models."""


class User:
    """A customer of the shop."""

    def __init__(self, name: str):
        self.name = name

    def greet(self) -> str:
        """Say hello to the user."""
        return format_greeting(self.name)

    def save(self) -> None:
        """Persist the user."""
        return None


class Order:
    """An order placed by a user."""

    def __init__(self, user: User, total: float):
        self.user = user
        self.total = total

    def save(self) -> None:
        """Persist the order."""
        return None


def format_greeting(name: str) -> str:
    """The greeting line for a name."""
    return f"Hello, {name}"
//- shop/service.py
from shop.models import Order, User


def register(name: str) -> User:
    """Create a user and greet them."""
    user = User(name)
    user.greet()
    user.save()
    return user


def checkout(user: User, total: float) -> Order:
    """Place an order for a user."""
    order = Order(user, total)
    order.save()
    return order
//- web/src/format.ts
/** Formats a price in euros. */
export function formatPrice(cents: number): string {
  return (cents / 100).toFixed(2) + " EUR";
}
//- web/src/cart.ts
import { formatPrice } from "./format";

/** A shopping cart. */
export class Cart {
  private items: number[] = [];

  add(cents: number): void {
    this.items.push(cents);
  }

  total(): string {
    return formatPrice(this.items.reduce((a, b) => a + b, 0));
  }

  save(): void {}
}
//- web/src/app.ts
import { Cart } from "./cart";

export function checkoutLabel(): string {
  const cart = new Cart();
  cart.add(1250);
  return cart.total();
}
`;

/** The fixture as `{ path: content }`. */

/** A small Python shop (a cart, its total, a checkout calling it) in the `//- path` fixture form, for the slicing tests to build on. */
export const SHOP_CART_API = `//- src/shop/__init__.py
//- src/shop/cart.py
class Cart:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)
        return total(self.items)


def total(items):
    return sum(i.price for i in items)
//- src/shop/api.py
from shop.cart import Cart


def checkout(items):
    cart = Cart()
    for i in items:
        cart.add(i)
    return cart
`;
