/**
 * The one string order of itgen: UTF-16 code units, as `<` compares, never the locale's. Output
 * (documents, files, kustomization lists, diagnostics) is sorted by it, so that it is identical on
 * every machine whatever its locale.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A comparator of values by a string key, in `compareText` order. */
export function byText<T>(key: (value: T) => string): (a: T, b: T) => number {
  return (a, b) => compareText(key(a), key(b));
}
