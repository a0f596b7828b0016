/**
 * An event stream that yields `event(1)`, `event(2)` … every `interval` ms until `return()` (a subscription the
 * client completed, a closed socket) or until `signal` aborts, which makes it throw the abort reason.
 *
 * @remarks
 * Written by hand rather than as an async generator: a generator waiting on its timer would queue `return()`
 * behind one more event, which the server would still send.
 */
export function tickEvery<T>(interval: number, signal: AbortSignal, event: (n: number) => T): AsyncIterableIterator<T> {
  let n = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiting: { resolve(result: IteratorResult<T>): void; reject(reason: unknown): void } | undefined;
  let over: Promise<IteratorResult<T>> | undefined;

  const end = (result: Promise<IteratorResult<T>>) => {
    over ??= result;
    clearTimeout(timer);
    signal.removeEventListener('abort', abort);
    if (waiting) void over.then(waiting.resolve, waiting.reject);
    waiting = undefined;
  };
  const abort = () => {
    const failed = Promise.reject(signal.reason);
    failed.catch(() => {});
    end(failed);
  };
  signal.addEventListener('abort', abort);
  if (signal.aborted) abort();

  return {
    next() {
      if (over) return over;
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        waiting = { resolve, reject };
        timer = setTimeout(() => {
          waiting = undefined;
          resolve({ value: event(++n), done: false });
        }, interval);
      });
    },
    return() {
      const done: IteratorResult<T> = { value: undefined, done: true };
      end(Promise.resolve(done));
      return Promise.resolve(done);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
