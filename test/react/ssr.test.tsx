// @vitest-environment node
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createTokenAuth, createTokenStore, type TokenStore } from '../../src';
import { AuthGate, TokenAuthProvider } from '../../src/react';

function render(store?: TokenStore) {
  const auth = createTokenAuth({ uri: 'http://127.0.0.1:1/graphql', store });
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
  auth.dispose();
  return html;
}

describe('server-side rendering', () => {
  it('imports and renders without window; an empty synchronous store renders the login fallback, not a spinner', () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    expect(render()).toBe('<p>login</p>');
  });

  it('renders the loading fallback while an asynchronous store is read', () => {
    expect(render(createTokenStore({ get: () => new Promise(() => {}), set: () => {}, clear: () => {} }))).toBe(
      '<p>restoring</p>',
    );
  });
});
