// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createMemoryTokenStore, createSplitTokenStore, createTokenAuth, type SecretSlot } from '../../../src';
import { makePair } from '../../helpers/jwt';

function slot() {
  let secret: string | null = null;
  const writes: string[] = [];
  const s: SecretSlot = {
    get: async () => secret,
    set: async (value) => {
      secret = value;
      writes.push(value);
    },
    delete: async () => {
      secret = null;
    },
  };
  return { slot: s, writes, peek: () => secret };
}

describe('createSplitTokenStore', () => {
  it('keeps the access token in memory and only the refresh token in secure storage', async () => {
    const secure = slot();
    const store = createSplitTokenStore(secure.slot);
    const pair = makePair('split');
    await store.set(pair);
    expect(secure.writes).toEqual([pair.refreshToken]);
    expect(await store.get()).toEqual(pair);
    // After a restart only the refresh token is left: the session renews the pair first.
    const restarted = createSplitTokenStore(secure.slot);
    expect(await restarted.get()).toEqual({ accessToken: '', refreshToken: pair.refreshToken });
    await store.clear();
    expect(secure.peek()).toBeNull();
    expect(await store.get()).toBeNull();
  });

  it('accepts a Web Storage-like object under a key', async () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
    };
    const store = createSplitTokenStore(storage, { key: 'rt' });
    await store.set(makePair('w'));
    expect([...map.keys()]).toEqual(['rt']);
  });

  it('refuses window.localStorage with an error that names the rule and what to do instead, unless opted in by name', () => {
    expect(() => createSplitTokenStore(window.localStorage)).toThrow(
      /must not keep the refresh token in localStorage: the spec forbids it/,
    );
    expect(() => createSplitTokenStore(window.localStorage)).toThrow(/\{ dangerouslyAllowLocalStorage: true \}/);
    const store = () => createTokenAuth({ uri: '/graphql', store: window.localStorage as never });
    expect(store).toThrow(/createTokenStore\(yourStorage\), never localStorage/);
    expect(store).toThrow(/createTokenStore\(yourStorage\)/);
    // That option belongs to createSplitTokenStore: `store` has no way to allow localStorage.
    expect(store).not.toThrow(/dangerouslyAllowLocalStorage/);
    expect(() => createSplitTokenStore(window.localStorage, { dangerouslyAllowLocalStorage: true })).not.toThrow();
    expect(() => createSplitTokenStore(window.sessionStorage)).not.toThrow();
    createTokenAuth({ uri: '/graphql', store: createMemoryTokenStore() }).dispose();
  });
});
