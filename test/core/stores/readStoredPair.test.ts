import { describe, expect, it } from 'vitest';
import { readStoredPair, STORED_PAIR_VERSION, toStoredPair } from '../../../src/core/stores/readStoredPair';

// The stored pair's format, against a table of the values a store may hold.

const pair = { accessToken: 'a', refreshToken: 'r', receivedAt: 1_000 };
const NEWER = 'format 2, perhaps stored by a newer version';

describe('readStoredPair', () => {
  it.each([
    ['an empty store (null)', null, { pair: null }],
    ['an empty store (undefined)', undefined, { pair: null }],
    ['format 0: a pair stored before formats had versions', pair, { pair }],
    [
      'format 0 without receivedAt',
      { accessToken: '', refreshToken: 'r' },
      { pair: { accessToken: '', refreshToken: 'r' } },
    ],
    ['format 1', { ...pair, version: 1 }, { pair: { ...pair, version: 1 } }],
    ['format 2', { ...pair, version: 2 }, { unknown: NEWER }],
    ['format 3', { ...pair, version: 3 }, { unknown: 'format 3, perhaps stored by a newer version' }],
    ['a version that is not a whole number', { ...pair, version: 1.5 }, { unknown: 'not a token pair' }],
    ['a version that is a string', { ...pair, version: '1' }, { unknown: 'not a token pair' }],
    ['a negative version', { ...pair, version: -1 }, { unknown: 'not a token pair' }],
    ['format 1 without a refresh token', { accessToken: 'a', version: 1 }, { unknown: 'not a token pair' }],
    ['format 0 with an empty refresh token', { accessToken: 'a', refreshToken: '' }, { unknown: 'not a token pair' }],
    ['another shape', { token: 'abc' }, { unknown: 'not a token pair' }],
    ['a string (JSON not parsed)', '{"accessToken":"a","refreshToken":"r"}', { unknown: 'not a token pair' }],
    ['a number', 42, { unknown: 'not a token pair' }],
  ])('reads %s', (_, value, read) => {
    expect(readStoredPair(value)).toEqual(read);
  });

  it('reads what toStoredPair writes as the pair it was given', () => {
    const stored = toStoredPair(pair);
    expect(stored).toEqual({ ...pair, version: STORED_PAIR_VERSION });
    expect(readStoredPair(JSON.parse(JSON.stringify(stored)))).toEqual({ pair: stored });
  });
});
