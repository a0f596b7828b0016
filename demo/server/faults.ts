import { setTimeout as sleep } from 'node:timers/promises';
import type { AuthServerFaults } from './createAuthServer.ts';

/** A queued raw response of `AuthServerFaults.failNext`. */
export type QueuedFailure = AuthServerFaults['failNext'][number];

/** The faults of a fresh server: none. */
export function noFaults(): AuthServerFaults {
  return { delayMs: {}, dropRefreshResponses: 0, failNext: [], hangRefresh: false };
}

/** Waits the delay configured for `field`; rejects early when `signal` aborts (the server closed). */
export async function delayField(faults: AuthServerFaults, field: string, signal: AbortSignal): Promise<void> {
  const ms = faults.delayMs[field] ?? 0;
  if (ms > 0) await sleep(ms, undefined, { signal });
}

/** Never resolves; rejects once `signal` aborts, so a hung request ends with its server. */
export function hang(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Removes and returns the first queued failure that applies to a request for `fields`. */
export function takeFailure(faults: AuthServerFaults, fields: readonly string[]): QueuedFailure | undefined {
  const index = faults.failNext.findIndex((failure) => failure.field === undefined || fields.includes(failure.field));
  return index === -1 ? undefined : faults.failNext.splice(index, 1)[0];
}

/** Takes one of the pending `dropRefreshResponses`, if any. */
export function takeDrop(faults: AuthServerFaults): boolean {
  if (faults.dropRefreshResponses <= 0) return false;
  faults.dropRefreshResponses -= 1;
  return true;
}
