import { isTokenPair } from '../tokens/readTokenPair';
import type { TokenPair } from '../tokens/TokenPair';

/**
 * The version of the format in which a session hands its pair to a store. A stored value without `version` was
 * stored before formats had one: format 0.
 */
export const STORED_PAIR_VERSION = 1;

/**
 * A {@link TokenPair} as a session hands it to a store: the pair's own fields, flat, so that a version of the
 * package from before formats still reads it, and the `version` of its format, so that a later one can migrate it.
 */
export interface StoredPair extends TokenPair {
  readonly version: number;
}

/**
 * What a stored value reads as: the pair (`null` for an empty store), migrated to today's format, or, for a value
 * this version does not know, what it is in words.
 */
export type StoredRead = { readonly pair: TokenPair | null } | { readonly unknown: string };

// How a value of each older format becomes the next one, at the index of its version. Format 0 held the same
// fields as format 1, without the version.
const MIGRATIONS: readonly ((value: unknown) => unknown)[] = [(value) => value];

const NOT_A_PAIR: StoredRead = { unknown: 'not a token pair' };

/** `pair` in the format of this version, for a store to keep as it is. */
export function toStoredPair(pair: TokenPair): StoredPair {
  return { ...pair, version: STORED_PAIR_VERSION };
}

/**
 * Reads a value a store holds, migrating an older format. A value of a format this version does not know (a
 * newer version's, or another shape) is `unknown`: it is not for this version to read, nor to clear.
 */
export function readStoredPair(value: unknown): StoredRead {
  if (value == null) return { pair: null };
  const found = (value as { version?: unknown }).version ?? 0;
  if (!Number.isInteger(found) || (found as number) < 0) return NOT_A_PAIR;
  const version = found as number;
  if (version > STORED_PAIR_VERSION) return { unknown: `format ${version}, perhaps stored by a newer version` };
  let migrated: unknown = value;
  for (let from = version; from < STORED_PAIR_VERSION; from++) {
    migrated = MIGRATIONS[from]!(migrated);
  }
  return isTokenPair(migrated) ? { pair: migrated } : NOT_A_PAIR;
}
