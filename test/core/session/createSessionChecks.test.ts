import { describe, expect, it } from 'vitest';
import { createSessionChecks } from '../../../src/core/session/createSessionChecks';
import { speaksOfAuth } from '../../../src/shared/speaksOfAuth';

describe('speaksOfAuth: the words of a refused token or session', () => {
  it.each([
    ['Not authenticated', true],
    ['Unauthorized', true],
    ['Authentication required', true],
    ['You must be logged in', true],
    ['Invalid refresh token', true],
    ['Refresh token expired', true],
    ['jwt expired', true],
    ['invalid signature', true],
    ['Session revoked', true],
    ['Token has been revoked', true],
    ['Club not found', false],
    ['Not allowed to edit this club', false],
    ['Access denied', false],
    ['Invalid email or password', false],
    ['db down', false],
    ['Unexpected error.', false],
    ["Cannot read properties of undefined (reading 'token')", false],
  ])('%s → %s', (message, expected) => {
    expect(speaksOfAuth(message)).toBe(expected);
  });
});

describe('createSessionChecks: which doubtful failures cost a refresh', () => {
  const fresh = {};

  it('checks a failure in the words of a refused session every time it comes, until a check proves it is not', () => {
    const checks = createSessionChecks();
    expect(checks.worth('Not authenticated', fresh, 0)).toBe('Not authenticated');
    expect(checks.worth('Not authenticated', fresh, 100)).toBe('Not authenticated');
    // Said again to the very pair its check brought: the operation's own error, never checked again.
    const renewed = {};
    checks.brought(renewed, 'Not authenticated');
    expect(checks.worth('Not authenticated', renewed, 200)).toBeUndefined();
    expect(checks.worth('Not authenticated', fresh, 300)).toBeUndefined();
  });

  it('checks any other failure at most once a minute', () => {
    const checks = createSessionChecks();
    expect(checks.worth('Club not found', fresh, 0)).toBe('Club not found');
    expect(checks.worth('Not allowed to edit this club', fresh, 200)).toBeUndefined();
    expect(checks.worth('Not allowed to edit this club', fresh, 59_999)).toBeUndefined();
    expect(checks.worth('Not allowed to edit this club', fresh, 60_000)).toBe('Not allowed to edit this club');
  });

  it('takes failures that differ by their numbers or quoted parts as one', () => {
    const checks = createSessionChecks();
    expect(checks.worth('Club 12 not found', fresh, 0)).toBe('Club # not found');
    const renewed = {};
    checks.brought(renewed, 'Club # not found');
    expect(checks.worth('Club 13 not found', renewed, 100)).toBeUndefined();
    expect(checks.worth('Club 14 not found', fresh, 120_000)).toBeUndefined();
    expect(checks.worth('Not authenticated for "alice"', fresh, 0)).toBe('Not authenticated for #');
  });

  it('spends at most 10 checks on 10 minutes of ever-new business errors, 5 a second', () => {
    const checks = createSessionChecks();
    let spent = 0;
    for (let n = 0; n < 3_000; n++)
      if (checks.worth(`Order ${'x'.repeat(n % 50)} failed: ${n}`, fresh, n * 200)) spent += 1;
    expect(spent).toBe(10);
  });
});
