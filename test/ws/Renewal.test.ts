import { describe, expect, it } from 'vitest';
import { freshUntil } from '../../src/ws/Renewal';

const NOW = 1_000_000;
const user = (exp?: number) => ({ id: 'u1', role: 'USER', claims: exp === undefined ? {} : { exp } });

describe('freshUntil: how long a refusal of the token a refresh just brought means the server refuses fresh tokens', () => {
  it.each([
    ['a 15-minute token: 5 s', NOW + 900_000, user((NOW + 900_000) / 1000), NOW + 5_000],
    ['a 6-second token: half its life', NOW + 6_000, user((NOW + 6_000) / 1000), NOW + 3_000],
    ['no expiresAt known: 5 s', undefined, user(), NOW + 5_000],
    ['no user: 5 s', NOW + 900_000, null, NOW + 5_000],
    ['a token past its exp when it came (read late): not fresh at all', NOW - 1_000, user((NOW - 1_000) / 1000), NOW],
    ['a token whose exp is now: not fresh at all', NOW + 900_000, user(NOW / 1000), NOW],
  ])('%s', (_, expiresAt, tokenUser, until) => {
    expect(freshUntil({ expiresAt, user: tokenUser }, NOW)).toBe(until);
  });
});
