/** Display helpers. */
export function formatPrice(amount: string | number, currency = "EUR"): string {
  return new Intl.NumberFormat("en", { style: "currency", currency }).format(Number(amount));
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
