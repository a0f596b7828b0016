import { ApolloClient, ApolloLink, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AuthRejectedError,
  createMemoryTokenStore,
  createTokenAuth,
  SessionEndedError,
  type RefreshEvent,
  type SessionEndEvent,
  type TokenAuthOptions,
} from '../../../src';
import { runDoctor } from '../../../src/doctor';
import { createTestClock, type TestClock } from '../../../src/testing';
import { useCleanups } from '../../helpers/overHttp';
import { ADMIN, advanceUntil, DOCUMENTS, ME, postGraphQL, trackedFetch } from '../specServer';
import { STACKS, type Stack } from './stacks';
import { startStack, type StackServer } from './startStack';

const cleanups = useCleanups();
// What docs/servers.md shows, measured here: per stack, each column of its row (see COLUMNS).
const measured: Record<string, Record<string, string>> = {};
const note = (stack: Stack, column: keyof typeof COLUMNS, value: string) =>
  (measured[stack.name] = { ...measured[stack.name], [column]: value });
const COLUMNS = {
  wrongPassword: 'Wrong password',
  spentRefresh: 'Spent refresh token',
  deadAccess: "A dead session's access token",
  revoked: 'Revoked session → signed out (test clock, 15-min tokens)',
  business: 'Refreshes for 10 min of business errors (3,000 ops)',
  doctor: 'doctor',
} as const;
const SERVERS_DOC = fileURLToPath(new URL('../../../docs/servers.md', import.meta.url));
const TABLE = /<!-- measured: npm run test:interop -->\n(?:[\s\S]*?\n)?<!-- end -->/;

// The table of docs/servers.md is this suite's measurements: it fails when they differ from what the page says,
// and UPDATE_SERVERS_TABLE=1 writes them. Only a run of every stack, every test, can speak for the table.
afterAll(() => {
  console.info(`interop measurements: ${JSON.stringify(measured, null, 1)}`);
  const complete = STACKS.every((stack) => Object.keys(COLUMNS).every((column) => measured[stack.name]?.[column]));
  if (!complete) return;
  const header = `| Stack | ${Object.values(COLUMNS).join(' | ')} |\n|---|${Object.keys(COLUMNS)
    .map(() => '---')
    .join('|')}|`;
  const rows = STACKS.map(
    (stack) =>
      `| ${stack.name} | ${Object.keys(COLUMNS)
        .map((column) => measured[stack.name]![column])
        .join(' | ')} |`,
  );
  const table = `<!-- measured: npm run test:interop -->\n${header}\n${rows.join('\n')}\n<!-- end -->`;
  const page = readFileSync(SERVERS_DOC, 'utf8');
  if (process.env['UPDATE_SERVERS_TABLE']) writeFileSync(SERVERS_DOC, page.replace(TABLE, table));
  else expect(page.match(TABLE)?.[0], 'docs/servers.md: run UPDATE_SERVERS_TABLE=1 npm run test:interop').toBe(table);
});

const said = ({ message, code }: { message?: string; code?: unknown }) =>
  `"${message}", ${code ? `\`${String(code)}\`` : 'no code'}`;

const CLUB = gql`
  query Club($id: ID!) {
    club(id: $id) {
      id
      name
    }
  }
`;
const RENAME = gql`
  mutation Rename($id: ID!) {
    renameClub(id: $id, name: "Lakeside") {
      id
    }
  }
