// A fetch for Apollo's HttpLink in tests that records what the client sent.

/** What the Apollo client sent over HTTP: each operation's name and Authorization header, and how many are in flight. */
export function recordingFetch() {
  const sent: Array<{ operation: string; authorization: string }> = [];
  let inFlight = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const { operationName } = JSON.parse(String(init?.body)) as { operationName: string };
    sent.push({ operation: operationName, authorization: new Headers(init?.headers).get('authorization') ?? '' });
    inFlight += 1;
    try {
      return await globalThis.fetch(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  return { fetch, sent, inFlight: () => inFlight };
}
