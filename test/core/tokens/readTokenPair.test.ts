import { describe, expect, it } from 'vitest';
import { decodeAccessToken, readTokenPair } from '../../../src/core/tokens/readTokenPair';
import { makeJwt } from '../../helpers/jwt';

describe('decodeAccessToken', () => {
  it.each([
    ['not a JWT', 'garbage', /Invalid token specified/],
    ['a payload that is not JSON', 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.sig', /Invalid token specified/],
    ['a payload that is a string', makeJwt('hello' as never), /not a JSON object with exp after iat/],
    ['a payload that is an array', makeJwt([1] as never), /not a JSON object with exp after iat/],
    ['exp before iat', makeJwt({ iat: 100, exp: 50 }), /not a JSON object with exp after iat/],
    ['exp equal to iat', makeJwt({ iat: 100, exp: 100 }), /not a JSON object with exp after iat/],
  ])('refuses %s', (_name, token, message) => {
    expect(() => decodeAccessToken(token)).toThrow(message);
  });

  it('leaves claims it does not time by (a non-numeric exp) to the schedule, which ignores them', () => {
    expect(decodeAccessToken(makeJwt({ exp: 'soon' }))).toEqual({ exp: 'soon' });
  });

  it.each([
    [
      'UTF-8 beyond Latin-1, and a literal %',
      { sub: 'u_1', iat: 1, exp: 2, name: 'Jürgen Ødegård 日本 🎉', note: '100% sure, %41 stays' },
    ],
    ['base64url characters - and _ in the payload', { sub: 'u_2', iat: 1, exp: 2, s: '>>>???' }],
    ['every payload length modulo 3 (no padding)', { sub: 'u_3', iat: 1, exp: 2, a: 'xy' }],
  ])('decodes %s, through jwt-decode', (_name, claims) => {
    const token = makeJwt(claims);
    expect(token.split('.')[1]).not.toMatch(/[+/=]/);
    expect(decodeAccessToken(token)).toEqual(claims);
  });

  it('returns the claims of a good token', () => {
    expect(decodeAccessToken(makeJwt({ sub: 'u', role: 'ADMIN', iat: 1, exp: 2 }))).toEqual({
      sub: 'u',
      role: 'ADMIN',
      iat: 1,
      exp: 2,
    });
  });
});

describe('readTokenPair', () => {
  it.each([
    ['nothing', undefined, 'refreshToken answered without a valid accessToken.'],
    [
      'an empty access token',
      { accessToken: '', refreshToken: 'r' },
      'refreshToken answered without a valid accessToken.',
    ],
    [
      'a numeric refresh token',
      { accessToken: makeJwt({}), refreshToken: 42 },
      'refreshToken answered without a valid refreshToken.',
    ],
    [
      'an access token that is not a JWT',
      { accessToken: 'x', refreshToken: 'r' },
      'refreshToken answered with an access token that is not a valid JWT.',
    ],
  ])('refuses %s with a clear AuthRequestError', (_name, value, message) => {
    expect(() => readTokenPair(value, 'refreshToken', 0)).toThrow(
      expect.objectContaining({ name: 'AuthRequestError', message }),
    );
  });
});
