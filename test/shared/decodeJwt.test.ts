import fc from 'fast-check';
import { jwtDecode } from 'jwt-decode';
import { describe, expect, it } from 'vitest';
import { decodeJwt } from '../../src/shared/decodeJwt';
import { makeJwt } from '../helpers/jwt';

describe('decodeJwt', () => {
  it.each([
    ['ASCII claims', { sub: 'u_1', exp: 2, iat: 1 }],
    ['UTF-8 beyond Latin-1, and a literal %', { name: 'Jürgen Ødegård 日本 🎉', note: '100% sure, %41 stays' }],
    ['every payload length modulo 3 (no padding in the token)', { a: 'x' }],
    ['every payload length modulo 3 (no padding in the token)', { a: 'xy' }],
    ['every payload length modulo 3 (no padding in the token)', { a: 'xyz' }],
    ['base64url characters - and _', { s: '>>>???' }],
  ])('decodes %s', (_name, claims) => {
    const token = makeJwt(claims);
    expect(token.split('.')[1]).not.toMatch(/[+/=]/);
    expect(decodeJwt(token)).toEqual(claims);
  });

  it.each([
    ['no payload part', 'garbage'],
    ['a payload that is not JSON', 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.sig'],
    ['a payload that is not base64url', 'a.b$c!.sig'],
    ['a payload that is not UTF-8', `a.${Buffer.from([0x7b, 0xff, 0x7d]).toString('base64url')}.sig`],
    ['no token at all', undefined as unknown as string],
  ])('refuses %s, naming the token', (_name, token) => {
    expect(() => decodeJwt(token)).toThrow(/^Invalid token specified/);
  });
});

describe('decodeJwt against jwt-decode, the library it replaces', () => {
  it('decodes what jwt-decode decodes, to the same claims, for arbitrary JSON payloads', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (claims) => {
        const token = makeJwt(claims);
        expect(decodeJwt(token)).toEqual(jwtDecode(token));
      }),
      { numRuns: 300 },
    );
  });
});
