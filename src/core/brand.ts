/** Marks `target` with a `Symbol.for` brand, which survives duplicate copies of this package in one bundle. */
export function setBrand(target: object, name: string): void {
  Object.defineProperty(target, Symbol.for(`apollo-link-token-pair.${name}`), { value: true });
}

/** Tells whether `value` carries the brand set by {@link setBrand}. */
export function hasBrand(value: unknown, name: string): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[Symbol.for(`apollo-link-token-pair.${name}`)] === true
  );
}
