import type { FaultTargets } from './runFault.ts';
import type { PlannedFault } from './planFaults.ts';

/** What a sleeping browser holds in the faults' `busy` set: every tab, so no fault of a tab starts meanwhile. */
export const ASLEEP = 'browser asleep';

/**
 * What it holds from the lid closing to the wake, not while it waits for tabs to settle first: a fault in
 * progress ends after it (`untilAwake` in runFault.ts).
 */
export const LID_CLOSED = 'lid closed';

/** How long a sleep waits for the tab faults in progress to end before it starts, in ms. */
const SETTLE = 90_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A laptop's sleep: every tab of the browser frozen at once (no timer, no event, no answer handled) and off the
 * network, and the API's WebSockets cut, as a server cuts peers that stop answering its pings; the page's clock
 * moves on meanwhile, as the wall clock does. Then the wake: the tabs thaw, the network comes back (`online`),
 * and the windows show again (the browser's `visibilitychange` and `focus`). It first waits for the faults that hold a tab to
 * end, and holds every tab itself ({@link ASLEEP}) until the wake.
 */
export async function sleepBrowser(fault: PlannedFault, targets: FaultTargets, busy: Set<string>): Promise<void> {
  const { journal, apps } = targets;
  busy.add(ASLEEP);
  try {
    // A tab (`nextjs#2`), a person signing in or out, a tab frozen with its refresh: the system's faults go on.
    const held = () => [...busy].filter((each) => /#| person$| refreshing$/.test(each));
    for (const until = Date.now() + SETTLE; held().length > 0 && Date.now() < until;) await sleep(200);
    const tabs = [...apps.nextjs.tabs, ...apps['vite-spa'].tabs].filter((tab) => !tab.closed);
    const record = journal.startFault('sleep', `browser (${tabs.length} tabs)`);
    busy.add(LID_CLOSED);
    try {
      // The lid closes: every window is hidden first.
      await Promise.all(tabs.map((tab) => tab.setHidden(true)));
      await Promise.all(tabs.map((tab) => tab.setFrozen(true)));
      await Promise.all(tabs.map((tab) => tab.setOffline(true)));
      const cut = targets.api.cutWebSockets();
      await sleep(fault.duration);
      record.wake = journal.now();
      await Promise.all(tabs.map((tab) => tab.setFrozen(false)));
      await Promise.all(tabs.map((tab) => tab.setOffline(false)));
      await Promise.all(tabs.map((tab) => tab.setHidden(false)));
      journal.endFault(record, `${tabs.length} tabs frozen and offline, ${cut} WebSocket(s) cut`);
    } catch (error) {
      journal.endFault(record, `failed: ${(error as Error).message.split('\n')[0]}`);
    } finally {
      busy.delete(LID_CLOSED);
    }
  } finally {
    busy.delete(ASLEEP);
  }
}
