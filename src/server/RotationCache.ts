/**
 * Where the token handler coordinates rotations, so that every request presenting one refresh token causes one
 * upstream refresh. The handler keeps only sealed values in it (never a token in the clear), under keys derived
 * from the refresh token by SHA-256.
 *
 * @remarks
 * The default, {@link createMemoryRotationCache}, serves one process. Handlers running on several instances
 * share one cache, such as {@link createRedisRotationCache}. Every method may be called concurrently from
 * many requests.
 */
export interface RotationCache {
  /**
   * Claims the rotation of `key` for `ttl` ms: resolves `true` for the one caller that is to run it, `false`
   * while another caller (here or on another instance) holds the claim.
   */
  claim(key: string, ttl: number): Promise<boolean>;
  /** Lets go of a claim whose rotation got no verdict (the upstream was unreachable), so that a later request may try. */
  release(key: string): Promise<void>;
  /** Keeps the outcome of the rotation of `key` for `ttl` ms: the requests that present the same token meanwhile receive it. */
  put(key: string, outcome: string, ttl: number): Promise<void>;
  /** The outcome kept for `key`, or `null`. */
  get(key: string): Promise<string | null>;
}

/**
 * Creates the default {@link RotationCache}: this process's memory. Entries are dropped when their time is
 * up, so it holds at most the rotations of one grace window.
 *
 * @param now - The clock, in ms. @defaultValue `Date.now`
 */
export function createMemoryRotationCache(now: () => number = Date.now): RotationCache {
  const entries = new Map<string, { value: string; until: number }>();
  const read = (key: string) => {
    // Entries are kept in the order they were written, and most share one ttl: the expired ones mostly lead,
    // and one that does not is dropped when its key is read.
    for (const [name, entry] of entries) {
      if (entry.until > now()) break;
      entries.delete(name);
    }
    const entry = entries.get(key);
    return entry && entry.until > now() ? entry.value : null;
  };
  const write = (key: string, value: string, ttl: number) => {
    entries.delete(key);
    entries.set(key, { value, until: now() + ttl });
  };
  return {
    async claim(key, ttl) {
      if (read(`claim:${key}`) !== null) return false;
      write(`claim:${key}`, '1', ttl);
      return true;
    },
    async release(key) {
      entries.delete(`claim:${key}`);
    },
    async put(key, outcome, ttl) {
      write(`done:${key}`, outcome, ttl);
    },
    async get(key) {
      return read(`done:${key}`);
    },
  };
}
