import { isSamePair } from '../tokens/readTokenPair';
import type { TokenPair } from '../tokens/TokenPair';

/**
 * The compare of a shared store's compare-and-set, once the service renewed `ours`: whether the new pair may be
 * written over `now`, what the store holds now (`undefined`: it could not be read).
 *
 * @remarks
 * It may while the store holds `ours`, cannot say, or is empty while the last write failed (`unsaved`: that write
 * may be what emptied it). Else a logout or login elsewhere replaced the pair while the request was out, and the
 * new pair belongs to nobody.
 */
export function mayWrite(now: TokenPair | null | undefined, ours: TokenPair, unsaved: boolean): boolean {
  return now === undefined || isSamePair(now, ours) || (now === null && unsaved);
}
