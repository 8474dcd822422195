"""HTTP routes of the bookshop API."""
from fastapi import FastAPI, HTTPException

from api.repository import BookRepository, NotFound, OrderRepository
from api.services import OrderService, OutOfStock

app = FastAPI(title="bookshop")
books = BookRepository()
service = OrderService(books, OrderRepository())


@app.get("/books")
def list_books(q: str = ""):
    return [book.title for book in books.search(q)]


@app.get("/books/{isbn}")
def get_book(isbn: str):
    try:
        return books.get(isbn)
    except NotFound:
        raise HTTPException(status_code=404, detail="no such book")


@app.post("/quote")
def quote(customer: str, items: dict[str, int], code: str | None = None):
    return {"total": str(service.quote(customer, items, code))}


@app.post("/orders")
def place_order(customer: str, items: dict[str, int], code: str | None = None):
    try:
        return {"order": service.place(customer, items, code)}
    except OutOfStock as error:
        raise HTTPException(status_code=409, detail=str(error))
