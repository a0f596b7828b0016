import type { ApolloClient } from '@apollo/client';
import { createTestAuthServer, type TestAuthServer } from '../../src/testing';
import { ping } from '../helpers/pingClient';

/** The spec test server over HTTP on 127.0.0.1 (the system clock), closed by `cleanups`. */
export async function startServer(cleanups: Array<() => unknown>) {
  const server = createTestAuthServer();
  const url = await server.listen(0, '127.0.0.1');
  cleanups.push(() => server.close());
  return { server, url };
}

/** `localStorage`'s methods over a Map, for the "before" apps in Node. */
export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    clear: () => items.clear(),
  };
}

/** What a burst did: operations that succeeded and failed (with their errors), and what the server saw. */
export interface BurstOutcome {
  succeeded: number;
  failed: number;
  errors: string[];
  refreshCalls: number;
  refreshSuccesses: number;
  reuseDetections: number;
  /** Whether a query sent once the burst settled succeeds. */
  nextQueryOk: boolean;
  /** Its error when it failed. */
  nextQueryError: string | undefined;
}

/** Sends `size` distinct queries at once (network-only, so none is deduplicated), then one more once they settled. */
export async function burst(client: ApolloClient, server: TestAuthServer, size = 10): Promise<BurstOutcome> {
  const before = { ...server.stats };
  const results = await Promise.allSettled(Array.from({ length: size }, (_, n) => ping(client, n)));
  const errors = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  const after = { ...server.stats };
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
