"""Storage of books and orders (in memory, for the demo)."""
from api.models import Book, Order


class NotFound(Exception):
    pass


class BookRepository:
    def __init__(self) -> None:
        self._books: dict[str, Book] = {}

    def add(self, book: Book) -> None:
        self._books[book.isbn] = book

    def get(self, isbn: str) -> Book:
        try:
            return self._books[isbn]
        except KeyError:
            raise NotFound(isbn)

    def search(self, words: str) -> list[Book]:
        needle = words.lower()
        return [b for b in self._books.values() if needle in b.title.lower()]


class OrderRepository:
    def __init__(self) -> None:
        self._orders: list[Order] = []

    def save(self, order: Order) -> int:
        self._orders.append(order)
        return len(self._orders)
