// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import {
  createMemoryTokenStore,
  createTokenAuth,
  createTokenStore,
  shareTokenStore,
  type TokenPair,
} from '../../../src';
import { makePair } from '../../helpers/jwt';

const URI = 'http://127.0.0.1:1/graphql';

describe('what `store` takes', () => {
  it("refuses a storage of the app's own handed in as it is, naming createTokenStore", () => {
    const storage = { get: () => null, set: () => {}, clear: () => {} };
    expect(() => createTokenAuth({ uri: URI, store: storage as never })).toThrow(/createTokenStore\(yourStorage\)/);
    const auth = createTokenAuth({ uri: URI, store: createTokenStore(storage) });
    expect(auth.getState().status).toBe('unauthenticated');
    auth.dispose();
  });

  it('refuses localStorage in createTokenStore, naming the rule', () => {
    expect(() => createTokenStore(window.localStorage as never)).toThrow(
      /must not be given localStorage: the spec forbids it/,
    );
  });

  it('createTokenStore leaves the storage handed in as it was, and reads a synchronous one synchronously', () => {
    let stored: TokenPair | null = makePair('stored');
    const storage = {
      get: () => stored,
      set: (pair: TokenPair) => void (stored = pair),
      clear: () => void (stored = null),
    };
    const keys = Reflect.ownKeys(storage);
    const auth = createTokenAuth({ uri: URI, store: createTokenStore(storage) });
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_1' } });
    expect(Reflect.ownKeys(storage)).toEqual(keys);
    auth.dispose();
  });

  it('the memory store starts with a pair handed in, and with none for something that is not a pair', () => {
    const auth = createTokenAuth({ uri: URI, store: createMemoryTokenStore(makePair('initial')) });
    expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { id: 'u_1' } });
    auth.dispose();
    const junk = createMemoryTokenStore({ accessToken: 'a' } as TokenPair);
    expect(junk.get()).toBeNull();
  });

  it('a memory store shared with shareTokenStore serves two sessions, which follow each other', async () => {
    const store = shareTokenStore(createMemoryTokenStore());
    const a = createTokenAuth({ uri: URI, store });
    const b = createTokenAuth({ uri: URI, store });
    await store.set(makePair('elsewhere'));
    expect(a.getState()).toMatchObject({ status: 'authenticated' });
    expect(b.getState()).toMatchObject({ status: 'authenticated' });
    a.dispose();
    b.dispose();
  });
});
