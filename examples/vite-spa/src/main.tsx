import { ApolloProvider } from '@apollo/client/react';
import { TokenAuthProvider } from 'apollo-link-token-pair/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, ME } from './App';
import { auth, client } from './auth';
import { Devtools } from './Devtools';

// `?console` puts the session and the Apollo client on `window`, to drive them from the browser's console
// (`auth.logout()`, `client.query(…)`) as the browser tests and the soak do: work that does not come from React.
if (new URLSearchParams(location.search).has('console')) Object.assign(window, { auth, client });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApolloProvider client={client}>
      <TokenAuthProvider auth={auth} me={ME}>
        <App />
      </TokenAuthProvider>
    </ApolloProvider>
    <Devtools auth={auth} />
  </StrictMode>,
);
