// The values the documentation's examples take as given: the reader's own endpoint, session, client, secret and
// components. A block that declares one of these names itself shadows it (every block is a module). Nothing else
// is given: a block imports what it uses. See docs/contributing.md, "Examples that compile".

/** Your GraphQL endpoint. */
declare const uri: string;
/** Your session, made once with `createTokenAuth`. */
declare const auth: import('apollo-link-token-pair').TokenAuth;
/** Your Apollo client. */
declare const client: import('@apollo/client').ApolloClient;
/** The token handler's secret, 32 bytes or more. */
declare const secret: string;
/** A secure slot for the refresh token (Keychain, SecureStore, Electron `safeStorage`). */
declare const secureSlot: import('apollo-link-token-pair').SecretSlot;
/** An Express application. */
declare const app: {
  use(
    handler: (
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
      next: (error?: unknown) => void,
    ) => unknown,
  ): void;
};
/** Your own test for an expired token, for the options that take a predicate. */
declare function isMyExpiredError(error: unknown): boolean;

// Your components.
declare function App(): import('react').JSX.Element;
declare function Dashboard(): import('react').JSX.Element;
declare function LoginForm(): import('react').JSX.Element;
declare function Settings(): import('react').JSX.Element;
declare function Spinner(): import('react').JSX.Element;
declare function AdminLink(): import('react').JSX.Element;
