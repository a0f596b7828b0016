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
 * The page's {@link ResumeSource}: `visibilitychange`, `focus` and `online`, and `navigator.onLine`. `undefined`
 * where there is no page (Node, React Native, a worker), which `refreshOnResume` takes as none.
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
  ] as const;
  return {
    subscribe(resume) {
      const stop = new AbortController();
      const onEvent = () => document.visibilityState !== 'hidden' && resume();
      for (const [target, event] of sources) target.addEventListener!(event, onEvent, { signal: stop.signal });
      return () => stop.abort();
    },
    isOnline: () => page.navigator?.onLine !== false,
  };
}
