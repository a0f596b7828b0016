import { useAuth } from 'apollo-link-token-pair/react';
import { type ReactNode, useState, useSyncExternalStore } from 'react';
import type { EventLog } from './eventLog';
import { claimsOf, control, lab } from './lab';
import { loadLabReport, useLabReport } from './labReport';
import { useNow } from './Countdown';

/** One control: its buttons, and a line that says what should happen. */
function Control({ id, hint, children }: { id: string; hint: ReactNode; children: ReactNode }) {
  return (
    <div className="control" data-testid={`control-${id}`}>
      <div className="row">{children}</div>
      <p className="hint" data-testid={`hint-${id}`}>
        {hint}
      </p>
    </div>
  );
}

/**
 * The lab: a control for each hard case, for this session ("mine") or for every session ("all"), each with a
 * hint of what should happen next. The event log says what did.
 */
export function LabControls({ log }: { log: EventLog }) {
  const { auth } = useAuth();
  const { offline, skew } = useSyncExternalStore(lab.subscribe, lab.getSnapshot, lab.getSnapshot);
  const { report } = useLabReport();
  const now = Date.now();
  useNow(500);
  const [downSeconds, setDownSeconds] = useState('10');
  const [slowSeconds, setSlowSeconds] = useState('3');
  const [problem, setProblem] = useState('');
  const downLeft = report?.downUntil ? Math.ceil((report.downUntil - now) / 1000) : 0;
  const slow = (report?.refreshDelay ?? 0) > 0;
  const plain = !!report?.plainRefusals;

  // Runs a control, logged first so that what it causes follows it in the log; a refusal shows under the card too.
  async function run(text: string, action: () => Promise<unknown>) {
    setProblem('');
    log.add('lab', text);
    try {
      await action();
    } catch (error) {
      setProblem(`${text}: ${(error as Error).message}`);
      log.add('error', `${text}: ${(error as Error).message}`);
    }
    void loadLabReport();
  }

  // "Mine": the session of the access token this page holds.
  const mine = async (name: string) => control(name, { token: await auth.getAccessToken() });
  // What the server now says about this page's token, for the countdown to show at once.
  const say = (verdict: 'expired' | 'revoked') => lab.tell(verdict, auth.getState().user?.claims ?? {});

  async function presentSpent() {
    let answer = await mine('present-spent-refresh-token').catch((error: Error) => error);
    if (answer instanceof Error) {
      // A session that never refreshed has spent no refresh token: one refresh spends one.
      if (!/spent no refresh token/.test(answer.message)) throw answer;
      await auth.refresh();
      answer = await mine('present-spent-refresh-token');
    }
    lab.tell('reuse', claimsOf(await auth.getAccessToken()));
    log.add('lab', `Server: reuse detected (spent refresh token …${String(answer['presented'])}): session revoked`);
    // This page's next refresh is refused: ask for one now to see it.
    await auth.refresh().catch(() => {});
  }

  const seconds = (text: string, min: number, max: number) => {
    const value = Number(text);
    return Number.isInteger(value) && value >= min && value <= max ? value : undefined;
  };
  const down = seconds(downSeconds, 1, 300);
  const slowBy = seconds(slowSeconds, 1, 60);

  return (
    <div className="card lab-controls" data-testid="lab-controls">
      <h3>Break it on purpose</h3>
      <p className="hint">
        Each control provokes one hard case; the line under it says what should happen, the event log says what did.
      </p>

      <div className="controls">
        <Control
          id="expire"
          hint="The server answers TOKEN_EXPIRED for the access token: the countdown says so at once; the next query refreshes once and is replayed."
        >
          <button
            className="danger"
            data-testid="expire-mine"
            onClick={() =>
              run('Server: your access token expired now', async () => (await mine('expire-mine'), say('expired')))
            }
          >
            Expire mine
          </button>
          <button
            className="danger"
            data-testid="expire"
            onClick={() =>
              run(
                'Server: every access token expired now',
                async () => (await control('expire-access-tokens'), say('expired')),
              )
            }
          >
            Expire all
          </button>
        </Control>

        <Control
          id="revoke"
          hint="The server ends the session (yours, or everyone's on every device): the next query is refused, one refresh confirms it, and you are signed out."
        >
          <button
            className="danger"
            data-testid="revoke-mine"
            onClick={() => run('Server: your session revoked', async () => (await mine('revoke-mine'), say('revoked')))}
          >
            Revoke mine
          </button>
          <button
            className="danger"
            data-testid="revoke"
            onClick={() =>
              run('Server: every session revoked', async () => (await control('revoke-sessions'), say('revoked')))
            }
          >
            Revoke all
          </button>
        </Control>

        <Control
          id="reuse"
          hint="A refresh token this session already spent is presented again, as a thief would: the server detects the reuse and revokes the session; this page's next refresh is refused and you are signed out."
        >
          <button
            className="danger"
            data-testid="present-spent"
            onClick={() => run('Lab: a refresh token this session spent is presented again', presentSpent)}
          >
            Present a spent refresh token
          </button>
        </Control>

        <Control
          id="down"
          hint={
            downLeft > 0
              ? `Down: every request gets HTTP 503 for ${downLeft} s more. A refresh fails with "HTTP 503" (not "could not reach"), the banner says reconnecting, and you stay signed in.`
              : 'Every request gets HTTP 503 for that long. A refresh fails with "HTTP 503", the banner says reconnecting, you stay signed in; a retry after it gets through.'
          }
        >
          <label>
            Seconds
            <input
              type="number"
              min={1}
              max={300}
              value={downSeconds}
              onChange={(e) => setDownSeconds(e.target.value)}
              data-testid="down-seconds"
            />
          </label>
          {downLeft > 0 ? (
            <button
              className="secondary"
              data-testid="server-up"
              onClick={() => run('Server: back up', () => control('down', { body: { seconds: 0 } }))}
            >
              Bring it back up
            </button>
          ) : (
            <button
              className="danger"
              data-testid="server-down"
              disabled={down === undefined}
              onClick={() =>
                run(`Server: down for ${down} s (HTTP 503)`, () => control('down', { body: { seconds: down } }))
              }
            >
              Server down for {down ?? '…'} s
            </button>
          )}
        </Control>

        <Control
          id="slow"
          hint={
            slow
              ? `Each refresh takes ${Math.round((report?.refreshDelay ?? 0) / 1000)} s on the server: queries that need a new token wait for that one refresh; none starts a second.`
              : 'Each refresh takes that long on the server: watch queries wait for the one refresh on the wire.'
          }
        >
          <label>
            Seconds
            <input
              type="number"
              min={1}
              max={60}
              value={slowSeconds}
              onChange={(e) => setSlowSeconds(e.target.value)}
              data-testid="slow-seconds"
            />
          </label>
          <button
            className="secondary"
            data-testid="slow-refresh"
            disabled={!slow && slowBy === undefined}
            aria-pressed={slow}
            onClick={() =>
              run(slow ? 'Server: refreshes fast again' : `Server: each refresh takes ${slowBy} s`, () =>
                control('slow-refresh', { body: { ms: slow ? 0 : slowBy! * 1000 } }),
              )
            }
          >
            {slow ? 'Fast refresh again' : `Slow refresh (${slowBy ?? '…'} s)`}
          </button>
        </Control>

        <Control
          id="plain"
          hint={
            plain
              ? 'A dead session\'s token is refused as "Not authenticated", with no code. Revoke mine, then fire: the package checks the session with one refresh (log: check → rejected) and signs you out at once.'
              : 'Refuse a dead session\'s token as most servers do, "Not authenticated" with no code, instead of UNAUTHENTICATED.'
          }
        >
          <button
            className="secondary"
            data-testid="plain-refusals"
            aria-pressed={plain}
            onClick={() =>
              run(
                plain
                  ? 'Server: refusals carry UNAUTHENTICATED again'
                  : 'Server: refusals are plain "Not authenticated", no code',
                () => control('plain-refusals', { body: { on: !plain } }),
              )
            }
          >
            {plain ? 'Coded refusals again' : 'Plain refusals, no code'}
          </button>
        </Control>

        <Control
          id="offline"
          hint={
            offline
              ? 'Offline: this page\'s requests fail as without a network; a refresh that fails waits for "online" instead of a timer. Come back online: it runs at once, logged as "coming back online".'
              : 'This page only loses its network (other tabs keep theirs): queries fail with "offline", a refresh that fails waits until you come back online.'
          }
        >
          <button
            className="secondary"
            data-testid="offline"
            aria-pressed={offline}
            onClick={() =>
              run(offline ? 'This page: back online' : 'This page: offline', async () => lab.setOffline(!offline))
            }
          >
            {offline ? 'Come back online' : 'Go offline (this page)'}
          </button>
        </Control>

        <Control
          id="skew"
          hint={
            skew
              ? `This page's clock is ${skew > 0 ? 'ahead' : 'behind'} by ${Math.abs(skew / 60_000)} min: the countdown still reads the token's real life, and no refresh runs early or late, because the package times a token from when it arrived.`
              : "Reloads this page with its clock 20 minutes off (the package's clock option): the countdown should still read the token's real life."
          }
        >
          <label>
            This page's clock
            <select
              value={String(skew / 60_000)}
              onChange={(e) => lab.setSkew(Number(e.target.value))}
              data-testid="clock-skew"
            >
              <option value="-20">20 min behind</option>
              <option value="0">right</option>
              <option value="20">20 min ahead</option>
            </select>
          </label>
        </Control>

        <Control
          id="tab"
          hint="The same session in a new tab (one cookie): a refresh, a login or a logout in one tab is followed by the other, and the server counts one refresh."
        >
          <a className="button secondary" href={location.href} target="_blank" rel="noopener" data-testid="open-tab">
            Open another tab
          </a>
        </Control>
      </div>

      {problem && (
        <p className="error" role="alert" data-testid="lab-error">
          {problem}
        </p>
      )}
    </div>
  );
}
