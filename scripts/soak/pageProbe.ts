/** What the probe is told when it is put in a page. */
export interface ProbeConfig {
  /** Seeds the tab's workload. */
  readonly seed: number;
  /** The test id of the app's "Signed in as …" line. */
  readonly status: string;
  /** The workload's query, as a parsed document (`me { id email }`). */
  readonly query: unknown;
  /** The workload's mutation, as a parsed document (`renameClub(id: $id, name: $name)`). */
  readonly mutation: unknown;
  /** The club the mutation renames: one every user of the app may see. */
  readonly club: string;
  /** The tab's name (`vite-spa#1`), in the mutation's club names. */
  readonly tab: string;
  /** Whether the page shows the `ticker` subscription (`data-testid="ticker"`): each event is reported. */
  readonly ticker?: boolean;
}

/**
 * Runs in every page of the soak, before the app (an init script): reports what the page shows (the user of its
 * "Signed in as …" line, read at every change of the DOM), each change of the session's state (a new `expiresAt`
 * is a new pair, `refreshAt` its schedule), each refresh the session ran (`auth.observe`: trigger, outcome, when it
 * was asked for), and drives the workload: a query through the app's own Apollo client (`window.client`, which the
 * examples expose under `?console`) every 1 to 3 s while signed in, each reported when it starts and when it
 * settles; about one operation in five is a mutation (`client.mutate`, a club renamed to a name unique to it).
 * In the tab that shows the `ticker` subscription, each event is reported with the user the screen shows at that
 * moment (read in the same DOM mutation). A return from elsewhere (`pageshow`, `persisted` when from the
 * back/forward cache) is reported, and so is every request that goes out with an access token past its `exp` by
 * the page's clock. Reports go to `window.__soakReport`, a Playwright binding. A frozen page runs none of this, as
 * it runs none of the app.
 */
