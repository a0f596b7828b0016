import { useEffect, useState } from 'react';
import type { TokenAuth } from '../index';
import { createTimeline, type Timeline } from '../internal';

/**
 * The timeline of `auth` for as long as the component is mounted: created in an effect and stopped on cleanup,
 * `null` before the first effect. A new one replays the events the session kept, so a remount (StrictMode's
 * included) loses none of them.
 */
export function useTimeline(auth: TokenAuth): Timeline | null {
  const [timeline, setTimeline] = useState<Timeline | null>(null);
  useEffect(() => {
    const created = createTimeline(auth);
    setTimeline(created);
    return () => created.stop();
  }, [auth]);
  return timeline;
}
