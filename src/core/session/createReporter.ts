import type { Clock } from '../environment/Clock';
import { EVENTS_KEPT } from './sessionLimits';
import type { TokenAuthEvent, TokenAuthEventBody } from './TokenAuthEvent';

/** Where the session's failures, its events and the app's callbacks go. See {@link createReporter}. */
export interface Reporter {
  /** Hands a failure nobody awaits to `onError`, and tells it as an `error` event. */
  report(error: unknown): void;
  /** Calls an app callback; what it throws is reported, never thrown on. */
  tell<T>(callback: ((value: T) => void) | undefined, value: T): void;
  /** Tells the observers what the session did, stamped with the time. */
  emit(event: TokenAuthEventBody): void;
  /** Calls `observer` with the events kept so far, then with each new one; returns the function that stops it. */
  observe(observer: (event: TokenAuthEvent) => void): () => void;
}

/**
 * Creates the {@link Reporter} of a session with the app's `onError`.
 *
 * @remarks
 * The app's callbacks run through `tell`: one that throws must not stop a rotation half way, which would leave
 * the new pair unused and the spent refresh token in place. An observer that throws goes to `onError` only: told
 * as an event, it would be called again with its own failure.
 */
export function createReporter(onError: ((error: unknown) => void) | undefined, clock: Clock): Reporter {
  const observers = new Set<(event: TokenAuthEvent) => void>();
  const kept: TokenAuthEvent[] = [];
  const quietly = <T>(callback: ((value: T) => void) | undefined, value: T) => {
    try {
      callback?.(value);
    } catch (error) {
      try {
        onError?.(error);
      } catch {
        // onError itself failed: there is nowhere left to report to.
      }
    }
  };
  const emit = (body: TokenAuthEventBody) => {
    const event = { ...body, at: clock.now() } as TokenAuthEvent;
    if (kept.push(event) > EVENTS_KEPT) kept.shift();
    for (const observer of observers) quietly(observer, event);
  };
  const report = (error: unknown) => {
    emit({ type: 'error', error });
    quietly(onError, error);
  };
  return {
    report,
    emit,
    tell(callback, value) {
      try {
        callback?.(value);
      } catch (error) {
        report(error);
      }
    },
    observe(observer) {
      for (const event of kept) quietly(observer, event);
      observers.add(observer);
      return () => void observers.delete(observer);
    },
  };
}
