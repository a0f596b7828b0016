import { describe, expect, it, vi } from 'vitest';
import {
  AuthRejectedError,
  AuthRequestError,
  createMemoryTokenStore,
  type Lock,
  shareTokenStore,
  type ShareTokenStoreOptions,
  type TokenPair,
  type TokenStorage,
} from '../../../src';
import { systemClock } from '../../../src/core/environment/Clock';
import { createLock } from '../../../src/core/environment/lock';
import { openStore, type StoreHost } from '../../../src/core/stores/openStore';
import { makePair } from '../../helpers/jwt';
import { useTestClock } from '../../helpers/session';

// The shared store as the sessions that open it see it, each through its own seam (`openStore`): reads, writes under
// the lock, the compare-and-set of a refresh, the lock's deadline, and the changes other sessions make.

useTestClock();

const ours = makePair('ours');
const next = makePair('next');
const theirs = makePair('theirs');

/** A session's side of the seam: the fake clock, and spies for what the store tells it. */
function hostOf() {
  return {
    clock: systemClock,
    timeout: 5_000,
    report: vi.fn<StoreHost['report']>(),
    adopt: vi.fn<StoreHost['adopt']>(),
    emit: vi.fn<StoreHost['emit']>(),
  } satisfies StoreHost;
}

/** A lock that is never granted: a session holding it froze. */
const frozenLock: Lock = () => new Promise(() => {});

/**
 * A shared store over a memory storage holding `initial`, whose reads fail once `broken` is set, and `open()` for
 * the seam of one more session.
 */
function sharedOver(initial: TokenPair | null, options: ShareTokenStoreOptions = {}) {
  const memory = createMemoryTokenStore(initial);
  const state = { broken: undefined as Error | undefined };
  const storage: TokenStorage = {
    ...memory,
    get: () => (state.broken ? Promise.reject(state.broken) : memory.get()),
  };
  const store = shareTokenStore(storage, options);
  const open = (host = hostOf()) => ({ seam: openStore(store, host), host });
  return { memory, store, state, open };
}

/** The pair a memory storage holds, without the version of its format. */
const held = (memory: TokenStorage) => {
  const value = memory.get() as (TokenPair & { version?: number }) | null;
  return value && { accessToken: value.accessToken, refreshToken: value.refreshToken };
};

/** A rotation of `ours`, by a session that opens the store now, whose renewal fails with `error`. */
const failedRotation = (open: ReturnType<typeof sharedOver>['open'], error: Error) =>
  open().seam.rotate(
    ours,
    () => Promise.reject(error),
    () => true,
  );

describe('shareTokenStore: the store handed to several sessions', () => {
  it('reads, writes and clears through the storage it wraps, and tells its subscribers', async () => {
    const memory = createMemoryTokenStore();
    const keys = Reflect.ownKeys(memory);
    const store = shareTokenStore(memory);
    const heard = vi.fn();
    const stop = store.subscribe!(heard);
    await store.set(ours);
    expect(memory.get()).toBe(ours);
    expect(await store.get()).toBe(ours);
    await store.clear();
    expect(memory.get()).toBeNull();
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
    await memory.set(theirs);
    expect(heard).toHaveBeenCalledTimes(2);
    expect(store).not.toBe(memory);
    expect(Reflect.ownKeys(memory)).toEqual(keys);
  });

  it('has no subscribe where its storage has none', () => {
    const store = shareTokenStore({ get: () => null, set: () => {}, clear: () => {} });
    expect(store.subscribe).toBeUndefined();
  });

  it('returns a shared store handed to it as it is', () => {
    const store = shareTokenStore(createMemoryTokenStore());
    expect(shareTokenStore(store, { name: 'other' })).toBe(store);
  });
});

describe('a session that opens a shared store', () => {
  it('loads the stored pair, synchronously from a storage that answers so', () => {
    const store = shareTokenStore(createMemoryTokenStore(ours));
    expect(openStore(store, hostOf()).load()).toMatchObject(ours);
  });

  it('is opened by any number of sessions, each waiting for the lock at most lockTimeout (20 s by default)', () => {
    const { open } = sharedOver(null);
    expect([open().seam.lockWait, open().seam.lockWait]).toEqual([20_000, 20_000]);
    expect(sharedOver(null, { lockTimeout: 5_000 }).open().seam.lockWait).toBe(5_000);
  });

  it('writes a pair under the lock of its name, and one no longer wanted not at all', async () => {
    const names: string[] = [];
    const shared = createLock();
    const lock: Lock = (name, task, signal) => (names.push(name), shared(name, task, signal));
    const { memory, open } = sharedOver(null, { lock, name: 'tenant-1' });
    const { seam } = open();
    await seam.save(theirs, () => false);
    expect(memory.get()).toBeNull();
    await seam.save(ours);
    expect(held(memory)).toEqual(ours);
    expect(names).toEqual(['tenant-1', 'tenant-1']);
  });

  it('writes a pair without the lock once it has waited 1 s for it, and empties the store without waiting', async () => {
    const { memory, open } = sharedOver(theirs, { lock: frozenLock });
    const { seam } = open();
    const saved = seam.save(ours);
    await vi.advanceTimersByTimeAsync(999);
    expect(held(memory)).toEqual(theirs);
    await vi.advanceTimersByTimeAsync(1);
    await saved;
    expect(held(memory)).toEqual(ours);
    await seam.save(null);
    expect(memory.get()).toBeNull();
  });
});

