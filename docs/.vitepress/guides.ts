// The guide's table of contents, in the order a newcomer reads it: the site's sidebar, each page's meta
// description, and the map of llms.txt are all made from it (config.ts, llmsTxt.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A page's name: its first heading, without its code marks. */
export function titleOf(docs: string, file: string): string {
  const heading = /^#\s+(.+)$/m.exec(readFileSync(join(docs, file), 'utf8'));
  if (!heading) throw new Error(`docs/${file} has no heading, which the sidebar and llms.txt name it by.`);
  return heading[1]!.replace(/`/g, '').trim();
}

/** One page of the guide. */
export interface Guide {
  /** Its file under docs/. */
  readonly file: string;
  /** Its name in the sidebar; its first heading when not given. */
  readonly label?: string;
  /** What it is for, in a line: the page's meta description, and its line in llms.txt. */
  readonly about: string;
}

/** A group of the sidebar, and a section of llms.txt. */
export interface GuideGroup {
  readonly text: string;
  readonly pages: readonly Guide[];
}

export const GUIDES: readonly GuideGroup[] = [
  {
    text: 'Getting started',
    pages: [
      {
        file: 'index.md',
        label: 'Home',
        about: 'what the package is for, install, the quick start, React, and which mode to use where',
      },
      {
        file: 'sessions.md',
        label: 'Sessions in detail',
        about: 'every member and option of createTokenAuth, how errors surface, and the timing of refreshes',
      },
      {
        file: 'sign-in.md',
        label: 'Signing in',
        about:
          'every door into a session: sign-up, a code by e-mail, a second factor, a social ID token (signIns, ' +
          'signIn), a pair handed over (adopt), and a table from supabase, Clerk and auth0',
      },
    ],
  },
  {
    text: 'React',
    pages: [
      {
        file: 'react.md',
        label: 'React',
        about: 'TokenAuthProvider, useAuth, AuthGate, skipTokenAuth for public queries, one me query per sign-in',
      },
    ],
  },
  {
    text: 'Devtools',
    pages: [
      {
        file: 'devtools.md',
        label: 'Devtools',
        about:
          "TokenAuthDevtools and logTokenAuth: a session's timeline on screen or in the console, never with a token",
      },
    ],
  },
  {
    text: 'Servers and doctor',
    pages: [
      { file: 'servers.md', about: 'what eight server stacks answer, measured, and what the package does with it' },
      { file: 'doctor.md', about: 'which servers work as they are, and the doctor command that checks yours' },
      { file: 'server-contract.md', about: 'the three mutations and the TOKEN_EXPIRED code that the defaults expect' },
      {
        file: 'transports.md',
        about:
          'the transport seam: a REST auth server (createRestTransport), your own mutation names, a cookie session of your own',
      },
    ],
  },
  {
    text: 'Modes and stores',
    pages: [{ file: 'storage.md', about: 'the stores, createSplitTokenStore, createTokenStore, Expo SecureStore' }],
  },
  {
    text: 'Tabs',
    pages: [
      {
        file: 'tabs-and-instances.md',
        label: 'Several tabs and instances',
        about: 'one session across tabs or processes: createBroadcastTokenStore and shareTokenStore',
      },
    ],
  },
  {
    text: 'Token handler',
    pages: [
      {
        file: 'token-handler.md',
        label: 'The token handler',
        about: 'the refresh token in an HttpOnly cookie, so a session survives a reload; in Express, Next.js and Vite',
      },
      {
        file: 'token-handler-security.md',
        about: "the token handler's threat model, RFC 10017 and RFC 9700 point by point",
      },
    ],
  },
  {
    text: 'Subscriptions',
    pages: [
      {
        file: 'subscriptions.md',
        label: 'Subscriptions (graphql-ws)',
        about: 'createTokenAuthWsClient: a graphql-ws client that follows refreshes, sign-outs and a change of user',
      },
    ],
  },
  {
    text: 'Server rendering',
    pages: [
      {
        file: 'server-rendering.md',
        about: 'Next.js App Router: the token handler, the proxy, the page and the providers',
      },
    ],
  },
  {
    text: 'React Native',
    pages: [
      {
        file: 'react-native.md',
        about: 'a Keychain store, and a refresh when the app comes back to the foreground',
      },
    ],
  },
  {
    text: 'Services',
    pages: [
      {
        file: 'service.md',
        label: 'Node services',
        about: 'createServiceAuth: a session for Node services and workers, which logs in from its credentials',
      },
    ],
  },
  {
    text: 'Testing your app',
    pages: [
      {
        file: 'testing-your-app.md',
        about: 'createTestSession, createTestAuthServer and createTestClock in component and integration tests',
      },
    ],
  },
  {
    text: 'Recipes',
    pages: [
      {
        file: 'recipes.md',
        about: 'subscriptions, telling the user why they were signed out, a reconnecting banner',
      },
    ],
  },
  {
    text: 'Development API',
    pages: [
      {
        file: 'dev-server.md',
        about: 'npx apollo-link-token-pair serve: a spec server to write an app against, its users and control routes',
      },
    ],
  },
  {
    text: 'Demo',
    pages: [
      {
        file: 'demo.md',
        label: 'The demo',
        about: 'a lab with a control for each hard case, and a manual-testing script',
      },
    ],
  },
  {
    text: 'Reliability and the soak',
    pages: [
      { file: 'reliability.md', about: 'what the package promises, and the tests that check each promise' },
      { file: 'soak.md', about: '30 minutes in real browsers with seeded faults, and the defects it found' },
    ],
  },
  {
    text: 'Performance',
    pages: [{ file: 'performance.md', about: 'time per operation and bytes per entry, and what the bytes buy' }],
  },
  {
    text: 'Errors',
    pages: [
      {
        file: 'errors.md',
        about: 'every error class, reason and code the package, the token handler and doctor give: why, and what to do',
      },
    ],
  },
  {
    text: 'Migrating',
    pages: [
      {
        file: 'migrating.md',
        about:
          "from apollo-link-token-refresh as apps have it (a GraphQL refresh with the pair in localStorage, a REST refresh with the refresh token in a header or in the server's cookie) and from the Apollo Client 4 documentation's recipe, before and after; its options, the other links, Apollo Client 3 to 4",
      },
    ],
  },
  {
    text: 'Contributing',
    pages: [
      { file: 'contributing.md', about: "commands, snippet conventions, the engine's parts and where a rule goes" },
    ],
  },
];