export function pageProbe(config: ProbeConfig): void {
  type Report = Record<string, unknown>;
  const w = window as unknown as {
    __soakReport?: (event: Report) => Promise<void>;
    auth?: {
      getState(): Record<string, any>;
      subscribe(listener: () => void): () => void;
      observe?(observer: (event: Record<string, any>) => void): () => void;
    };
    client?: {
      query(options: { query: unknown; fetchPolicy: string }): Promise<{ data?: { me?: { email?: string } } }>;
      mutate(options: {
        mutation: unknown;
        variables: Record<string, unknown>;
      }): Promise<{ data?: { renameClub?: { name?: string } } }>;
    };
  };
  const load = Math.random().toString(36).slice(2, 8);
  const queue: Report[] = [];
  const report = (event: Report) => {
    queue.push({ ...event, load, at: Date.now() });
    if (typeof w.__soakReport === 'function')
      for (const each of queue.splice(0)) void w.__soakReport(each).catch(() => {});
  };

  const readScreen = () => {
    const text = document.querySelector(`[data-testid="${config.status}"]`)?.textContent ?? '';
    const user = /^Signed in as (.+)$/.exec(text.trim())?.[1];
    return user ?? (text.startsWith('Signed out') ? 'signed-out' : 'loading');
  };
  let shown: string | undefined;
  const lookAtScreen = () => {
    const screen = readScreen();
    if (screen !== shown)
      report({
        type: 'screen',
        screen,
        text: document.querySelector(`[data-testid="${config.status}"]`)?.textContent ?? '',
      });
    shown = screen;
  };
  // On every change of the DOM, as it happens: a timer would run late in a hidden or background tab, which the
  // browser throttles, and the screen would seem to change seconds after it did.
  const watchScreen = () =>
    new MutationObserver(lookAtScreen).observe(document.documentElement, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  if (document.documentElement) watchScreen();
  else document.addEventListener('DOMContentLoaded', watchScreen);

  const hook = setInterval(() => {
    const auth = w.auth;
    if (!auth) return;
    clearInterval(hook);
    let seen = '';
    const look = () => {
      const state = auth.getState();
      const key = `${state.status}|${state.user?.email}|${state.expiresAt}|${state.refreshAt}|${!!state.retry}`;
      if (key === seen) return;
      seen = key;
      report({
        type: 'state',
        status: state.status,
        user: state.user?.email ?? null,
        expiresAt: state.expiresAt ?? null,
        refreshAt: state.refreshAt ?? null,
        ended: state.ended ? `${state.ended.reason}${state.ended.elsewhere ? ' elsewhere' : ''}` : null,
        retry: state.retry ? String(state.retry.error?.message ?? state.retry.error) : null,
      });
    };
    auth.subscribe(look);
    look();
    // Each refresh as the session tells it: its trigger, its outcome, and when it was asked for (`ms` before it
    // settled), by the page's clock as `refreshAt` is.
    auth.observe?.((event) => {
      if (event['type'] === 'refresh')
        report({
          type: 'refresh',
          trigger: event['trigger'],
          outcome: event['outcome'],
          asked: event['at'] - event['ms'],
          settled: event['at'],
        });
    });
  }, 20);

  if (config.ticker) {
    let lastTick = '';
    const lookTicker = () => {
      const text = document.querySelector('[data-testid="ticker"]')?.textContent ?? '';
      if (text === lastTick) return;
      lastTick = text;
      const tick = /^Tick (\d+) for (.+)$/.exec(text.trim());
      // Anything else it shows ("Ticker failed: …", "Waiting for the first tick…") goes to the journal as it is.
      if (tick) report({ type: 'tick', n: Number(tick[1]), email: tick[2], screen: readScreen() });
      else if (text) report({ type: 'ticker', text });
    };
    const observe = () =>
      new MutationObserver(lookTicker).observe(document.documentElement, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    if (document.documentElement) observe();
    else document.addEventListener('DOMContentLoaded', observe);
  }

  // A page restored from the back/forward cache says so; its first `pageshow` (the load) is not a return.
  let shownOnce = false;
  addEventListener('pageshow', (event) => {
    if (shownOnce) report({ type: 'pageshow', persisted: event.persisted });
    shownOnce = true;
  });

  // Every request with an access token past its `exp` by this page's clock, as it goes out.
  const send = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const header = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const token = /^Bearer (.+)$/.exec(header.get('authorization') ?? '')?.[1];
    try {
      const payload = token && JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')));
      const late = payload ? Date.now() - payload.exp * 1000 : -1;
      if (late >= 0) report({ type: 'dead-token', late, url: String(input instanceof Request ? input.url : input) });
    } catch {
      // Not a JWT: not this probe's business.
    }
    return send(input, init);
  };

  let seed = config.seed >>> 0;
  const random = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let id = 0;
  const loop = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1000 + random() * 2000));
    if (w.client && w.auth?.getState().status === 'authenticated') {
      const op = ++id;
      const mutation = random() < 0.2;
      const name = `soak ${config.tab} ${load} ${op}`;
      report({ type: 'op-start', id: op, screen: readScreen(), ...(mutation && { kind: 'mutation', name }) });
      try {
        if (mutation) {
          const { data } = await w.client.mutate({ mutation: config.mutation, variables: { id: config.club, name } });
          report({
            type: 'op-end',
            id: op,
            ok: data?.renameClub?.name === name,
            screen: readScreen(),
            ...(data?.renameClub?.name !== name && { error: 'renameClub answered without the new name' }),
          });
        } else {
          const { data } = await w.client.query({ query: config.query, fetchPolicy: 'network-only' });
          report({ type: 'op-end', id: op, ok: true, user: data?.me?.email ?? null, screen: readScreen() });
        }
      } catch (error) {
        report({
          type: 'op-end',
          id: op,
          ok: false,
          error: String((error as Error)?.message ?? error),
          screen: readScreen(),
        });
      }
    }
    void loop();
  };
  void loop();
}
