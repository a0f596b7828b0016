import { describe, expect, it } from 'vitest';
import { AuthRequestError } from '../../../src/core/errors/AuthRequestError';
import { storeReadError } from '../../../src/core/stores/storeReadError';

describe("storeReadError: a store's failed read, in the store's own words", () => {
  it.each([
    [
      'the store said why',
      new Error('User interaction is not allowed.'),
      'The token store could not be read: User interaction is not allowed.',
    ],
    ['the store said nothing', new Error(''), 'The token store could not be read.'],
    ['the store threw a string', 'locked', 'The token store could not be read.'],
    ['the store threw null', null, 'The token store could not be read.'],
    ['the store threw nothing at all', undefined, 'The token store could not be read.'],
  ])('%s', (_name, cause, message) => {
    const error = storeReadError(cause);
    expect(AuthRequestError.is(error)).toBe(true);
    expect(error).toMatchObject({ message, operation: 'store' });
    expect(error.cause).toBe(cause);
  });

  it("passes a failure already told as the store's on as it is (a store that did not answer in time)", () => {
    const timedOut = new AuthRequestError('The token store did not answer within 10000 ms.', 'store');
    expect(storeReadError(timedOut)).toBe(timedOut);
  });

  it('wraps a failure of another operation', () => {
    const network = new AuthRequestError('The auth service cannot be reached.', 'refresh');
    expect(storeReadError(network)).toMatchObject({ operation: 'store', cause: network });
  });
});
