import { describe, expect, it } from 'vitest';
import { useCleanups } from '../helpers/overHttp';
import { createTokenPairClient } from './after/graphqlLocalStorage';
import { createApolloDocsClient } from './before/apolloDocsRecipe';
import { burst, describeBurst, signedInWith, specCounts } from './burst';

// docs/migrating.md quotes what these tests print.

const cleanups = useCleanups();

describe('migrating from the Apollo Client 4 docs recipe: 10 queries meet TOKEN_EXPIRED at once', () => {
  it('before: the recipe refreshes once per failed query, spends the refresh token again and loses the session', async () => {
    const { server, client } = await signedInWith(cleanups, createApolloDocsClient);
    server.expireAllAccessTokens();

    const outcome = await burst(client, specCounts(server));
    console.info(describeBurst('before, Apollo docs recipe', outcome));

    expect(outcome.refreshCalls).toBeGreaterThan(1);
    expect(outcome.reuseDetections).toBeGreaterThan(0);
    expect(outcome.failed).toBeGreaterThan(0);
    expect(outcome.nextQueryOk).toBe(false);
  });

  it('after, the pair the recipe stored adopted: one refresh, and the 10 queries succeed', async () => {
    const { server, url, storage } = await signedInWith(cleanups, createApolloDocsClient);
    const { client, auth, restored } = createTokenPairClient(url, storage);
    cleanups.push(() => auth.dispose());
    await restored;
    server.expireAllAccessTokens();

    const outcome = await burst(client, specCounts(server));
    console.info(describeBurst('after, apollo-link-token-pair', outcome));

    expect(outcome).toMatchObject({ succeeded: 10, failed: 0, refreshCalls: 1, refreshSuccesses: 1 });
    expect(outcome).toMatchObject({ reuseDetections: 0, nextQueryOk: true });
  });
});
