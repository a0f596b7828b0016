import { readFileSync } from 'node:fs';
import { ApolloClient, ApolloLink, gql, InMemoryCache } from '@apollo/client';
import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';

// Found by the soak (2 hours, 900-second tokens): vite-spa#1, the tab that shows the ticker, grew its JS objects by
// 40 to 100 KB a minute. Each ticker event written to the cache is an object without an id, which the cache reads
// back (markSubscriptionResult) and memoizes by that object: one result kept per event in InMemoryCache's read memo
// (`storeReader.executeSelectionSet`, an LRU of 50,000). The examples' Ticker is read as it ships.
const examples = {
  'examples/vite-spa': '../../examples/vite-spa/src/App.tsx',
  'examples/nextjs': '../../examples/nextjs/app/Ticker.tsx',
};
const fetchPolicyOf = (file: string) => {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  const call = /useSubscription<[^(]*\(TICKER(?:,\s*\{\s*fetchPolicy:\s*'([a-z-]+)',?\s*\})?\)/.exec(source);
  if (!call) throw new Error(`${file}: no useSubscription(TICKER…) call found`);
  return call[1] as 'no-cache' | undefined;
};

const TICKER = gql`
  subscription Ticker {
    ticker {
      n
      email
    }
  }
`;

/** The results the cache's read memo holds after `events` ticker events through a client with `fetchPolicy`. */
async function memoAfter(events: number, fetchPolicy: 'no-cache' | undefined): Promise<number> {
  const link = new ApolloLink(
    () =>
      new Observable((observer) => {
        for (let n = 1; n <= events; n++)
          observer.next({ data: { ticker: { __typename: 'Tick', n, email: 'owner@demo.test' } } });
        observer.complete();
      }),
  );
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  let received = 0;
  await new Promise<void>((resolve) =>
    client
      .subscribe({ query: TICKER, ...(fetchPolicy && { fetchPolicy }) })
      .subscribe({ next: () => void (received += 1), complete: resolve }),
  );
  expect(received).toBe(events);
  return (client.cache as unknown as { storeReader: { executeSelectionSet: { size: number } } }).storeReader
    .executeSelectionSet.size;
}

describe("the examples' ticker", () => {
  it('keeps a result per event in the cache when written there (what the examples avoid)', async () => {
    expect(await memoAfter(200, undefined)).toBeGreaterThanOrEqual(200);
  });

  it.each(Object.entries(examples))('%s keeps no result per event', async (_example, file) => {
    expect(await memoAfter(200, fetchPolicyOf(file))).toBeLessThan(10);
  });
});
