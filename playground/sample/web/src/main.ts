import { searchBooks } from "./api";
import { Cart } from "./cart";

const cart = new Cart("guest");

export async function onSearch(words: string): Promise<string[]> {
  const titles = await searchBooks(words);
  return titles.slice(0, 10);
}

export async function onCheckout(code?: string): Promise<string> {
  const total = await cart.total(code);
  return `${cart.summary()}: ${total}`;
}