`;

/** A session with default options (but the clock) against `server`, counting the refreshes it sends. */
function rig(server: StackServer, clock: TestClock, options: Partial<TokenAuthOptions> = {}) {
  const fetch = trackedFetch(clock);
  const sent = { refreshes: 0, me: 0 };
  const counting: typeof globalThis.fetch = (input, init) => {
    const body = String(init?.body ?? '');
    if (body.includes('refreshToken(')) sent.refreshes += 1;
    if (/\bme\s*\{/.test(body)) sent.me += 1;
    return fetch(input, init);
  };
  const store = createMemoryTokenStore();
  const ended: SessionEndEvent[] = [];
  const refreshes: RefreshEvent[] = [];
  const auth = createTokenAuth({
    uri: server.url,
    fetch: counting,
    clock,
    store,
    refreshOnResume: false,
    onSessionEnd: (event) => ended.push(event),
    onRefresh: (event) => refreshes.push(event),
    ...options,
  });
  cleanups.push(() => auth.dispose());
  const client = new ApolloClient({
    link: ApolloLink.from([auth.link, new HttpLink({ uri: server.url, fetch: counting })]),
    cache: new InMemoryCache(),
  });
  return { auth, client, store, ended, refreshes, sent };
}

const settle = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
const prepared = new Map<Stack, ReturnType<Stack['prepare']>>();

async function start(stack: Stack, accessTokenTtl?: number): Promise<StackServer> {
  if (!prepared.has(stack)) prepared.set(stack, stack.prepare());
  const server = await startStack(prepared.get(stack)!, { accessTokenTtl });
  cleanups.push(() => server.close());
  return server;
}

describe.each(STACKS)('$name, a spec server written as its docs teach, over real HTTP', (stack) => {
  const missing = stack.missing();
  // CI installs every stack: there a missing one fails instead of being skipped.
  const run = missing && !process.env['CI'] ? it.skip : it;
  if (missing) it.runIf(!!process.env['CI'])(`is installed (${missing})`, () => expect(missing).toBeUndefined());

  run('refuses in its own words, with the code a plain error of its stack gets', async () => {
    const server = await start(stack);
    const wrong = await postGraphQL(server.url, DOCUMENTS.login, { email: ADMIN.email, password: 'wrong' });
    expect(wrong).toMatchObject({ status: 200, message: 'Invalid email or password', code: stack.refusalCode });
    const spent = await postGraphQL(server.url, DOCUMENTS.refresh, { token: 'not-a-token' });
    expect(spent).toMatchObject({ status: 200, message: 'Invalid refresh token', code: stack.refusalCode });
    const dead = await postGraphQL(server.url, DOCUMENTS.me, {}, 'not-a-token');
    expect(dead).toMatchObject({ status: 200, message: 'Not authenticated', code: stack.refusalCode });
    note(stack, 'wrongPassword', said(wrong));
    note(stack, 'spentRefresh', said(spent));
    note(stack, 'deadAccess', said(dead));
  });

  run("a wrong password is an AuthRejectedError in the server's words, and the state says so", async () => {
    const server = await start(stack);
    const { auth } = rig(server, createTestClock());
    const { error } = (await settle(auth.login(ADMIN.email, 'wrong'))) as { error: unknown };
    expect(AuthRejectedError.is(error) && error.message).toBe('Invalid email or password');
    expect(auth.getState()).toMatchObject({
      status: 'unauthenticated',
      error: { message: 'Invalid email or password' },
    });
  });

  run(
    'an access token that expired on the server: 10 operations cost one refresh and are all replayed once',
    async () => {
      // Real 2-second tokens on the server's clock; the session's test clock stands still, so it sends the token
      // the server has seen expire, as a client whose clock is behind would.
      const server = await start(stack, 2);
      const clock = createTestClock();
      const { auth, client, sent } = rig(server, clock);
      await auth.login(ADMIN.email, ADMIN.password);
      const before = await auth.getAccessToken();
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          settle(client.query({ query: ME, fetchPolicy: 'network-only', context: { queryDeduplication: false } })),
        ),
      );
      expect(results).toEqual(
        Array.from({ length: 10 }, () => ({
          value: expect.objectContaining({
            data: { me: expect.objectContaining({ id: ADMIN.id, email: ADMIN.email }) },
          }),
        })),
      );
      expect(sent).toEqual({ refreshes: 1, me: 20 });
      expect(await auth.getAccessToken()).not.toBe(before);
    },
  );

  run(
    'a session revoked on the server ends within 5 s of the first refused operation, with 15-minute tokens',
    async () => {
      const server = await start(stack);
      const clock = createTestClock();
      const { auth, client, store, ended, sent } = rig(server, clock);
      await auth.login(ADMIN.email, ADMIN.password);
      expect((await client.query({ query: ME })).data).toMatchObject({ me: { id: ADMIN.id } });
      // Revoked elsewhere: the user signed out on another device, which kills both tokens of this session.
      const { refreshToken } = (await store.get())!;
      expect(await postGraphQL(server.url, DOCUMENTS.logout, { refreshToken })).toMatchObject({
        status: 200,
        data: { logout: { success: true } },
      });
      const real = performance.now();
      let outcome: { value?: unknown; error?: unknown } | undefined;
      void settle(client.query({ query: CLUB, variables: { id: 'c1' } })).then((settled) => (outcome = settled));
      const took = await advanceUntil(
        clock,
        () => outcome !== undefined && auth.getState().status === 'unauthenticated',
        60_000,
        100,
      );
      console.info(
        `${stack.name}: signed out ${took} ms (test clock) after the refused operation, ${Math.round(performance.now() - real)} ms of real time`,
      );
      note(stack, 'revoked', `${(took / 1000).toFixed(1)} s, ${sent.refreshes} refresh`);
      expect(took).toBeLessThanOrEqual(5_000);
      expect(SessionEndedError.is(outcome!.error) && outcome!.error.reason).toBe('rejected');
      expect(auth.getState()).toMatchObject({
        status: 'unauthenticated',
        ended: { reason: 'rejected', rejection: 'revoked', message: 'Invalid refresh token' },
      });
      expect(ended).toEqual([expect.objectContaining({ reason: 'rejected', message: 'Invalid refresh token' })]);
      expect(sent.refreshes).toBe(1);
      // Nothing more is sent for a session that is over.
      await clock.advance(60 * 60_000);
      expect(sent.refreshes).toBe(1);
    },
  );

  run(
    'business errors without a code for 10 minutes at 5 operations a second: never ended, at most 10 refreshes',
    async () => {
      const server = await start(stack);
      const clock = createTestClock();
      const { auth, client, ended, sent, refreshes } = rig(server, clock);
      await auth.login(ADMIN.email, ADMIN.password);
      const failures = new Map<string, number>();
      // Each second, five operations at once: 3,000 in ten minutes of the test clock.
      for (let second = 0; second < 10 * 60; second++) {
        const operations = Array.from({ length: 5 }, (_, n) =>
          (n + second) % 2
            ? client.mutate({ mutation: RENAME, variables: { id: 'c1' } })
            : client.query({
                query: CLUB,
                variables: { id: 'c2' },
                fetchPolicy: 'network-only',
                context: { queryDeduplication: false },
              }),
        );
        for (const { error } of (await Promise.all(operations.map(settle))) as Array<{ error?: Error }>) {
          failures.set(error?.message ?? 'answered', (failures.get(error?.message ?? 'answered') ?? 0) + 1);
        }
        await clock.advance(1_000);
      }
      const checks = refreshes.filter(({ trigger }) => trigger === 'check').length;
      note(
        stack,
        'business',
        `${sent.refreshes} refresh${sent.refreshes === 1 ? '' : 'es'} (${checks} check${checks === 1 ? '' : 's'}), never ended`,
      );
      expect([...failures.keys()].sort()).toEqual(['Club not found', 'Not allowed to edit this club']);
      expect(ended).toEqual([]);
      expect(auth.getState()).toMatchObject({ status: 'authenticated', user: { id: ADMIN.id } });
      // The proactive refresh is due 12.5 minutes after the login: none happened in these 10 minutes.
      expect(sent.refreshes).toBeLessThanOrEqual(10);
    },
    180_000,
  );

  run('logout kills both tokens on the server', async () => {
    const server = await start(stack);
    const { auth, store } = rig(server, createTestClock());
    await auth.login(ADMIN.email, ADMIN.password);
    const pair = (await store.get())!;
    expect((await postGraphQL(server.url, DOCUMENTS.me, {}, pair.accessToken)).data).toMatchObject({
      me: { id: ADMIN.id },
    });
    await auth.logout();
    expect(await postGraphQL(server.url, DOCUMENTS.me, {}, pair.accessToken)).toMatchObject({
      message: 'Not authenticated',
      data: null,
    });
    expect(await postGraphQL(server.url, DOCUMENTS.refresh, { token: pair.refreshToken })).toMatchObject({
      message: 'Invalid refresh token',
      data: null,
    });
  });

  run('doctor passes it, and says how it refuses the access token of a dead session', async () => {
    const server = await start(stack);
    const report = await runDoctor({ uri: server.url, email: ADMIN.email, password: ADMIN.password });
    const dead = report.checks.find(({ id }) => id === 'dead-access');
    note(stack, 'doctor', `${report.ok ? 'passes' : 'fails'}; dead session: ${dead?.status}`);
    expect(report.ok, JSON.stringify(report.checks.filter(({ status }) => status === 'fail'))).toBe(true);
    expect(report.loggedOut).toBe(true);
    expect(dead).toMatchObject({ status: 'ok' });
    expect(dead!.detail).toContain('Not authenticated');
  });
});
