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
