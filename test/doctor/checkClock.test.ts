import { describe, it } from 'vitest';
import { checkClock } from '../../src/doctor/checkClock';
import { DOCTOR_CHECKS } from '../../src/doctor/doctorChecks';
import { expectFinding } from './expectFinding';

const iat = 1_795_540_000;

describe("checkClock: the server's clock, from the token's iat, against the moment it arrived", () => {
  it.each([
    ['the same second', iat * 1000, 'ok', 'iat is 0 s from the local clock.'],
    ['30 s behind, within the slack', (iat + 30) * 1000, 'ok', 'iat is 30 s from the local clock.'],
    ['30 s ahead, within the slack', (iat - 30) * 1000, 'ok', 'iat is -30 s from the local clock.'],
    ['31 s behind', (iat + 31) * 1000, 'warn', 'iat is 31 s behind the local clock'],
    ['10 minutes ahead', (iat - 600) * 1000, 'warn', 'iat is 600 s ahead of the local clock'],
    ['rounded to the second', iat * 1000 + 400, 'ok', 'iat is 0 s from the local clock.'],
  ])('%s', (_name, received, status, detail) => {
    expectFinding(checkClock(iat, received), DOCTOR_CHECKS.clock, { status, detail });
  });
});
