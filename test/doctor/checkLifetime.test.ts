import { describe, expect, it } from 'vitest';
import { checkLifetime } from '../../src/doctor/checkLifetime';
import { DOCTOR_CHECKS } from '../../src/doctor/doctorChecks';
import { expectFinding } from './expectFinding';

const iat = 1_795_540_000;

describe("checkLifetime: the access token's lifetime against the contract's 15 minutes", () => {
  it.each([
    ['15 minutes', { iat, exp: iat + 900 }, 'ok', 900, "900 s: the contract's 15 minutes."],
    ['90 s short of it, still the contract', { iat, exp: iat + 810 }, 'ok', 810, "810 s: the contract's 15 minutes."],
    ['90 s past it, still the contract', { iat, exp: iat + 990 }, 'ok', 990, "990 s: the contract's 15 minutes."],
    ['an hour', { iat, exp: iat + 3600 }, 'warn', 3600, "3600 s, not the contract's 15 minutes"],
    ['2 s', { iat, exp: iat + 2 }, 'warn', 2, "2 s, not the contract's 15 minutes"],
    ['no iat', { exp: iat + 900 }, 'not checked', undefined, 'lacks a numeric iat or exp in seconds'],
    ['no exp', { iat }, 'not checked', undefined, 'lacks a numeric iat or exp in seconds'],
    ['exp in milliseconds', { iat, exp: 1e11 }, 'not checked', undefined, 'lacks a numeric iat or exp in seconds'],
  ])('%s', (_name, claims, status, lifetime, detail) => {
    const finding = checkLifetime(claims);
    expectFinding(finding, DOCTOR_CHECKS.lifetime, { status, detail });
    expect(finding.lifetime).toBe(lifetime);
  });
});
