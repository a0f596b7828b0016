import type { ApolloClient } from '@apollo/client';
import { afterEach, expect, it, vi } from 'vitest';
import { createTestAuthServer, type TestAuthServer } from '../../src/testing';
import { ping } from '../helpers/pingClient';
import type { RestServer } from '../helpers/restServers';

/** The spec test server over HTTP on 127.0.0.1 (the system clock), closed by `cleanups`. */
export async function startServer(cleanups: Array<() => unknown>) {
  const server = createTestAuthServer();
  const url = await server.listen(0, '127.0.0.1');
  cleanups.push(() => server.close());
  return { server, url };
}

/** What {@link memoryStorage} makes. */
export type MemoryStorage = ReturnType<typeof memoryStorage>;

/** `localStorage`'s methods over a Map, for the apps in Node. */
export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
    /** The keys it holds. */
    keys: () => [...items.keys()],
  };
}

/** An old app on the spec's server: what it is made of, and how it signs in. */
type OldApp = { client: ApolloClient; login(email: string, password: string): Promise<void> };

/** A user signed in with an old app (`create`) on the spec's server: the pair in its `localStorage`. */
export async function signedInWith(
  cleanups: Array<() => unknown>,
  create: (uri: string, storage: MemoryStorage) => OldApp,
) {
  const { server, url } = await startServer(cleanups);
  const storage = memoryStorage();
  const { client, login } = create(url, storage);
  await login('admin@demo.test', 'admin-pass');
  return { server, url, storage, client };
}

/**
 * The test clock of these files: `Date`, which the apps and the servers read, replaced for each test that calls
 * {@link passExpiry}. Timers stay real: 15-minute tokens never expire by themselves during a test.
 */
export function useTestDate() {
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** Both the server and the apps see the access token past its `exp` (16 minutes on, for the contract's 15-minute tokens). */
export function passExpiry() {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + 16 * 60_000);
}

/** What a server counted of the refreshes. */
export interface RefreshCounts {
  /** Refresh requests, whatever their outcome. */
  refreshCalls: number;
  /** Refreshes answered with a new access token. */
  refreshSuccesses: number;
  /** Refreshes with a spent refresh token: each revoked its session. */
  reuseDetections: number;
}

/** The counts of the spec test server. */
export const specCounts =
  ({ stats }: TestAuthServer) =>
  (): RefreshCounts => ({
    refreshCalls: stats.refreshCalls,
    refreshSuccesses: stats.refreshSuccesses,
    reuseDetections: stats.reuseDetections,
  });

/** The counts of a REST server of restServers.ts. */
export const restCounts =
  ({ stats }: RestServer) =>
  (): RefreshCounts => ({
    refreshCalls: stats.refreshes,
    refreshSuccesses: stats.renewals,
    reuseDetections: stats.reuses,
  });

/** What a burst did: operations that succeeded and failed (with their errors), and what the server saw. */
export interface BurstOutcome extends RefreshCounts {
  succeeded: number;
  failed: number;
  errors: string[];
  /** Whether a query sent once the burst settled succeeds. */
  nextQueryOk: boolean;
  /** Its error when it failed. */
  nextQueryError: string | undefined;
}

/** Sends `size` distinct queries at once (network-only, so none is deduplicated), then one more once they settled. */
export async function burst(client: ApolloClient, counts: () => RefreshCounts, size = 10): Promise<BurstOutcome> {
  const before = counts();
  const results = await Promise.allSettled(Array.from({ length: size }, (_, n) => ping(client, n)));
  const errors = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  const after = counts();
  const nextQueryError = await ping(client, size).then(
    () => undefined,
    (error: unknown) => String(error),
  );
  return {
    succeeded: results.length - errors.length,
    failed: errors.length,
    errors: [...new Set(errors)],
    refreshCalls: after.refreshCalls - before.refreshCalls,
    refreshSuccesses: after.refreshSuccesses - before.refreshSuccesses,
    reuseDetections: after.reuseDetections - before.reuseDetections,
    nextQueryOk: nextQueryError === undefined,
    nextQueryError,
  };
}

/** One line for the test's output, the numbers docs/migrating.md quotes. */
export function describeBurst(name: string, outcome: BurstOutcome): string {
  const { succeeded, failed, refreshCalls, refreshSuccesses, reuseDetections, nextQueryOk } = outcome;
  return (
    `${name}: ${succeeded} of ${succeeded + failed} succeeded, ${refreshCalls} refresh calls ` +
    `(${refreshSuccesses} rotated), ${reuseDetections} reuse detections; the next query ${nextQueryOk ? 'succeeded' : `failed (${outcome.nextQueryError})`}` +
    (outcome.errors.length ? `; errors: ${outcome.errors.join(' | ')}` : '')
  );
}

/** An app of one shape, signed in against its server: what a burst needs of it. */
export interface SignedInApp {
  readonly client: ApolloClient;
  /** What its server counted of the refreshes. */
  readonly counts: () => RefreshCounts;
  /** Its server takes every access token it issued for expired, before their `exp`. */
  readonly expireTokens: () => void;
}

/**
 * The bursts every shape runs, before and after: 10 queries at once on a token the server refused before its `exp`,
 * then on a token past its `exp`. `shape` names the lines the tests print; `expired` is the server's error for an
 * expired token, as the app sees it.
 */
export function itHandlesBursts(
  shape: string,
  signedIn: (app: 'before' | 'after') => Promise<SignedInApp>,
  expired: string,
) {
  it('before, the server refuses the token (TOKEN_EXPIRED before exp): no refresh, and the 10 queries fail', async () => {
    const { client, counts, expireTokens } = await signedIn('before');
    expireTokens();

    const outcome = await burst(client, counts);
    console.info(describeBurst(`before, ${shape}, token refused by the server`, outcome));

    // The link decides by the client's clock alone; the server's TOKEN_EXPIRED passes through to the app.
    expect(outcome).toMatchObject({ succeeded: 0, failed: 10, refreshCalls: 0, nextQueryOk: false });
    expect(outcome.errors).toEqual([expired]);
  });

  it('after, the server refuses the token: one refresh, and the 10 queries succeed', async () => {
    const { client, counts, expireTokens } = await signedIn('after');
    expireTokens();

    const outcome = await burst(client, counts);
    console.info(describeBurst(`after, ${shape}, token refused by the server`, outcome));

    expect(outcome).toMatchObject({ succeeded: 10, failed: 0, refreshCalls: 1, refreshSuccesses: 1 });
    expect(outcome).toMatchObject({ reuseDetections: 0, nextQueryOk: true });
  });

  it.each(['before', 'after'] as const)(
    '%s, the token is past its exp by the clock: one refresh, and the 10 queries succeed',
    async (app) => {
      const { client, counts } = await signedIn(app);
      passExpiry();

      const outcome = await burst(client, counts);
      console.info(describeBurst(`${app}, ${shape}, token past its exp`, outcome));

      expect(outcome).toMatchObject({ succeeded: 10, failed: 0, refreshCalls: 1, refreshSuccesses: 1 });
      expect(outcome).toMatchObject({ reuseDetections: 0, nextQueryOk: true });
    },
  );
}
