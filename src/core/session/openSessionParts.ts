import { openStore, type StoreHost, type StoreSeam } from '../stores/openStore';
import { createAuthCalls, type AuthCalls } from './createAuthCalls';
import { createReporter, type Reporter } from './createReporter';
import { createSessionChecks, type SessionChecks } from './createSessionChecks';
import { createSessionState, type SessionState } from './createSessionState';
import { createWaits, type Waits } from './createWaits';
import { readSessionOptions, type SessionConfig } from './readSessionOptions';
import { LOADING } from './SessionRecord';
import { getSessionMode, type SessionMode } from './sessionMode';
import type { TokenAuthOptions } from './TokenAuthOptions';

/** The parts a session is built of, each made once from its options. */
export interface SessionParts {
  readonly config: SessionConfig;
  readonly reporter: Reporter;
  /** Aborted by dispose(): every call and wait of the session ends with it. */
  readonly abort: AbortController;
  readonly signal: AbortSignal;
  readonly seam: StoreSeam;
  readonly mode: SessionMode;
  readonly calls: AuthCalls;
  readonly waits: Waits;
  readonly checks: SessionChecks;
  readonly state: SessionState;
}

/**
 * Reads `options` once, with their defaults, and opens the parts of a session on them; `adopt` is how the session
 * follows a pair that a session sharing its store stored.
 */
export function openSessionParts(options: TokenAuthOptions, adopt: StoreHost['adopt']): SessionParts {
  const config = readSessionOptions(options);
  const { clock, transport } = config;
  const reporter = createReporter(config.onError, clock);
  const { report } = reporter;
  const abort = new AbortController();
  const { signal } = abort;
  const seam = openStore(config.store, { clock, timeout: config.storeTimeout, report, adopt, emit: reporter.emit });
  return {
    config,
    reporter,
    abort,
    signal,
    seam,
    mode: getSessionMode(transport, seam),
    calls: createAuthCalls({ clock, transport, timeout: config.refreshTimeout, signal, report }),
    waits: createWaits(clock, signal),
    checks: createSessionChecks(),
    state: createSessionState(LOADING, reporter),
  };
}
