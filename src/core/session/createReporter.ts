/** Where the session's failures and the app's callbacks go. See {@link createReporter}. */
export interface Reporter {
  /** Hands a failure nobody awaits to `onError`. */
  report(error: unknown): void;
  /** Calls an app callback; what it throws is reported, never thrown on. */
  tell<T>(callback: ((value: T) => void) | undefined, value: T): void;
}

/**
 * Creates the {@link Reporter} of a session with the app's `onError`.
 *
 * @remarks
 * The app's callbacks run through `tell`: one that throws must not stop a rotation half way, which would leave
 * the new pair unused and the spent refresh token in place.
 */
export function createReporter(onError: ((error: unknown) => void) | undefined): Reporter {
  const report = (error: unknown) => {
    try {
      onError?.(error);
    } catch {
      // onError itself failed: there is nowhere left to report to.
    }
  };
  return {
    report,
    tell(callback, value) {
      try {
        callback?.(value);
      } catch (error) {
        report(error);
      }
    },
  };
}
