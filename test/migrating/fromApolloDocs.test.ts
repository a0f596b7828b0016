import { describe, expect, it } from 'vitest';
import { useCleanups } from '../helpers/overHttp';
import { createTokenPairClient } from './after/tokenPair';
import { createApolloDocsClient } from './before/apolloDocsRecipe';
import { burst, describeBurst, memoryStorage, startServer } from './burst';

// docs/migrating.md quotes what these tests print.

const cleanups = useCleanups();

describe('migrating from the Apollo Client 4 docs recipe: 10 queries meet TOKEN_EXPIRED at once', () => {
  it('before: the recipe refreshes once per failed query, spends the refresh token again and loses the session', async () => {
    const { server, url } = await startServer(cleanups);
    const { client, login } = createApolloDocsClient(url, memoryStorage());
    await login('admin@demo.test', 'admin-pass');
    server.expireAllAccessTokens();

    const outcome = await burst(client, server);
    console.info(describeBurst('before, Apollo docs recipe', outcome));

    expect(outcome.refreshCalls).toBeGreaterThan(1);
    expect(outcome.reuseDetections).toBeGreaterThan(0);
    expect(outcome.failed).toBeGreaterThan(0);
    expect(outcome.nextQueryOk).toBe(false);
  });

  it('after: one refresh, and the 10 queries succeed', async () => {
    const { server, url } = await startServer(cleanups);
    const { client, auth, login } = createTokenPairClient(url);
    cleanups.push(() => auth.dispose());
    await login('admin@demo.test', 'admin-pass');
    server.expireAllAccessTokens();

    const outcome = await burst(client, server);
    console.info(describeBurst('after, apollo-link-token-pair', outcome));

    expect(outcome).toMatchObject({ succeeded: 10, failed: 0, refreshCalls: 1, refreshSuccesses: 1 });
    expect(outcome).toMatchObject({ reuseDetections: 0, nextQueryOk: true });
  });
});
