import type { OperationRecord } from './Journal.ts';

/** What a dropped operation records: its page was replaced (a reload, a close) before it could settle. */
export const PAGE_GONE = 'page gone before it settled';

/**
 * The workload's operations that started and have not settled, by tab and page load. A reload or a close replaces
 * a tab's page: its operations cannot settle, and neither can one that the old page reports after the soak began
 * to replace it. Seed 3, 1740.7 s: nextjs#1 started an operation 0.1 s into its reload, after its pending ones had
 * been dropped, and the run counted it as never settled.
 */
export class PendingOperations {
  private readonly open = new Map<string, OperationRecord>();
  /** Each tab's page load, as its latest report names it. */
  private readonly current = new Map<string, string>();
  /** The page loads a reload or a close replaced, as `tab:load`. */
  private readonly gone = new Set<string>();

  /** A report of `tab` from page load `load`: that page is the tab's now, unless it was replaced already. */
  seen(tab: string, load: string): void {
    if (!this.gone.has(`${tab}:${load}`)) this.current.set(tab, load);
  }

  /** An operation started; one reported by a page already replaced is dropped at once. */
  started(load: string, id: unknown, op: OperationRecord): void {
    if (this.gone.has(`${op.tab}:${load}`)) op.error = PAGE_GONE;
    else this.open.set(`${op.tab}:${load}:${id}`, op);
  }

  /** The operation that settled, if it is still pending. */
  settled(tab: string, load: string, id: unknown): OperationRecord | undefined {
    const key = `${tab}:${load}:${id}`;
    const op = this.open.get(key);
    this.open.delete(key);
    return op;
  }

  /** The tab's page is being replaced: its pending operations, and any it reports from now on, cannot settle. */
  forget(tab: string): void {
    const load = this.current.get(tab);
    if (load !== undefined) this.gone.add(`${tab}:${load}`);
    for (const [key, op] of this.open) {
      if (op.tab !== tab) continue;
      op.error = PAGE_GONE;
      this.open.delete(key);
    }
  }

  /** Operations that started and never settled, in pages still open. */
  unsettled(): OperationRecord[] {
    return [...this.open.values()];
  }
}
