import { describe, expect, it } from 'vitest';
import { mayWrite } from '../../../src/core/stores/mayWrite';
import type { TokenPair } from '../../../src/core/tokens/TokenPair';

const ours: TokenPair = { accessToken: 'a1', refreshToken: 'r1' };
const theirs: TokenPair = { accessToken: 'a2', refreshToken: 'r2' };

describe('mayWrite: the compare of a shared store once the service renewed its pair', () => {
  it.each([
    ['the store holds the renewed pair: write', ours, false, true],
    ['the store holds it without its access token (a split store): write', { ...ours, accessToken: '' }, false, true],
    ['the store could not be read: write', undefined, false, true],
    ['the store is empty after a failed write: write', null, true, true],
    ['the store was emptied (a logout elsewhere): the new pair belongs to nobody', null, false, false],
    ['another pair was stored (a login or refresh elsewhere): no write', theirs, false, false],
    ['another pair was stored, even after a failed write: no write', theirs, true, false],
    ['the renewed refresh token with another access token: no write', { ...ours, accessToken: 'a9' }, false, false],
  ] as const)('%s', (_name, now, unsaved, expected) => {
    expect(mayWrite(now, ours, unsaved)).toBe(expected);
  });
});
