import { type Clock, systemClock } from '../environment/Clock';
import { createListeners } from './createListeners';
import type { Lock } from '../environment/lock';
import { remember, type SharedTokenStore, shareWith } from './shareTokenStore';
import type { TokenPair } from '../tokens/TokenPair';
import type { TokenStorage } from './TokenStore';

/** Options of {@link createBroadcastTokenStore}. */
export interface BroadcastTokenStoreOptions {
  /**
   * The `BroadcastChannel` name: stores with the same name on one origin share one pair.
   * @defaultValue `'apollo-link-token-pair'`
   */
  name?: string;
  /**
   * How long a read waits for the other tabs to answer, in ms. A tab that misses three reads in a row (frozen,
   * closed without a goodbye) is no longer waited for until it speaks again; reads whose wait ended more than a
   * second late (this tab was frozen, or its timers throttled) count no miss. When no other tab is known, a read
   * waits 50 ms and takes the newest pair answered meanwhile, not the first: a tab that was frozen may answer
   * first, with a pair rotated since; a later answer is still taken, and the session follows it. A tab that
   * starts and hears of no pair while another tab holds the refresh lock (one the browser froze in mid-refresh)
   * reads again once it gets the lock, at most 20 s later, and stays `loading` meanwhile: it shows the pair
   * that refresh brings, not a sign-in form.
   * @defaultValue `150`
   */
  timeout?: number;
  /** The lock the tabs refresh under. @defaultValue Web Locks, named as the channel */
  lock?: Lock;
  /** The timers of the reads. @defaultValue the global timers */
  clock?: Clock;
  /**
   * Where the store hears `pagehide`: a refresh still on the wire when the page goes is cut off by the browser
   * after the service may have spent its token, and the other tabs then take that token as spent.
   * @defaultValue the page (`globalThis`), where there is one
   */
  page?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
}

type Message =
  | { type: 'set'; from: string; version: Version; pair: TokenPair | null }
  | { type: 'ask'; from: string; id: number }
  | { type: 'state'; from: string; id: number; version: Version; pair: TokenPair | null; spends: Spend[] }
  | { type: 'bye'; from: string }
  | { type: 'refused'; from: string; token: string }
  | { type: 'spend'; from: string; token: string | null; n: number };

// What a tab said last of its submissions: the refresh token it submits (`null`: none), its `n`th word of them.
type Spend = readonly [tab: string, token: string | null, n: number];

// How many tabs' `null` a store keeps, to tell a relayed word from an older one.
const SPENDS_KEPT = 32;

interface Wait {
  readonly any: boolean;
  readonly pending: Set<string>;
  done(): void;
}

// A wait that ended this much past its time did not run out: this tab was frozen, or its timers throttled, and
// the answers it waited for are queued behind the timer. Its silent tabs count no miss.
const LATE = 1_000;

// A write's place in the order of all writes: a counter, ties broken by the writer's id.
type Version = readonly [count: number, writer: string];

const after = (a: Version, b: Version) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

/**
 * Creates a {@link TokenStore} that keeps the pair in memory and shares it with the other tabs of the origin
 * through a `BroadcastChannel`: a tab opened later joins the session, and a login, refresh or logout in one tab
 * reaches all of them. Nothing is written to disk or `localStorage`, as the spec asks; closing the last tab
 * ends the session.
 *
 * @remarks
 * The store is shared already (see `shareTokenStore`): the tabs' sessions refresh under one Web Lock. Reads ask
 * every known tab for its pair and wait for all of them (at most `timeout`), so a read under the refresh lock
 * sees a rotation that the previous holder made: each tab posts its write before it answers. Where
 * `BroadcastChannel` does not exist (server-side rendering), it is a plain memory store.
 *
 * @example
 * ```ts
 * const auth = createTokenAuth({ uri, store: createBroadcastTokenStore() });
 * ```
 */
