import { describe, expect, it } from 'vitest';
import { firstValue } from '../../src/server/firstValue';

describe('firstValue: the client-facing value of a header that proxies append to', () => {
  it.each([
    ['one value is that value', 'example.com', 'example.com'],
    ['a chain is its first value, trimmed', ' app.example.com , proxy.internal', 'app.example.com'],
    ['an empty header is empty', '', ''],
    ['a header not sent is undefined', null, undefined],
    ['a header not read is undefined', undefined, undefined],
  ])('%s', (_, header, expected) => {
    expect(firstValue(header)).toBe(expected);
  });
});
