// A Node service's session, logged: each login, refresh and end in one line, through the service's own logger.
import { createTokenAuth, logTokenAuth, type TokenAuth } from 'apollo-link-token-pair';

export function createLoggedAuth(uri: string, log: (line: string) => void = console.info): TokenAuth {
  const auth = createTokenAuth({ uri });
  // Stops with the session: dispose() ends every observer's events.
  logTokenAuth(auth, { log });
  return auth;
}
