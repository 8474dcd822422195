/** Calls to the bookshop API. */
export interface BookSummary {
  isbn: string;
  title: string;
}

const BASE = "/api";

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${BASE}${path}`);
  if (!response.ok) throw new Error(`GET ${path} failed: ${response.status}`);
  return (await response.json()) as T;
}

export function searchBooks(words: string): Promise<string[]> {
  return getJson<string[]>(`/books?q=${encodeURIComponent(words)}`);
}

export async function quote(customer: string, items: Record<string, number>, code?: string): Promise<string> {
  const response = await fetch(`${BASE}/quote`, { method: "POST", body: JSON.stringify({ customer, items, code }) });
  const body = (await response.json()) as { total: string };
  return body.total;
}