describe('a rotation of a shared store', () => {
  it('renews the stored pair under the lock and stores the new one', async () => {
    const { memory, open } = sharedOver(ours);
    const renew = vi.fn(async () => next);
    await expect(open().seam.rotate(ours, renew, () => true)).resolves.toEqual({ pair: next });
    expect(renew).toHaveBeenCalledExactlyOnceWith(ours);
    expect(held(memory)).toEqual(next);
  });

  it.each([
    ['another session renewed it: adopts its pair', theirs, { pair: theirs, adopted: true }],
    ['another session logged out: ends', null, { pair: null, reason: undefined }],
  ])('sends nothing when the store no longer holds the pair, %s', async (_name, stored, rotation) => {
    const { memory, open } = sharedOver(stored);
    const renew = vi.fn(async () => next);
    await expect(open().seam.rotate(ours, renew, () => true)).resolves.toEqual(rotation);
    expect(renew).not.toHaveBeenCalled();
    expect(held(memory)).toEqual(stored);
  });

  it.each([
    [
      'another pair stored (a login elsewhere): adopts it, and hands back the new pair, which belongs to nobody',
      theirs,
      { pair: theirs, adopted: true, orphan: next },
      theirs,
    ],
    [
      'the store emptied (a logout elsewhere): ends, the new pair belonging to nobody',
      null,
      { pair: null, orphan: next },
      null,
    ],
  ])(
    'does not write the new pair over a store changed while the request was out: %s',
    async (_name, meanwhile, rotation, left) => {
      const { memory, open } = sharedOver(ours);
      const renew = async () => {
        await (meanwhile ? memory.set(meanwhile) : memory.clear());
        return next;
      };
      expect(await open().seam.rotate(ours, renew, () => true)).toEqual(rotation);
      expect(held(memory)).toEqual(left);
    },
  );

  it('stores nothing once the session no longer wants the new pair, and empties the store of the renewed one', async () => {
    const { memory, open } = sharedOver(ours);
    let wanted = true;
    const renew = async () => ((wanted = false), next);
    expect(await open().seam.rotate(ours, renew, () => wanted)).toEqual({ pair: null, orphan: next });
    expect(memory.get()).toBeNull();
  });

  it('fails without a request, keeping the pair, when the store cannot be read inside the lock', async () => {
    const { memory, state, open } = sharedOver(ours);
    const renew = vi.fn(async () => next);
    state.broken = new Error('keychain locked');
    const error = await open()
      .seam.rotate(ours, renew, () => true)
      .catch((e: unknown) => e);
    expect(AuthRequestError.is(error)).toBe(true);
    expect(error).toMatchObject({
      message: 'The token store could not be read: keychain locked',
      operation: 'store',
      cause: state.broken,
    });
    expect(renew).not.toHaveBeenCalled();
    expect(held(memory)).toEqual(ours);
  });

  it('keeps the pair in the store when the renewal fails without a verdict', async () => {
    const { memory, open } = sharedOver(ours);
    const failure = new AuthRequestError('refreshToken failed.', 'refreshToken');
    await expect(failedRotation(open, failure)).rejects.toBe(failure);
    expect(held(memory)).toEqual(ours);
  });

  it('empties the store of a refused pair, and another session then ends as rejected without a request', async () => {
    const { memory, open } = sharedOver(ours);
    const refused = new AuthRejectedError('INVALID_REFRESH_TOKEN', 'refreshToken', []);
    await expect(failedRotation(open, refused)).rejects.toBe(refused);
    expect(memory.get()).toBeNull();
    const renew = vi.fn(async () => next);
    await expect(open().seam.rotate(ours, renew, () => true)).resolves.toEqual({ pair: null, reason: 'rejected' });
    expect(renew).not.toHaveBeenCalled();
  });

  it('adopts the pair a session outside its lock stored when the service refuses the pair as spent', async () => {
    const { memory, open } = sharedOver(ours);
    const renew = async () => {
      await memory.set(theirs);
      throw new AuthRejectedError('Refresh token already used', 'refreshToken', []);
    };
    await expect(open().seam.rotate(ours, renew, () => true)).resolves.toEqual({ pair: theirs, adopted: true });
    expect(held(memory)).toEqual(theirs);
  });

  it('spends a pair once between two sessions rotating it at once: the second adopts what the first stored', async () => {
    const { open } = sharedOver(ours, { lock: createLock() });
    let answer!: (pair: TokenPair) => void;
    const renew = vi.fn(() => new Promise<TokenPair>((resolve) => (answer = resolve)));
    const first = open().seam.rotate(ours, renew, () => true);
    const second = open().seam.rotate(ours, renew, () => true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(renew).toHaveBeenCalledTimes(1);
    answer(next);
    expect(await first).toEqual({ pair: next });
    // As stored: with the version of its format.
    expect(await second).toEqual({ pair: { ...next, version: 1 }, adopted: true });
    expect(renew).toHaveBeenCalledTimes(1);
  });

  it('waits for the lock at most lockTimeout, then fails as transient without a request', async () => {
    const { open } = sharedOver(ours, { lock: frozenLock, lockTimeout: 5_000 });
    const renew = vi.fn(async () => next);
    const rotation = open()
      .seam.rotate(ours, renew, () => true)
      .catch((e: unknown) => e);
    let settled = false;
    void rotation.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await rotation;
    expect(AuthRequestError.is(error)).toBe(true);
    expect(error).toMatchObject({
      message: 'Waited 5 s for the "apollo-link-token-pair" lock, which another session holds.',
      operation: 'lock',
    });
    expect(renew).not.toHaveBeenCalled();
  });

  it('stops waiting for the lock when the session closes its seam, failing with the disposal', async () => {
    const { open } = sharedOver(ours, { lock: frozenLock });
    const { seam } = open();
    const rotation = seam
      .rotate(
        ours,
        async () => next,
        () => true,
      )
      .catch((e: unknown) => e);
    seam.close();
    expect(await rotation).toMatchObject({
      name: 'AuthRequestError',
      message: 'The session was disposed.',
      operation: 'dispose',
    });
  });
});

describe('a session following a shared store', () => {
  it('adopts a pair or an emptied store another session wrote, and not its own writes', async () => {
    const { memory, open } = sharedOver(null);
    const { seam, host } = open();
    seam.listen!();
    await seam.save(ours);
    await vi.advanceTimersByTimeAsync(0);
    expect(host.adopt).not.toHaveBeenCalled();
    await memory.set(theirs);
    await vi.advanceTimersByTimeAsync(0);
    await memory.clear();
    await vi.advanceTimersByTimeAsync(0);
    expect(host.adopt.mock.calls).toEqual([
      [theirs, undefined],
      [null, undefined],
    ]);
  });

  it('reads a change signalled while its own write is under way once the write has landed, not before', async () => {
    const memory = createMemoryTokenStore();
    // Writes land 10 ms after they are made.
    const set = (pair: TokenPair) => new Promise<void>((done) => setTimeout(() => done(void memory.set(pair)), 10));
    const host = hostOf();
    const seam = openStore(shareTokenStore({ ...memory, set }), host);
    seam.listen!();
    const saved = seam.save(ours);
    await vi.advanceTimersByTimeAsync(5);
    await memory.set(theirs); // another session's write, which this session's lands over
    await vi.advanceTimersByTimeAsync(5);
    await saved;
    await vi.advanceTimersByTimeAsync(0);
    expect(held(memory)).toEqual(ours);
    expect(host.adopt).not.toHaveBeenCalled();
  });

  it('adopts what the latest read of the store found, not an earlier read that answered later', async () => {
    const memory = createMemoryTokenStore();
    const delays = [50, 0];
    const get = () => {
      const value = memory.get();
      return new Promise((answer) => setTimeout(() => answer(value), delays.shift() ?? 0));
    };
    const host = hostOf();
    const seam = openStore(shareTokenStore({ ...memory, get } as TokenStorage), host);
    seam.listen!();
    await memory.set(ours);
    await memory.set(theirs);
    await vi.advanceTimersByTimeAsync(100);
    expect(host.adopt.mock.calls).toEqual([[theirs, undefined]]);
  });

  it('follows a store emptied of a refused pair as rejected', async () => {
    const { open } = sharedOver(ours);
    const follower = open();
    follower.seam.load();
    follower.seam.listen!();
    const refused = new AuthRejectedError('INVALID_REFRESH_TOKEN', 'refreshToken', []);
    await failedRotation(open, refused).catch(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(follower.host.adopt).toHaveBeenCalledExactlyOnceWith(null, 'rejected');
  });

  it('reports a store that cannot be read when it signals a change, and adopts nothing', async () => {
    const { memory, state, open } = sharedOver(ours);
    const { seam, host } = open();
    seam.listen!();
    state.broken = new Error('keychain locked');
    await memory.set(theirs);
    await vi.advanceTimersByTimeAsync(0);
    expect(host.report).toHaveBeenCalledExactlyOnceWith(state.broken);
    expect(host.adopt).not.toHaveBeenCalled();
  });

  it('follows nothing once the session closed its seam', async () => {
    const { memory, open } = sharedOver(ours);
    const { seam, host } = open();
    seam.listen!();
    seam.close();
    await memory.set(theirs);
    await vi.advanceTimersByTimeAsync(0);
    expect(host.adopt).not.toHaveBeenCalled();
  });
});
