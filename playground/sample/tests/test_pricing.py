from decimal import Decimal

from api.models import Book, Order
from api.pricing import order_total, shipping_cost


def test_free_shipping_from_threshold():
    assert shipping_cost(Decimal("35.00")) == Decimal("0")


def test_discount_code_applies():
    order = Order(customer="ada", discount_code="readmore")
    order.add(Book("1", "Dune", Decimal("20.00"), stock=3), 2)
    assert order_total(order) == Decimal("36.00")
