import { useState, useSyncExternalStore } from 'react';
import type { Timeline, TimelineEntry, TimelineKind } from '../internal';
import { formatTime } from './formatTime';

/** Props of {@link SessionTimeline}. */
export interface SessionTimelineProps {
  /** The session's timeline, from `createTimeline(auth)`. */
  readonly timeline: Timeline;
}

const ALL = 'all';

function Entry({ entry }: { entry: TimelineEntry }) {
  const meta = [entry.ms === undefined ? '' : `${entry.ms} ms`, entry.count > 1 ? `×${entry.count}` : '']
    .filter(Boolean)
    .join(' · ');
  return (
    <li>
      <time dateTime={new Date(entry.at).toISOString()}>{formatTime(entry.at)}</time>
      <span>
        {entry.title}
        {meta && <span className="tap-meta"> ({meta})</span>}
      </span>
      {entry.detail && <span className="tap-detail">{entry.detail}</span>}
    </li>
  );
}

/** The kinds the entries hold, in the order they first appear, and the one chosen (kept while cleared). */
function kindsOf(entries: readonly TimelineEntry[], chosen: string): string[] {
  const kinds = new Set<string>(entries.map((entry) => entry.kind));
  if (chosen !== ALL) kinds.add(chosen);
  return [...kinds].sort();
}

/**
 * The session's timeline, newest first: each entry's time, title, the words of its failure, its duration, and how
 * many operations a line stands for; a filter by kind and a button that clears it.
 */
export function SessionTimeline({ timeline }: SessionTimelineProps) {
  const entries = useSyncExternalStore(timeline.subscribe, timeline.getSnapshot, timeline.getSnapshot);
  const [kind, setKind] = useState<TimelineKind | typeof ALL>(ALL);
  const shown = kind === ALL ? entries : entries.filter((entry) => entry.kind === kind);
  return (
    <>
      <div className="tap-tools">
        <select
          aria-label="Filter the timeline"
          value={kind}
          onChange={(event) => setKind(event.target.value as TimelineKind | typeof ALL)}
        >
          <option value={ALL}>All</option>
          {kindsOf(entries, kind).map((each) => (
            <option key={each} value={each}>
              {each}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => timeline.clear()}>
          Clear timeline
        </button>
      </div>
      {shown.length === 0 && <p className="tap-empty">Nothing yet.</p>}
      <ol aria-label="Session timeline">
        {shown.map((entry) => (
          <Entry key={entry.id} entry={entry} />
        ))}
      </ol>
    </>
  );
}
