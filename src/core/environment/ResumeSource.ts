/**
 * Where the session learns that the app may have slept or been offline, so that a refresh that fell due
 * meanwhile runs now rather than when a throttled timer gets round to it.
 *
 * @remarks
 * The default listens to the page (`visibilitychange`, `focus`, `online`) and reads `navigator.onLine`.
 * React Native passes its own, built on `AppState` (and NetInfo for `isOnline`).
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

/** The page's resume source, or `undefined` outside a browser. */
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
      const onEvent = () => document.visibilityState !== 'hidden' && resume();
      for (const [target, event] of sources) target.addEventListener!(event, onEvent);
      return () => {
        for (const [target, event] of sources) target.removeEventListener!(event, onEvent);
      };
    },
    isOnline: () => page.navigator?.onLine !== false,
  };
}
