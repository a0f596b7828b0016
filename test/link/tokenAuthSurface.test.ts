import { describe, expect, it } from 'vitest';
import * as root from 'apollo-link-token-pair';
import { getTokenAuthInternals } from 'apollo-link-token-pair/internal';
import { createTokenAuth, type TokenAuth } from '../../src';

describe('the object createTokenAuth returns', () => {
  it('has exactly the members of TokenAuth, and none of the engine', () => {
    const auth = createTokenAuth({ uri: 'http://auth.test/graphql' });
    expect(Object.keys(auth).sort()).toEqual([
      'adopt',
      'dispose',
      'getAccessToken',
      'getInitialState',
      'getState',
      'link',
      'login',
      'logout',
      'observe',
      'refresh',
      'signIn',
      'subscribe',
    ]);
    expect(Object.getOwnPropertySymbols(auth)).toEqual([]);
    auth.dispose();
  });

  it("gives ./internal its session and the app's isTokenExpiredError, and nothing for a stand-in", () => {
    const isTokenExpiredError = () => false;
    const auth = createTokenAuth({ uri: 'http://auth.test/graphql', isTokenExpiredError });
    const internals = getTokenAuthInternals(auth);
    expect(internals?.isTokenExpiredError).toBe(isTokenExpiredError);
    expect(internals?.session.getState()).toBe(auth.getState());
    expect(typeof internals?.session.current).toBe('function');
    expect(getTokenAuthInternals({ ...auth } as TokenAuth)).toBeUndefined();
    auth.dispose();
  });

  it('the root entry exports no plumbing', () => {
    expect(Object.keys(root)).not.toContain('IS_TOKEN_EXPIRED');
    expect(Object.keys(root)).not.toContain('getTokenAuthInternals');
  });
});