export function createBroadcastTokenStore(
  options: BroadcastTokenStoreOptions = {},
): SharedTokenStore & { close(): void } {
  const clock = options.clock ?? systemClock;
  const name = options.name ?? 'apollo-link-token-pair';
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const timeout = options.timeout ?? 150;
  const listeners = createListeners();
  // Known tabs, with how many reads in a row each has missed.
  const peers = new Map<string, number>();
  const waits = new Map<number, Wait>();
  let pair: TokenPair | null = null;
  let version: Version = [0, ''];
  let asks = 0;
  let closed = false;

  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : undefined;
  (channel as { unref?: () => void } | undefined)?.unref?.();
  const post = (message: Message) => {
    if (!closed) channel?.postMessage(message);
  };

  const apply = (next: TokenPair | null, at: Version) => {
    if (!after(at, version)) return;
    version = at;
    pair = next;
    listeners.notify();
  };

  channel?.addEventListener('message', (event) => {
    const message = (event as MessageEvent<Message>).data;
    if (message.type === 'bye') {
      peers.delete(message.from);
      for (const wait of waits.values()) settle(wait, message.from);
      return;
    }
    peers.set(message.from, 0);
    if (message.type === 'refused') {
      remember(refused, message.token);
      return;
    }
    if (message.type === 'spend') return hear([message.from, message.token, message.n]);
    if (message.type === 'ask') {
      post({ type: 'state', from: id, id: message.id, version, pair, spends: [...spending.values()] });
      return;
    }
    if (message.type === 'state') for (const spend of message.spends ?? []) if (spend[0] !== id) hear(spend);
    apply(message.pair, message.version);
    const wait = message.type === 'state' ? waits.get(message.id) : undefined;
    if (wait) settle(wait, message.from);
  });

  // Knowing no tab, a read takes every answer of its window, the newest winning (`apply`): the first may be a
  // thawed tab's, with a pair rotated while it was frozen.
  function settle(wait: Wait, from: string) {
    wait.pending.delete(from);
    if (!wait.any && wait.pending.size === 0) wait.done();
  }

  function ask(): Promise<void> {
    if (!channel || closed) return Promise.resolve();
    // Knowing no other tab, take the answers of a short window; else wait for every known tab.
    const any = peers.size === 0;
    const n = ++asks;
    const window = any ? Math.min(timeout, 50) : timeout;
    const until = clock.now() + window;
    return new Promise<void>((resolve) => {
      const wait: Wait = {
        any,
        pending: new Set(peers.keys()),
        done() {
          clock.clearTimeout(timer);
          waits.delete(n);
          const late = clock.now() - until > LATE;
          for (const peer of late ? [] : wait.pending) {
            const misses = (peers.get(peer) ?? 0) + 1;
            if (misses >= 3) peers.delete(peer);
            else if (peers.has(peer)) peers.set(peer, misses);
          }
          resolve();
        },
      };
      const timer = clock.setTimeout(wait.done, window);
      waits.set(n, wait);
      post({ type: 'ask', from: id, id: n });
    });
  }

  const write = (next: TokenPair | null) => {
    // Past every version this tab has seen, and past the clock: a tab that was frozen, and comes back with an
    // old counter that outnumbers a new tab's, cannot outrank a write made since.
    const at: Version = [Math.max(version[0] + 1, clock.now()), id];
    post({ type: 'set', from: id, version: at, pair: next });
    apply(next, at);
  };

  // The refresh tokens the service refused, in every tab: posted before the tab that met the refusal empties
  // the store, so the other tabs end their sessions as rejected, not as logged out elsewhere.
  const refused = new Set<string>();
  // What each tab (this one too) submits now. A token still here when this tab holds the lock was submitted by a
  // tab that let the lock go without an answer (reloaded, closed): the answer is lost, and the token spent. The
  // answers to `ask` carry them, so a tab that starts while another's answer is being lost knows it too.
  const spending = new Map<string, Spend>();
  const hear = (spend: Spend) => {
    const [tab, , n] = spend;
    if (n <= (spending.get(tab)?.[2] ?? 0)) return;
    spending.delete(tab);
    spending.set(tab, spend);
    for (const [each, [, token]] of spending) if (spending.size > SPENDS_KEPT && token === null) spending.delete(each);
  };
  // The browser fails the request of a page it unloads (a network error) after `pagehide`, while the page's code
  // still runs. The end of a submission is then not told, for the service may have spent the token; and a page
  // the back/forward cache brings back does not submit it again either.
  let leaving = false;
  let spends = 0;
  const page = options.page ?? (typeof addEventListener === 'function' ? globalThis : undefined);
  const onPageHide = () => void (leaving = true);
  const onPageShow = () => void (leaving = false);
  page?.addEventListener('pagehide', onPageHide);
  page?.addEventListener('pageshow', onPageShow);
  const spend = (token: string | null) => {
    if (token === null && leaving) return;
    const said: Spend = [id, token, ++spends];
    hear(said);
    post({ type: 'spend', from: id, token, n: said[2] });
  };

  const store: TokenStorage = {
    async get() {
      await ask();
      return pair;
    },
    set: write,
    clear: () => write(null),
    subscribe: listeners.subscribe,
  };
  return Object.assign(
    shareWith(
      store,
      { name, lock: options.lock },
      {
        refused,
        refuse: (token) => post({ type: 'refused', from: id, token }),
        spend,
        lost: (token) => [...spending.values()].some(([, spent]) => spent === token),
      },
    ),
    {
      close() {
        post({ type: 'bye', from: id });
        closed = true;
        page?.removeEventListener('pagehide', onPageHide);
        page?.removeEventListener('pageshow', onPageShow);
        channel?.close();
        listeners.clear();
      },
    },
  );
}
