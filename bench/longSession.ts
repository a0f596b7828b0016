import { ApolloLink } from '@apollo/client';
import { Observable } from 'rxjs';
import { createTokenAuth, type RefreshTrigger } from '../src/index.ts';
import { decodeAccessToken } from '../src/core/tokens/readTokenPair.ts';
import { makePair } from '../test/helpers/jwt.ts';
import { PING } from '../test/helpers/pingClient.ts';
import { FakeClock } from '../test/model/FakeClock.ts';
import {
  ADMIN,
  createContextClient,
  jsonResponse,
  markdownTable,
  readGraphqlRequest,
  timedOut,
  withTimeout,
} from './helpers.ts';

/** The simulated session. */
export interface LongSessionOptions {
  /** Simulated duration, ms. */
  durationMs: number;
  /** Simulated time between two operations, ms. */
  intervalMs: number;
  /** Access token lifetime, s. */
  accessTokenTtl: number;
  /** The `refreshLeadTime` given to `createTokenAuth`, ms. */
  refreshLeadTime: number;
}

/** What {@link simulateLongSession} counted. */
export interface LongSessionResult {
  readonly options: LongSessionOptions;
  readonly operations: number;
  readonly attempts: number;
  readonly tokenExpired: number;
  readonly failed: number;
  readonly refreshes: number;
  readonly reuseDetections: number;
  readonly triggers: Readonly<Partial<Record<RefreshTrigger, number>>>;
  readonly expectedRefreshes: number;
  readonly refreshIntervalMs: number;
  readonly finalStatus: string;
  readonly realMs: number;
}

// A fixed epoch, a whole second, so that `iat` and `exp` fall exactly on the schedule.
const START = Date.UTC(2025, 0, 6, 9, 0, 0);

/** Moves `clock` to `time`, firing every timer due on the way at its own time and letting its promises settle. */
async function advanceTo(clock: FakeClock, time: number): Promise<void> {
  while (clock.fireNext(time)) await settle();
  if (time > clock.now()) clock.jump(time - clock.now());
}

// The session's work in between is promises only (the stub fetch answers at once), so one macrotask settles it.
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Simulates hours of steady traffic with a fake clock: a stub service that issues tokens by that clock and
 * enforces single use, and a terminating link that answers `TOKEN_EXPIRED` for a token the clock says is dead.
 */
export async function simulateLongSession(options: LongSessionOptions): Promise<LongSessionResult> {
  const started = performance.now();
  const clock = new FakeClock(START);
  let serial = 0;
  let currentRefreshToken = '';
  let refreshes = 0;
  let reuseDetections = 0;
  const issue = () => {
    const pair = makePair(`a${++serial}`, { lifetimeSeconds: options.accessTokenTtl, now: clock.now() });
    currentRefreshToken = pair.refreshToken;
    return pair;
  };
  const stubFetch: typeof fetch = async (_input, init) => {
    const { query, variables } = readGraphqlRequest(init);
    if (query.includes('loginWithEmailPassword')) {
      return jsonResponse({
        data: { loginWithEmailPassword: { ...issue(), user: { id: 'u_admin', email: ADMIN.email, role: 'ADMIN' } } },
      });
    }
    if (query.includes('refreshToken(')) {
      refreshes += 1;
      if (variables['token'] !== currentRefreshToken) {
        reuseDetections += 1;
        currentRefreshToken = '';
        return jsonResponse({
          data: null,
          errors: [{ message: 'Refresh token already used', extensions: { code: 'INVALID_REFRESH_TOKEN' } }],
        });
      }
      return jsonResponse({ data: { refreshToken: issue() } });
    }
    return jsonResponse({ data: { logout: { success: true } } });
  };

  let attempts = 0;
  let tokenExpired = 0;
  const terminating = new ApolloLink((operation) => {
    attempts += 1;
    const authorization = (operation.getContext().headers as Record<string, string> | undefined)?.['authorization'];
    const token = authorization?.replace(/^Bearer /, '') ?? '';
    const exp = token ? decodeAccessToken(token).exp : undefined;
    const expired = typeof exp !== 'number' || clock.now() >= exp * 1000;
    if (expired) tokenExpired += 1;
    return new Observable<ApolloLink.Result>((observer) => {
      queueMicrotask(() => {
        observer.next(
          expired
            ? { data: null, errors: [{ message: 'Access token expired', extensions: { code: 'TOKEN_EXPIRED' } }] }
            : { data: { ping: operation.variables['n'] as number } },
        );
        observer.complete();
      });
    });
  });

  const triggers: Partial<Record<RefreshTrigger, number>> = {};
  const auth = createTokenAuth({
    uri: 'http://bench.invalid/graphql',
    fetch: stubFetch,
    clock,
    refreshLeadTime: options.refreshLeadTime,
    onRefresh: ({ trigger }) => {
      triggers[trigger] = (triggers[trigger] ?? 0) + 1;
    },
  });
  const client = createContextClient();
  const link = ApolloLink.from([auth.link, terminating]);
  let operations = 0;
  let failed = 0;
  try {
    await auth.login(ADMIN.email, ADMIN.password);
    for (let at = START; at < START + options.durationMs; at += options.intervalMs) {
      await advanceTo(clock, at);
      const n = operations++;
      const outcome = await withTimeout(
        new Promise<boolean>((resolve) => {
          let ok = false;
          ApolloLink.execute(link, { query: PING, variables: { n } }, { client }).subscribe({
            next: (result) => {
              ok = !result.errors;
            },
            error: () => resolve(false),
            complete: () => resolve(ok),
          });
        }),
        5_000,
      );
      // An operation waiting on a fake timer would never settle: report it as failed instead of hanging.
      if (outcome !== true) failed += 1;
      if (outcome === timedOut) break;
    }
    await advanceTo(clock, START + options.durationMs);
  } finally {
    auth.dispose();
    client.stop();
  }

  const lifetimeMs = options.accessTokenTtl * 1000;
  const refreshIntervalMs = lifetimeMs - options.refreshLeadTime;
  return {
    options,
    operations,
    attempts,
    tokenExpired,
    failed,
    refreshes,
    reuseDetections,
    triggers,
    expectedRefreshes: Math.floor(options.durationMs / refreshIntervalMs),
    refreshIntervalMs,
    finalStatus: auth.getState().status,
    realMs: performance.now() - started,
  };
}

