import type { Client } from 'graphql-ws';
import { vi } from 'vitest';
import WebSocket from 'ws';
import type { AuthServer, AuthServerOptions } from '../../demo/server/createAuthServer';
import { createTokenAuth, type TokenAuth, type TokenAuthOptions } from '../../src/index';
import { createTokenAuthWsClient, type TokenAuthWsClientOptions } from '../../src/ws/index';
import { startDemoServer } from './overHttp';

/** The demo server's `ticker` subscription. */
export const TICKER = 'subscription Ticker { ticker { n userId email } }';

/** ms between two ticker events in these tests: short, so that real waits stay short. */
export const TICK = 20;

interface Tick {
  n: number;
  userId: string;
  email: string;
}

/** What one subscription delivered: its events, its errors, whether it completed. */
export interface Recording {
  readonly ticks: Tick[];
  /** When each of `ticks` arrived (`performance.now()`). */
  readonly arrivals: number[];
  readonly errors: unknown[];
  readonly completed: boolean;
  /** Results that carried errors (none expected: the client handles TOKEN_EXPIRED itself). */
  readonly failedResults: unknown[];
  stop(): void;
  /** Resolves once `count` more events than now have arrived. */
  more(count?: number): Promise<void>;
}

/** Subscribes to the ticker and records what arrives. */
export function record(client: Client, query = TICKER): Recording {
  const ticks: Tick[] = [];
  const arrivals: number[] = [];
  const errors: unknown[] = [];
  const failedResults: unknown[] = [];
  let completed = false;
  const stop = client.subscribe<{ ticker: Tick }>(
    { query },
    {
      next(result) {
        if (result.errors) failedResults.push(result);
        if (result.data) {
          ticks.push(result.data.ticker);
          arrivals.push(performance.now());
        }
      },
      error: (error) => errors.push(error),
      complete: () => (completed = true),
    },
  );
  return {
    ticks,
    arrivals,
    errors,
    failedResults,
    get completed() {
      return completed;
    },
    stop,
    async more(count = 3) {
      const target = ticks.length + count;
      await vi.waitFor(
        () => {
          if (errors.length)
            throw new Error(
              `the subscription failed: ${errors[0] instanceof Error ? errors[0].stack : JSON.stringify(errors[0])}`,
            );
          if (ticks.length < target) throw new Error(`${ticks.length} of ${target} events`);
        },
        { timeout: 5_000, interval: 5 },
      );
    },
  };
}

/** The WebSocket URL of the demo server's `/graphql`. */
export const wsUrl = (server: AuthServer) => server.url.replace(/^http/, 'ws');

/** A demo server ticking every {@link TICK} ms, a session against it, and the graphql-ws client that follows it. */
export async function startOverWs(
  cleanups: Array<() => unknown>,
  options: {
    server?: AuthServerOptions;
    auth?: Partial<TokenAuthOptions>;
    ws?: Partial<TokenAuthWsClientOptions>;
  } = {},
): Promise<{ server: AuthServer; auth: TokenAuth; client: Client }> {
  const server = await startDemoServer(cleanups, { tickerInterval: TICK, ...options.server });
  const auth = createTokenAuth({ uri: server.url, refreshOnResume: false, ...options.auth });
  cleanups.push(() => auth.dispose());
  const client = createTokenAuthWsClient(auth, {
    url: wsUrl(server),
    webSocketImpl: WebSocket,
    // Network failures are not under test: graphql-ws's own retries would only slow a failing test down.
    retryAttempts: 0,
    ...options.ws,
  });
  cleanups.push(() => client.dispose());
  return { server, auth, client };
}

/** Waits `ms` of real time: for "nothing more arrives" checks, a few ticks long. */
export const idle = (ms = 6 * TICK) => new Promise((resolve) => setTimeout(resolve, ms));

/** The token a `connection_init` payload carried, `undefined` for none. */
export const bearerOf = (params: Record<string, unknown> | undefined) =>
  typeof params?.['authorization'] === 'string' ? params['authorization'].replace(/^Bearer /, '') : undefined;

/** {@link startOverWs} logged in as the admin, with a ticker that has delivered `events` events already. */
export async function tickingAsAdmin(
  cleanups: Array<() => unknown>,
  options: Parameters<typeof startOverWs>[1] = {},
  events = 2,
): Promise<Awaited<ReturnType<typeof startOverWs>> & { ticker: Recording }> {
  const started = await startOverWs(cleanups, options);
  await started.auth.login('admin@demo.test', 'admin-pass');
  const ticker = record(started.client);
  await ticker.more(events);
  return { ...started, ticker };
}
