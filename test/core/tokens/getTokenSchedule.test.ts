import { describe, expect, it } from 'vitest';
import { getTokenSchedule } from '../../../src/core/tokens/getTokenSchedule';

const NOW = 1_800_000_000_000;
const IAT = 1_700_000_000; // the server's clock, in seconds: far from NOW on purpose

describe('getTokenSchedule', () => {
  it.each`
    case                                             | claims                                | lead       | receivedAt   | expiresAt              | refreshAt
    ${'15 min token, 2.5 min lead'}                  | ${{ iat: IAT, exp: IAT + 900 }}       | ${150_000} | ${NOW}       | ${NOW + 900_000}       | ${NOW + 750_000}
    ${'15 min token, 3 min lead'}                    | ${{ iat: IAT, exp: IAT + 900 }}       | ${180_000} | ${NOW}       | ${NOW + 900_000}       | ${NOW + 720_000}
    ${'60 s token, lead longer: 85 %'}               | ${{ iat: IAT, exp: IAT + 60 }}        | ${150_000} | ${NOW}       | ${NOW + 60_000}        | ${NOW + 51_000}
    ${'lead equal to lifetime: 85 %'}                | ${{ iat: IAT, exp: IAT + 60 }}        | ${60_000}  | ${NOW}       | ${NOW + 60_000}        | ${NOW + 51_000}
    ${'10 s token: 1.5 s before, 85 %'}              | ${{ iat: IAT, exp: IAT + 10 }}        | ${150_000} | ${NOW}       | ${NOW + 10_000}        | ${NOW + 8_500}
    ${'6 s token: 1.3 s before, for whole seconds'}  | ${{ iat: IAT, exp: IAT + 6 }}         | ${150_000} | ${NOW}       | ${NOW + 6_000}         | ${NOW + 4_700}
    ${'3 s token: 1.15 s before, for whole seconds'} | ${{ iat: IAT, exp: IAT + 3 }}         | ${150_000} | ${NOW}       | ${NOW + 3_000}         | ${NOW + 1_850}
    ${'2 s token: 1 s before, half its life'}        | ${{ iat: IAT, exp: IAT + 2 }}         | ${150_000} | ${NOW}       | ${NOW + 2_000}         | ${NOW + 1_000}
    ${'1 s token: half its life'}                    | ${{ iat: IAT, exp: IAT + 1 }}         | ${150_000} | ${NOW}       | ${NOW + 1_000}         | ${NOW + 500}
    ${'lead just under lifetime: 10 % floor'}        | ${{ iat: IAT, exp: IAT + 100 }}       | ${99_999}  | ${NOW}       | ${NOW + 100_000}       | ${NOW + 10_000}
    ${'zero lead: at expiry'}                        | ${{ iat: IAT, exp: IAT + 900 }}       | ${0}       | ${NOW}       | ${NOW + 900_000}       | ${NOW + 900_000}
    ${'restored: exp read by the local clock'}       | ${{ iat: IAT, exp: IAT + 900 }}       | ${150_000} | ${undefined} | ${(IAT + 900) * 1000}  | ${(IAT + 750) * 1000}
    ${'no iat: what is left of exp'}                 | ${{ exp: NOW / 1000 + 900 }}          | ${150_000} | ${NOW}       | ${NOW + 900_000}       | ${NOW + 750_000}
    ${'no iat, lead longer than what is left'}       | ${{ exp: NOW / 1000 + 60 }}           | ${150_000} | ${NOW}       | ${NOW + 60_000}        | ${NOW + 51_000}
    ${'restored without iat'}                        | ${{ exp: IAT + 900 }}                 | ${150_000} | ${undefined} | ${(IAT + 900) * 1000}  | ${(IAT + 750) * 1000}
    ${'30-day token beyond the timer cap'}           | ${{ iat: IAT, exp: IAT + 2_592_000 }} | ${150_000} | ${NOW}       | ${NOW + 2_592_000_000} | ${NOW + 2_591_850_000}
  `('$case', ({ claims, lead, receivedAt, expiresAt, refreshAt }) => {
    expect(getTokenSchedule(claims, lead, receivedAt)).toEqual({ expiresAt, refreshAt });
  });

  it.each([{}, { iat: IAT }, { exp: Number.NaN }, { exp: '1700000000' as unknown as number }, { exp: IAT + 900 }])(
    'has no schedule without a numeric exp, or without iat and dead on arrival: %o',
    (claims) => {
      expect(getTokenSchedule(claims, 150_000, NOW)).toBeNull();
    },
  );
});