/** The long-session section of RESULTS.md. */
export function longSessionMarkdown(result: LongSessionResult): string {
  const { options } = result;
  const hours = options.durationMs / 3_600_000;
  const lifetimeS = options.accessTokenTtl;
  const intervalS = result.refreshIntervalMs / 1000;
  const triggers = Object.entries(result.triggers)
    .map(([trigger, count]) => `${trigger} ${count}`)
    .join(', ');
  return [
    `## 3. Long session: ${hours} h of steady traffic on a fake clock`,
    '',
    `\`createTokenAuth\` with an injected clock (a deterministic timer queue driven by the benchmark), \`refreshLeadTime\` ${options.refreshLeadTime / 1000} s, ` +
      `a stub service issuing ${lifetimeS / 60}-minute tokens whose \`iat\`/\`exp\` follow the fake clock and refusing a reused refresh token, ` +
      `and a terminating link that answers \`TOKEN_EXPIRED\` when the token it received is expired by the fake clock. ` +
      `One operation every ${options.intervalMs / 1000} s of simulated time, each awaited.`,
    '',
    `Expected refreshes: the token lives ${lifetimeS} s and the lead time ${options.refreshLeadTime / 1000} s is shorter than that ` +
      `(and under 90 % of it), so each pair is renewed ${lifetimeS} − ${options.refreshLeadTime / 1000} = ${intervalS} s ` +
      `(${intervalS / 60} min) after it was received; from the login at t = 0 that is at ${intervalS} s × k for ` +
      `k = 1 … ⌊${options.durationMs / 1000} / ${intervalS}⌋ = ${result.expectedRefreshes}.`,
    '',
    markdownTable(
      ['Measure', 'value', 'goal'],
      [
        ['operations', result.operations, ''],
        ['terminating-link attempts', result.attempts, ''],
        ['round trips added (attempts − operations)', result.attempts - result.operations, '0'],
        ['TOKEN_EXPIRED responses', result.tokenExpired, '0'],
        ['failed operations', result.failed, '0'],
        ['refresh requests', result.refreshes, String(result.expectedRefreshes)],
        ['refreshes by trigger', triggers || 'none', `proactive ${result.expectedRefreshes}`],
        ['reused refresh tokens', result.reuseDetections, '0'],
        ['session status at the end', result.finalStatus, 'authenticated'],
        ['real time taken', `${(result.realMs / 1000).toFixed(1)} s`, ''],
      ],
    ),
  ].join('\n');
}

/** One line for stdout. */
export function longSessionSummary(result: LongSessionResult): string {
  return (
    `long session: ${result.operations} ops, ${result.attempts - result.operations} added round trips, ` +
    `${result.tokenExpired} TOKEN_EXPIRED, ${result.failed} failed, ${result.refreshes} refreshes (expected ${result.expectedRefreshes})`
  );
}
