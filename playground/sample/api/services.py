"""Use cases: placing orders, checking stock."""
from decimal import Decimal

from api.models import Order
from api.pricing import order_total
from api.repository import BookRepository, OrderRepository


class OutOfStock(Exception):
    def __init__(self, isbn: str) -> None:
        super().__init__(f"not enough copies of {isbn}")
        self.isbn = isbn


class OrderService:
    """Checks stock, prices the order and stores it."""

    def __init__(self, books: BookRepository, orders: OrderRepository) -> None:
        self.books = books
        self.orders = orders

    def quote(self, customer: str, items: dict[str, int], code: str | None = None) -> Decimal:
        order = self.build_order(customer, items, code)
        return order_total(order)

    def place(self, customer: str, items: dict[str, int], code: str | None = None) -> int:
        order = self.build_order(customer, items, code)
        self.check_stock(order)
        return self.orders.save(order)

    def build_order(self, customer: str, items: dict[str, int], code: str | None) -> Order:
        order = Order(customer=customer, discount_code=code)
        for isbn, quantity in items.items():
            order.add(self.books.get(isbn), quantity)
        return order

    def check_stock(self, order: Order) -> None:
        for line in order.lines:
            if not line.book.in_stock(line.quantity):
                raise OutOfStock(line.book.isbn)
