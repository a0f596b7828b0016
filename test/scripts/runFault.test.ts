import { describe, expect, it } from 'vitest';
import type { AppTabs } from '../../scripts/soak/AppTabs';
import { Journal } from '../../scripts/soak/Journal';
import { runFault, type FaultTargets } from '../../scripts/soak/runFault';

// A tab of the soak as a person sees it: signed out, with the sign-in form and no Sign out button.
function signedOutTab() {
  const tab = {
    name: 'nextjs#3',
    frozen: false,
    closed: false,
    shows: 'signed-out',
    signIns: [] as string[],
    screen: async () => tab.shows,
    signOut: async () => {
      throw new Error('locator.click: Timeout 10000ms exceeded.');
    },
    signIn: async (email: string) => {
      tab.signIns.push(email);
      tab.shows = email;
    },
  };
  return tab;
}

// Found by the soak (seed 1, 30 min): a handler killed with its refresh on the wire ended the Next.js session
// (SESSION_LOST, at 206 s). Every later sign-out-in and switch-user of that app failed on the missing Sign out
// button, and it stayed signed out for the remaining 26 minutes, sending nothing.
describe("the soak's sign-out-in and switch-user, in a tab a fault left signed out", () => {
  for (const kind of ['sign-out-in', 'switch-user'] as const) {
    it(`${kind}: signs the person in again, as a person would, with no sign-out to click`, async () => {
      const tab = signedOutTab();
      const owner = { email: 'owner@demo.test', password: 'pw' };
      const admin = { email: 'admin@demo.test', password: 'pw' };
      const app = { app: 'nextjs', tabs: [tab], people: [owner, admin], person: owner } as unknown as AppTabs;
      const journal = new Journal();
      await runFault({ at: 0, kind, app: 'nextjs', tab: 1, duration: 0 }, {
        journal,
        apps: { nextjs: app },
      } as unknown as FaultTargets);

      const email = kind === 'switch-user' ? admin.email : owner.email;
      expect(tab.signIns).toEqual([email]);
      expect(journal.faults[0]?.note).toBe(`as ${email}`);
    });
  }
});
