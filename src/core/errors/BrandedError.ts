const brandKey = (brand: string) => Symbol.for(`apollo-link-token-pair.${brand}`);

/**
 * The base of this package's errors: `is()` recognises an error by a `Symbol.for` brand, which survives
 * duplicate copies of the package in one bundle, where `instanceof` does not.
 */
export class BrandedError extends Error {
  /** The brand; each subclass sets its own, which is also its `name`. */
  declare static brand: string;

  /** Tells whether `error` is of the class this is called on, even one from another copy of this package. */
  static is(error: unknown): boolean {
    return (error as Record<symbol, unknown> | null)?.[brandKey(this.brand)] === true;
  }

  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.brand;
    // Branded as its class and every branded class it extends: `AuthRequestError.is` holds for a subclass too.
    for (let type = new.target; type.brand; type = Object.getPrototypeOf(type) as typeof BrandedError) {
      Object.defineProperty(this, brandKey(type.brand), { value: true });
    }
  }
}
