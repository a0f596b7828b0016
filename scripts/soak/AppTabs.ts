import type { BrowserContext, Page, Request } from 'playwright-core';
import type { AppName, Journal, OperationRecord } from './Journal.ts';
import type { ProbeConfig } from './pageProbe.ts';
import { Tab } from './Tab.ts';
import { PendingOperations } from './PendingOperations.ts';
import type { UserBrowser } from './UserBrowser.ts';

/** A person of the soak: who signs in, and with what. */
export interface Person {
  readonly email: string;
  readonly password: string;
}

/**
 * One app in one browser context (its cookies, its BroadcastChannel): its tabs, the person signed in now, and the
 * journal of what each of its pages reported (screens, states, operations, errors).
 */
export class AppTabs {
  readonly tabs: Tab[] = [];
  context!: BrowserContext;
  /** The person the app should show: the last one signed in. */
  person: Person;
  private readonly pages = new WeakMap<Page, Tab>();
  private readonly pending = new PendingOperations();

  constructor(
    readonly app: AppName,
    private readonly url: string,
    private readonly status: string,
    private readonly query: unknown,
    private readonly mutation: unknown,
    /** The club the tabs' mutations rename: one every person of the app may see. */
    private readonly club: string,
    /** The tab (from 1) that shows the `ticker` subscription (`&ticker` in its URL), if any. */
    private readonly tickerTab: number | undefined,
    readonly people: readonly Person[],
    private readonly seed: number,
    private readonly journal: Journal,
  ) {
    this.person = people[0]!;
  }

  /**
   * Opens the first tab in `user`, the app's own browser (a user's browser has one context: its cookies and its
   * BroadcastChannel are the app's), signs the first person in there, then opens the other tabs.
   */
  async start(user: UserBrowser, count: number): Promise<void> {
    this.context = user.context;
    await this.context.exposeBinding('__soakReport', ({ page }, event: Record<string, unknown>) => {
      const tab = this.pages.get(page);
      if (tab) this.onReport(tab, event);
    });
    this.context.on('console', (message) => {
      const tab = this.pages.get(message.page()!);
      if (message.type() === 'error') this.journal.note('console-error', message.text(), tab?.name, this.app);
      // The session's own words (`?log`): each refresh's trigger and outcome, and why a session ended.
      if (message.type() === 'debug' && message.text().startsWith('apollo-link-token-pair:')) {
        this.journal.note('auth', message.text().slice('apollo-link-token-pair: '.length), tab?.name, this.app);
      }
    });
    // Which request failed and how (a console error names neither), and where a slow one spent its time.
    this.context.on('requestfailed', (request) => {
      const tab = this.pages.get(request.frame().page());
      this.journal.note(
        'request-failed',
        `${request.method()} ${request.url()}: ${request.failure()?.errorText} ${phases(request.timing())}`,
        tab?.name,
        this.app,
      );
    });
    this.context.on('requestfinished', (request) => {
      const timing = request.timing();
      if (!(timing.responseEnd > SLOW_REQUEST)) return;
      const tab = this.pages.get(request.frame().page());
      this.journal.note(
        'slow-request',
        `${request.method()} ${request.url()} took ${Math.round(timing.responseEnd)} ms ${phases(timing)}`,
        tab?.name,
        this.app,
      );
    });
    this.context.on('weberror', (error) => {
      const tab = this.pages.get(error.page()!);
      this.journal.note('page-error', String(error.error()?.stack ?? error.error()), tab?.name, this.app);
    });
    for (let index = 1; index <= count; index++) {
      const name = `${this.app}#${index}`;
      const ticker = index === this.tickerTab;
      const config: ProbeConfig = {
        seed: this.seed * 1000 + index,
        status: this.status,
        query: this.query,
        mutation: this.mutation,
        club: this.club,
        tab: name,
        ticker,
      };
      const tab = new Tab(
        this.app,
        name,
        user,
        ticker ? `${this.url}&ticker` : this.url,
        config,
        this.pages,
        this.journal,
      );
      this.tabs.push(tab);
      this.journal.tabs.push({ tab: tab.name, app: this.app });
      await tab.open();
      if (index === 1) await tab.signIn(this.person.email, this.person.password);
    }
  }

