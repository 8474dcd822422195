"""Domain objects: books, order lines and orders."""
from dataclasses import dataclass, field
from decimal import Decimal


@dataclass(frozen=True)
class Book:
    """A book in the catalogue."""

    isbn: str
    title: str
    price: Decimal
    stock: int = 0

    def in_stock(self, quantity: int = 1) -> bool:
        """True when `quantity` copies can be shipped now."""
        return self.stock >= quantity


@dataclass
class OrderLine:
    book: Book
    quantity: int

    def subtotal(self) -> Decimal:
        return self.book.price * self.quantity


@dataclass
class Order:
    """A customer's order: lines plus an optional discount code."""

    customer: str
    lines: list[OrderLine] = field(default_factory=list)
    discount_code: str | None = None

    def add(self, book: Book, quantity: int = 1) -> None:
        for line in self.lines:
            if line.book.isbn == book.isbn:
                line.quantity += quantity
                return
        self.lines.append(OrderLine(book, quantity))

    def item_count(self) -> int:
        return sum(line.quantity for line in self.lines)
