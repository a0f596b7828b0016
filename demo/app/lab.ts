import { type Clock, type ResumeSource, browserResume } from 'apollo-link-token-pair';

/** What the server has said about one access token, by the last 6 characters of its `jti`. */
export type ServerVerdict = 'expired' | 'revoked' | 'reuse';

/** Why the page came back, as the last `online`, `focus` or `visibilitychange` event (or the lab's "online") said. */
export type ResumeCause = 'online' | 'focus' | 'visible';

interface LabState {
  /** This page behaves as if it had no network: its requests fail, and `online` is false. */
  readonly offline: boolean;
  /** How far this page's clock is off, in ms (kept for the tab in sessionStorage, applied at load). */
  readonly skew: number;
  /** What the server said about access tokens (by short id) and sessions (by sid). */
  readonly verdicts: Readonly<Record<string, ServerVerdict>>;
  /** The session id (`sid`) of the last session this page had. */
  readonly sid: string;
}

const SKEW_KEY = 'demo-clock-skew';
const storedSkew = () => {
  try {
    return Number(sessionStorage.getItem(SKEW_KEY)) || 0;
  } catch {
    return 0;
  }
};

let state: LabState = { offline: false, skew: storedSkew(), verdicts: {}, sid: '' };
const listeners = new Set<() => void>();
let resumeCause: ResumeCause = 'focus';

function set(next: Partial<LabState>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

/** The last 6 characters of a token's `jti`: enough to tell one token from the next in the log. */
export function shortId(jti: unknown): string {
  return typeof jti === 'string' && jti ? jti.slice(-6) : '––––––';
}

/** The claims of a JWT, decoded without verifying; `{}` when it is none. */
export function claimsOf(token: string | null | undefined): Record<string, unknown> {
  try {
    const part = (token ?? '').split('.')[1] ?? '';
    return JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * The page's side of the demo's lab: offline, clock skew, and what the server said about a token, read with
 * `useSyncExternalStore(lab.subscribe, lab.getSnapshot)`.
 */
export const lab = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  getSnapshot: () => state,
  setOffline(offline: boolean) {
    set({ offline });
    // What a browser does when the network comes back: the package's resume source hears `online`.
    if (!offline) {
      resumeCause = 'online';
      window.dispatchEvent(new Event('online'));
    }
  },
  /** Sets the skew for this tab and reloads the page, which starts with the skewed clock. */
  setSkew(minutes: number) {
    sessionStorage.setItem(SKEW_KEY, String(minutes * 60_000));
    location.reload();
  },
  /** Records what the server said about the access token with `jti` (and about its session `sid`). */
  tell(verdict: ServerVerdict, claims: Record<string, unknown>) {
    const verdicts = { ...state.verdicts, [shortId(claims['jti'])]: verdict };
    if (typeof claims['sid'] === 'string' && verdict !== 'expired') verdicts[claims['sid']] = verdict;
    set({ verdicts });
  },
  /** Notes the session id of the session this page holds. */
  noteSid(sid: string) {
    if (sid && sid !== state.sid) set({ sid });
  },
  /** What started the last resume. */
  get resumeCause() {
    return resumeCause;
  },
};

/** This page's clock: the real one, off by the lab's skew. The package gets it as `createTokenAuth({ clock })`. */
export const clock: Clock = {
  now: () => Date.now() + state.skew,
  setTimeout: (callback, delay) => setTimeout(callback, delay),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** `fetch`, except that it fails as a browser without a network does while the lab says this page is offline. */
export const labFetch: typeof fetch = (input, init) =>
  state.offline ? Promise.reject(new TypeError('Failed to fetch (this page is offline)')) : fetch(input, init);

/**
 * The package's `browserResume()`, offline when the lab says so, and remembering what woke it (`online` reads
 * differently from a tab that became visible again).
 */
export function labResume(): ResumeSource | undefined {
  const browser = browserResume();
  if (!browser) return undefined;
  return {
    subscribe(resume) {
      const stop = new AbortController();
      // Registered before the package's own listeners: the cause is known when they call `resume`.
      window.addEventListener('online', () => (resumeCause = 'online'), { signal: stop.signal });
      window.addEventListener('focus', () => (resumeCause = 'focus'), { signal: stop.signal });
      document.addEventListener('visibilitychange', () => (resumeCause = 'visible'), { signal: stop.signal });
      const unsubscribe = browser.subscribe(resume);
      return () => {
        stop.abort();
        unsubscribe();
      };
    },
    isOnline: () => !state.offline && browser.isOnline?.() !== false,
  };
}

/**
 * Calls a control of the demo server's lab (`POST /control/<name>`), with this page's access token when it
 * acts on "mine". Resolves the answer's JSON; throws its `error`.
 */
export async function control(
  name: string,
  options: { token?: string | null; body?: object } = {},
): Promise<Record<string, unknown>> {
  const response = await fetch(`/control/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(options.token && { authorization: `Bearer ${options.token}` }) },
    body: JSON.stringify(options.body ?? {}),
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof answer['error'] === 'string')
    throw new Error(String(answer['error'] ?? `HTTP ${response.status}`));
  return answer;
}