  /**
   * The next tab to send a refresh (a `refreshToken` mutation, or a token handler's `/auth/refresh`) that no
   * fault holds (`busy`), within `timeout` ms; `undefined` if none does.
   */
  nextRefresher(busy: (tab: Tab) => boolean, timeout: number): Promise<Tab | undefined> {
    return new Promise((resolve) => {
      const done = (tab: Tab | undefined) => {
        clearTimeout(timer);
        this.context.off('request', look);
        resolve(tab);
      };
      const look = (request: Request) => {
        if (request.method() !== 'POST') return;
        if (!(
          new URL(request.url()).pathname.endsWith('/auth/refresh') ||
          /refreshToken\s*\(/.test(request.postData() ?? '')
        ))
          return;
        const tab = this.pages.get(request.frame().page());
        if (tab && !busy(tab)) done(tab);
      };
      const timer = setTimeout(() => done(undefined), timeout);
      this.context.on('request', look);
    });
  }

  /** Ops that started but never settled, in tabs still open. */
  unsettled(): OperationRecord[] {
    return this.pending.unsettled();
  }

  /** Drops the pending operations of a tab whose page is going (closed or reloaded): they cannot settle. */
  forgetPending(tab: Tab): void {
    this.pending.forget(tab.name);
  }

  private onReport(tab: Tab, event: Record<string, unknown>): void {
    const t = this.journal.at(event['at'] as number);
    const load = String(event['load']);
    this.pending.seen(tab.name, load);
    switch (event['type']) {
      case 'screen':
        this.journal.screens.push({ tab: tab.name, app: this.app, t, screen: event['screen'] as string });
        this.journal.note('screen', `${event['screen']} ("${event['text']}")`, tab.name, this.app, t);
        break;
      case 'state':
        this.journal.states.push({
          tab: tab.name,
          app: this.app,
          t,
          status: event['status'] as string,
          user: event['user'] as string | null,
          expiresAt: event['expiresAt'] as number | null,
          refreshAt: typeof event['refreshAt'] === 'number' ? this.journal.at(event['refreshAt']) : null,
          ended: event['ended'] as string | null,
          retry: event['retry'] as string | null,
          load,
        });
        this.journal.note(
          'state',
          JSON.stringify({ ...event, at: undefined, load: undefined, type: undefined }),
          tab.name,
          this.app,
          t,
        );
        break;
      case 'op-start': {
        const op: OperationRecord = {
          tab: tab.name,
          app: this.app,
          id: this.journal.operations.length + 1,
          start: t,
          ...(event['kind'] === 'mutation' && { kind: 'mutation' as const, name: event['name'] as string }),
        };
        this.journal.operations.push(op);
        this.pending.started(load, event['id'], op);
        break;
      }
      case 'refresh':
        this.journal.refreshes.push({
          tab: tab.name,
          app: this.app,
          t: this.journal.at(event['settled'] as number),
          asked: this.journal.at(event['asked'] as number),
          trigger: String(event['trigger']),
          outcome: String(event['outcome']),
        });
        break;
      case 'tick':
        this.journal.ticks.push({
          tab: tab.name,
          app: this.app,
          t,
          n: event['n'] as number,
          email: event['email'] as string,
          screen: event['screen'] as string,
        });
        break;
      case 'ticker':
        this.journal.note('ticker', String(event['text']), tab.name, this.app, t);
        break;
      case 'pageshow': {
        const persisted = event['persisted'] === true;
        this.journal.returns.push({ tab: tab.name, app: this.app, t, persisted });
        this.journal.note('pageshow', persisted ? 'from the back/forward cache' : 'loaded', tab.name, this.app, t);
        break;
      }
      case 'dead-token':
        this.journal.deadTokens.push({ tab: tab.name, app: this.app, t, late: event['late'] as number });
        this.journal.note('dead-token', `${event['url']}: ${event['late']} ms past its exp`, tab.name, this.app, t);
        break;
      case 'op-end': {
        const op = this.pending.settled(tab.name, load, event['id']);
        if (!op) break;
        Object.assign(op, { end: t, ok: event['ok'] as boolean, screen: event['screen'] as string });
        if (event['user']) op.user = event['user'] as string;
        if (event['error']) op.error = event['error'] as string;
        break;
      }
    }
  }
}

/** A request that took longer than this, in ms, is noted with its phases. */
const SLOW_REQUEST = 5000;

/** When a request reached each phase, in ms from its start (-1: not reached). */
function phases(timing: ReturnType<Request['timing']>): string {
  const at = (ms: number) => (ms < 0 ? '-' : String(Math.round(ms)));
  return `(connect ${at(timing.connectStart)}-${at(timing.connectEnd)}, sent ${at(timing.requestStart)}, first byte ${at(timing.responseStart)}, end ${at(timing.responseEnd)})`;
}
