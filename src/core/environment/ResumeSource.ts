/**
 * Where the session learns that the app may have slept or been offline, so that a refresh that fell due
 * meanwhile runs now rather than when a throttled timer gets round to it.
 *
 * @remarks
 * A page passes {@link browserResume}. React Native passes its own, built on `AppState` (and NetInfo for
 * `isOnline`).
 *
 * @example React Native:
 * ```ts
 * import { AppState } from 'react-native';
 * const resume: ResumeSource = {
 *   subscribe(resume) {
 *     const subscription = AppState.addEventListener('change', (state) => state === 'active' && resume());
 *     return () => subscription.remove();
 *   },
 * };
 * createTokenAuth({ uri, refreshOnResume: resume });
 * ```
 */
export interface ResumeSource {
  /** Calls `resume` when the app is back: visible, focused, online. Returns the function that stops it. */
  subscribe(resume: () => void): () => void;
  /**
   * `false` when the environment knows it is offline: a failed refresh then waits for `resume` instead of
   * retrying on a timer. Leave it out when unknown.
   */
  isOnline?(): boolean;
}

/**
 * The page's {@link ResumeSource}: `visibilitychange`, `focus`, `online`, and `pageshow` from the back/forward
 * cache, and `navigator.onLine`. `undefined` where there is no page (Node, React Native, a worker), which
 * `refreshOnResume` takes as none.
 *
 * @remarks
 * A page restored from the back/forward cache comes back with its timers and its token as old as the time away.
 * Chromium fires `visibilitychange` just before; `pageshow` with `persisted` is the sign every browser gives.
 *
 * @example
 * ```ts
 * const auth = createTokenAuth({ uri: '/graphql', refreshOnResume: browserResume() });
 * ```
 */
export function browserResume(): ResumeSource | undefined {
  const page = globalThis as unknown as Partial<Window>;
  const { document } = page;
  if (!document || typeof page.addEventListener !== 'function') return;
  const sources = [
    [page, 'online'],
    [page, 'focus'],
    [document, 'visibilitychange'],
    [page, 'pageshow'],
  ] as const;
  return {
    subscribe(resume) {
      const stop = new AbortController();
      // The first `pageshow` of a page is its load, not a return.
      const onEvent = (event: Event) =>
        (event.type !== 'pageshow' || (event as PageTransitionEvent).persisted) &&
        document.visibilityState !== 'hidden' &&
        resume();
      for (const [target, event] of sources) target.addEventListener!(event, onEvent, { signal: stop.signal });
      return () => stop.abort();
    },
    isOnline: () => page.navigator?.onLine !== false,
  };
}
