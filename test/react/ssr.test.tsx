// @vitest-environment node
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createTokenAuth } from '../../src';
import { AuthGate, TokenAuthProvider } from '../../src/react';

describe('server-side rendering', () => {
  it('imports and renders without window', () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const auth = createTokenAuth({ uri: 'http://127.0.0.1:1/graphql' });
    const client = new ApolloClient({ link: ApolloLink.empty(), cache: new InMemoryCache() });
    const html = renderToString(
      <ApolloProvider client={client}>
        <TokenAuthProvider auth={auth}>
          <AuthGate loading={<p>restoring</p>} fallback={<p>login</p>}>
            <p>secret</p>
          </AuthGate>
        </TokenAuthProvider>
      </ApolloProvider>,
    );
    expect(html).toBe('<p>restoring</p>');
    auth.dispose();
  });
});
