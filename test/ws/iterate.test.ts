import { describe, expect, it, vi } from 'vitest';
import type { Sink } from 'graphql-ws';
import { SessionEndedError } from '../../src/index';
import { iterate } from '../../src/ws/iterate';

/** A `subscribe` that a test drives through the sink it was given. */
function fakeSubscribe() {
  const dispose = vi.fn();
  let sink: Sink<number> | undefined;
  const subscribe = vi.fn((_payload: unknown, given: Sink<number>) => ((sink = given), dispose));
  return { subscribe, dispose, sink: () => sink! };
}

const payload = { query: 'subscription { n }' };

describe('iterate: a subscribe as an async iterator', () => {
  it('yields what arrived before and after it was read, in order, then returns on complete and leaves the stream', async () => {
    const { subscribe, dispose, sink } = fakeSubscribe();
    const results = iterate(subscribe, payload);
    const first = results.next();
    sink().next(1);
    sink().next(2);
    expect(await first).toEqual({ done: false, value: 1 });
    expect(await results.next()).toEqual({ done: false, value: 2 });

    const third = results.next();
    sink().next(3);
    sink().complete();

    expect(await third).toEqual({ done: false, value: 3 });
    expect(await results.next()).toEqual({ done: true, value: undefined });
    expect(subscribe).toHaveBeenCalledExactlyOnceWith(payload, expect.anything());
    expect(dispose).toHaveBeenCalledOnce();
  });

  it('throws any other error after everything that arrived before it', async () => {
    const { subscribe, dispose, sink } = fakeSubscribe();
    const results = iterate(subscribe, payload);
    const first = results.next();
    const failure = new Error('nope');
    sink().next(1);
    sink().next(2);
    sink().error(failure);

    expect(await first).toEqual({ done: false, value: 1 });
    expect(await results.next()).toEqual({ done: false, value: 2 });
    await expect(results.next()).rejects.toBe(failure);
    expect(dispose).toHaveBeenCalledOnce();
  });

  it('drops what was left unread when the session ends, and throws its SessionEndedError', async () => {
    const { subscribe, sink } = fakeSubscribe();
    const results = iterate(subscribe, payload);
    const first = results.next();
    sink().next(1);
    sink().next(2);
    expect(await first).toEqual({ done: false, value: 1 });
    const ended = new SessionEndedError('logout');

    sink().error(ended);

    await expect(results.next()).rejects.toBe(ended);
  });

  it('leaving the loop leaves the stream', async () => {
    const { subscribe, dispose, sink } = fakeSubscribe();
    const seen: number[] = [];
    const reading = (async () => {
      for await (const result of iterate(subscribe, payload)) {
        seen.push(result);
        break;
      }
    })();
    // The loop reads at once: the stream is subscribed.
    expect(subscribe).toHaveBeenCalledOnce();
    sink().next(1);
    sink().next(2);
    await reading;

    expect(seen).toEqual([1]);
    expect(dispose).toHaveBeenCalledOnce();
  });
});
