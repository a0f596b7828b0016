import { makePair } from './jwt';

export interface StubCall {
  readonly field: 'loginWithEmailPassword' | 'refreshToken' | 'logout' | string;
  readonly variables: Record<string, string>;
  readonly headers: Record<string, string>;
  /** Answers with a JSON body. */
  respond(body: unknown, status?: number): void;
  /** Answers with a raw body. */
  respondRaw(body: string, status: number): void;
  /** Fails on the network. */
  fail(error?: unknown): void;
  readonly settled: boolean;
}

/**
 * A `fetch` for unit tests of the session: every auth mutation becomes a pending call that the test answers,
 * so interleavings are explicit. `auto` answers refreshes and logins at once with fresh pairs.
 */
export function createFetchStub(options: { auto?: boolean; lifetimeSeconds?: number } = {}) {
  const calls: StubCall[] = [];
  const control = { auto: options.auto ?? false };
  let issued = 0;
  const stubFetch = ((_url: string, init: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const body = JSON.parse(String(init.body)) as { query: string; variables: Record<string, string> };
      const field = /\{\s*(\w+)\(/.exec(body.query)?.[1] ?? 'unknown';
      let settled = false;
      const call: StubCall = {
        field,
        variables: body.variables,
        headers: init.headers as Record<string, string>,
        respond: (json, status = 200) => call.respondRaw(JSON.stringify(json), status),
        respondRaw(text, status) {
          settled = true;
          resolve(new Response(text, { status, headers: { 'content-type': 'application/json' } }));
        },
        fail(error = new TypeError('fetch failed')) {
          settled = true;
          reject(error);
        },
        get settled() {
          return settled;
        },
      };
      init.signal?.addEventListener('abort', () => call.fail(new DOMException('aborted', 'AbortError')));
      calls.push(call);
      if (control.auto) answer(call);
    })) as typeof fetch;

  function nextPair() {
    return makePair(`p${++issued}`, { lifetimeSeconds: options.lifetimeSeconds });
  }

  /** Answers a call the way a healthy server would. */
  function answer(call: StubCall) {
    if (call.field === 'refreshToken') call.respond({ data: { refreshToken: nextPair() } });
    else if (call.field === 'loginWithEmailPassword') {
      call.respond({
        data: { loginWithEmailPassword: { ...nextPair(), user: { id: 'u_1', email: 'a@b.test', role: 'ADMIN' } } },
      });
    } else call.respond({ data: { logout: { success: true } } });
  }

  return {
    fetch: stubFetch,
    calls,
    /** Whether calls are answered at once by {@link answer}. */
    set auto(value: boolean) {
      control.auto = value;
    },
    answer,
    nextPair,
    /** The calls of one mutation. */
    of: (field: string) => calls.filter((call) => call.field === field),
    /** The last call of one mutation. */
    last: (field: string) => calls.filter((call) => call.field === field).at(-1)!,
  };
}

/** The JSON body of a GraphQL rejection. */
export function rejection(code: string, message = code) {
  return { data: null, errors: [{ message, extensions: { code } }] };
}
