import { type ReactElement, useEffect, useId, useMemo, useRef, useState } from 'react';
import { systemClock, type TokenAuth } from '../index';
import { getTokenAuthInternals, type Timeline } from '../internal';
import { DEVTOOLS_CSS, ROOT_CLASS } from './devtoolsStyles';
import { SessionNow } from './SessionNow';
import { SessionTimeline } from './SessionTimeline';
import { useTimeline } from './useTimeline';

/** Props of `TokenAuthDevtools`. */
export interface TokenAuthDevtoolsProps {
  /** The session to show, from `createTokenAuth`. */
  auth: TokenAuth;
  /** Whether the panel starts open. @defaultValue `false` */
  initialIsOpen?: boolean;
  /** The corner of the page the toggle and the panel sit in. @defaultValue `'bottom-right'` */
  position?: 'bottom-right' | 'bottom-left' | 'top-right' | 'top-left';
}

/** While `open`, Escape anywhere in the page calls `close`. */
function useEscape(open: boolean, close: () => void) {
  const latest = useRef(close);
  useEffect(() => {
    latest.current = close;
  });
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') latest.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);
}

interface RegionProps {
  readonly id: string;
  readonly auth: TokenAuth;
  readonly timeline: Timeline | null;
}

function DevtoolsRegion({ id, auth, timeline }: RegionProps) {
  const clock = useMemo(() => getTokenAuthInternals(auth)?.clock ?? systemClock, [auth]);
  return (
    <section id={id} className="tap-panel" role="region" aria-label="Token auth devtools">
      <h2>Token auth</h2>
      <h3>Now</h3>
      <SessionNow auth={auth} clock={clock} />
      <h3>Timeline</h3>
      {timeline && <SessionTimeline timeline={timeline} />}
    </section>
  );
}

/**
 * The token auth devtools, always: a toggle in a corner of the page and a panel with the session now and its
 * timeline. `TokenAuthDevtools` from `apollo-link-token-pair/devtools` is this in development and nothing in
 * production.
 */
export function TokenAuthDevtoolsPanel({
  auth,
  initialIsOpen = false,
  position = 'bottom-right',
}: TokenAuthDevtoolsProps): ReactElement | null {
  const [open, setOpen] = useState(initialIsOpen);
  const toggle = useRef<HTMLButtonElement>(null);
  // Kept while the panel is closed, so that a cleared timeline stays cleared and no event is missed.
  const timeline = useTimeline(auth);
  const id = useId();
  useEscape(open, () => {
    setOpen(false);
    toggle.current?.focus();
  });
  return (
    <div className={`${ROOT_CLASS} tap-${position}`}>
      <style>{DEVTOOLS_CSS}</style>
      <button
        ref={toggle}
        type="button"
        className="tap-toggle"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={open ? 'Close token auth devtools' : 'Open token auth devtools'}
        onClick={() => setOpen((was) => !was)}
      >
        Auth
      </button>
      {open && <DevtoolsRegion id={id} auth={auth} timeline={timeline} />}
    </div>
  );
}
