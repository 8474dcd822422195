"""Prices: subtotals, discount codes and shipping."""
from decimal import Decimal

from api.models import Order

DISCOUNTS = {"READMORE": Decimal("0.10"), "STUDENT": Decimal("0.15")}
FREE_SHIPPING_FROM = Decimal("35.00")
SHIPPING = Decimal("4.90")


def subtotal(order: Order) -> Decimal:
    """Sum of the order's lines before discounts and shipping."""
    return sum((line.subtotal() for line in order.lines), Decimal("0"))


def discount_rate(code: str | None) -> Decimal:
    if code is None:
        return Decimal("0")
    return DISCOUNTS.get(code.upper(), Decimal("0"))


def shipping_cost(amount: Decimal) -> Decimal:
    return Decimal("0") if amount >= FREE_SHIPPING_FROM else SHIPPING


def order_total(order: Order) -> Decimal:
    """What the customer pays: subtotal minus the discount, plus shipping."""
    base = subtotal(order)
    discounted = base - base * discount_rate(order.discount_code)
    return (discounted + shipping_cost(discounted)).quantize(Decimal("0.01"))
