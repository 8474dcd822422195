/** Optional fields without undefined values: what `exactOptionalPropertyTypes` asks of an object literal. */

/**
 * The fields of `fields` whose value is not undefined, in order: `...defined({ jobs: o.jobs })`
 * stands for `...(o.jobs !== undefined ? { jobs: o.jobs } : {})`, so an optional field is left
 * out rather than written as undefined (which JSON drops but `in` and spreads see).
 */
export function defined<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) if (fields[key] !== undefined) out[key] = fields[key];
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
