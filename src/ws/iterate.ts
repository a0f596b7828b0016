import type { Sink, SubscribePayload } from 'graphql-ws';
import { SessionEndedError } from '../index';

/** A `subscribe` as graphql-ws's client has it: one stream into `sink`, and how to leave it. */
export type Subscribe<T> = (payload: SubscribePayload, sink: Sink<T>) => () => void;

/**
 * The results of `subscribe(payload)` as an async iterator, as graphql-ws's `iterate` gives them over its own
 * `subscribe` (which a wrapped client's `iterate` would bypass).
 *
 * @remarks
 * It yields what arrived in order, then returns on `complete` or throws the `error`. A `SessionEndedError` drops
 * what was left unread: the previous user's results are not for whoever reads on. Leaving the loop leaves the stream.
 */
export async function* iterate<T>(subscribe: Subscribe<T>, payload: SubscribePayload): AsyncGenerator<T> {
  const results: T[] = [];
  // `null` while the stream runs; then `undefined` completed, or its error.
  let outcome: { error: unknown } | undefined | null = null;
  let wake: (() => void) | undefined;
  const dispose = subscribe(payload, {
    next: (result) => (results.push(result), wake?.()),
    error(error) {
      if (SessionEndedError.is(error)) results.length = 0;
      outcome = { error };
      wake?.();
    },
    complete: () => ((outcome = undefined), wake?.()),
  });
  try {
    for (;;) {
      while (results.length) yield results.shift()!;
      if (outcome !== null) {
        if (outcome) throw (outcome as { error: unknown }).error;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    dispose();
  }
}
