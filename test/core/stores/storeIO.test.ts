import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createMemoryTokenStore, createTokenStore, shareTokenStore, type TokenStorage } from '../../../src';
import { makePair } from '../../helpers/jwt';
import { setup, tick } from '../../helpers/session';

// The pair as the stores of an app's own storage keep it (createTokenStore, shareTokenStore): with the version of
// its format, an older format migrated on read, and a format this version does not know left where it is.

/**
 * What the package stored before formats had versions, exactly: the string that createTokenStore left in a JSON
 * slot, as the React Native recipe stores it, after a login of admin@demo.test against
 * createTestAuthServer({ secret: 'fixture' }), run at commit 9c69022.
 */
const STORED_BEFORE_VERSIONS =
  '{"accessToken":"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1X2FkbWluIiwiZW1haWwiOiJhZG1pbkBkZW1vLnRlc3QiLCJyb2xlIjoiQURNSU4iLCJzaWQiOiIyYmZjNWQxOS05NmM1LTRhZTEtODgyMC03YmFkOTU2ZTMxMjciLCJqdGkiOiIwMWI1OTVlZS1kOTBiLTRlZGUtYWQ2My1hZjg4NzBiNjIxZTQiLCJuIjoxLCJ0eXAiOiJhY2Nlc3MiLCJpYXQiOjE3OTU4OTc0NDAsImV4cCI6MTc5NTg5ODM0MH0.35ClvBRTP9IIb19ohoik707F_ddcSxUxIhFFbES6WtE","refreshToken":"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1X2FkbWluIiwic2lkIjoiMmJmYzVkMTktOTZjNS00YWUxLTg4MjAtN2JhZDk1NmUzMTI3IiwianRpIjoiZjE2MDhlYzgtYzE1Yi00MjU3LWIxZDMtNTE2NTJlYzZlMWVkIiwidHlwIjoicmVmcmVzaCIsImlhdCI6MTc5NTg5NzQ0MCwiZXhwIjoxNzk4NDg5NDQwfQ.bSO67Rv_ApYr7EkEJo_vru0da1ZxPl1llpzvhkdspdA","receivedAt":1795897440741}';

/** When that pair was received: its access token lives 15 minutes from then. */
const RECEIVED_AT = 1795897440741;

/** A storage that keeps what it is given as JSON in one string slot, as the React Native recipe's Keychain does. */
function jsonSlot(initial: string | null) {
  const slot = { value: initial };
  const storage = {
    get: vi.fn(() => (slot.value === null ? null : JSON.parse(slot.value))),
    set: vi.fn((pair: unknown) => void (slot.value = JSON.stringify(pair))),
    clear: vi.fn(() => void (slot.value = null)),
  } satisfies TokenStorage;
  return { slot, storage };
}

/** The words of a report of a stored value whose format this version does not know. */
const UNKNOWN_FORMAT =
  /^The stored session is in a format this version of apollo-link-token-pair does not know \((.+)\): it was left in the store as it is, and this session is signed out \(a sign-in here replaces it\)\.$/;

describe('a pair stored before formats had versions', () => {
  it('is read as it was stored, with no request, and the next write stores it with its version', async () => {
    vi.useFakeTimers({ now: RECEIVED_AT + 60_000 });
    onTestFinished(() => void vi.useRealTimers());
    const { slot, storage } = jsonSlot(STORED_BEFORE_VERSIONS);
    const { session, stub, onError } = setup({ store: createTokenStore(storage), auto: true });
    expect(session.getState()).toMatchObject({
      status: 'authenticated',
      user: { id: 'u_admin', email: 'admin@demo.test', role: 'ADMIN' },
    });
    const stored = JSON.parse(STORED_BEFORE_VERSIONS) as { accessToken: string };
    await expect(session.getAccessToken()).resolves.toBe(stored.accessToken);
    expect(stub.calls).toHaveLength(0);
    expect(storage.set).not.toHaveBeenCalled();
    expect(storage.clear).not.toHaveBeenCalled();
    await session.login('a@b.test', 'pw');
    const written = JSON.parse(slot.value!) as Record<string, unknown>;
    expect(written).toEqual({
      version: 1,
      accessToken: await session.getAccessToken(),
      refreshToken: expect.stringMatching(/^refresh-/),
      receivedAt: RECEIVED_AT + 60_000,
    });
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('a stored value of a format this version does not know', () => {
  const newer = (pair = makePair('newer')) => JSON.stringify({ ...pair, version: 2, device: 'd_1' });

  it.each([
    ['a newer format', () => newer(), 'format 2, perhaps stored by a newer version'],
    ['another shape', () => JSON.stringify({ token: 'abc' }), 'not a token pair'],
    ['a string', () => JSON.stringify('refresh-abc'), 'not a token pair'],
  ])(
    'is left in the store as it is (%s), reported in words once, and the session starts signed out',
    async (_, value, found) => {
      const stored = value();
      const { slot, storage } = jsonSlot(stored);
      const { session, stub, onError, states } = setup({ store: createTokenStore(storage), retryDelay: 1_000 });
      await tick(60_000);
      // Signed out from the start, and not read again on a backoff.
      expect(session.getState()).toEqual({ status: 'unauthenticated', user: null });
      expect(states).toEqual([]);
      expect(onError).toHaveBeenCalledTimes(1);
      const [error] = onError.mock.calls[0]! as [Error & { operation: string }];
      expect(error).toMatchObject({ name: 'AuthRequestError', operation: 'store' });
      expect(UNKNOWN_FORMAT.exec(error.message)?.[1]).toBe(found);
      expect(slot.value).toBe(stored);
      expect(storage.clear).not.toHaveBeenCalled();
      expect(storage.get).toHaveBeenCalledTimes(1);
      expect(stub.calls).toHaveLength(0);
    },
  );

  it('is told to the observers as an error event', async () => {
    const { storage } = jsonSlot(newer());
    const { session } = setup({ store: createTokenStore(storage) });
    const events: { type: string; error?: unknown }[] = [];
    session.observe((event) => events.push(event));
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'error',
        error: expect.objectContaining({ message: expect.stringMatching(UNKNOWN_FORMAT) }),
      }),
    );
  });

  it('is replaced by a sign-in here, in the format of this version', async () => {
    const { slot, storage } = jsonSlot(newer());
    const { session } = setup({ store: createTokenStore(storage), auto: true });
    await session.login('a@b.test', 'pw');
    expect(JSON.parse(slot.value!)).toMatchObject({ version: 1, accessToken: await session.getAccessToken() });
  });

  it('stored by a session sharing the store, signs this one out and stays in the store', async () => {
    const memory = createMemoryTokenStore();
    const { session, onError, onSessionEnd } = setup({ store: shareTokenStore(memory), auto: true });
    await session.login('a@b.test', 'pw');
    const stored = { ...makePair('newer'), version: 2 };
    await memory.set(stored);
    await tick(0);
    expect(session.getState().status).toBe('unauthenticated');
    expect(onSessionEnd).toHaveBeenCalledWith(expect.objectContaining({ reason: 'logout' }));
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringMatching(UNKNOWN_FORMAT) }));
    expect(memory.get()).toBe(stored);
  });
});
