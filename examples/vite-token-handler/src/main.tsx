import { ApolloProvider } from '@apollo/client/react';
import { TokenAuthProvider } from 'apollo-link-token-pair/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, ME } from './App';
import { auth, client } from './auth';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApolloProvider client={client}>
      <TokenAuthProvider auth={auth} me={ME}>
        <App />
      </TokenAuthProvider>
    </ApolloProvider>
  </StrictMode>,
);
