import { describe, expect, it } from 'vitest';
import type { OperationRecord } from '../../scripts/soak/Journal';
import { PAGE_GONE, PendingOperations } from '../../scripts/soak/PendingOperations';

const op = (id: number, tab = 'nextjs#1'): OperationRecord => ({ tab, app: 'nextjs', id, start: id * 1000 });

describe("the soak's pending operations", () => {
  it('settles an operation of the page it came from, and keeps one that never settles', () => {
    const pending = new PendingOperations();
    const [a, b] = [op(1), op(2)];
    pending.seen('nextjs#1', 'L1');
    pending.started('L1', 1, a);
    pending.started('L1', 2, b);
    expect(pending.settled('nextjs#1', 'L1', 1)).toBe(a);
    expect(pending.settled('nextjs#1', 'L1', 1)).toBeUndefined();
    expect(pending.unsettled()).toEqual([b]);
  });

  it("drops a reloaded page's operations, and one it reports after the reload began (seed 3, 1740.7 s)", () => {
    const pending = new PendingOperations();
    const [before, late, next, other] = [op(1), op(2), op(3), op(4, 'nextjs#2')];
    pending.seen('nextjs#1', 'L1');
    pending.started('L1', 1, before);
    pending.seen('nextjs#2', 'M1');
    pending.started('M1', 1, other);
    pending.forget('nextjs#1');
    // The old page, still running for a moment, reports another operation; a straggler report changes nothing.
    pending.seen('nextjs#1', 'L1');
    pending.started('L1', 2, late);
    // The new page's operations count as ever.
    pending.seen('nextjs#1', 'L2');
    pending.started('L2', 1, next);
    expect([before.error, late.error, next.error, other.error]).toEqual([PAGE_GONE, PAGE_GONE, undefined, undefined]);
    expect(pending.unsettled()).toEqual([other, next]);
    // A second reload drops the new page's, not the first page's again.
    pending.forget('nextjs#1');
    expect(next.error).toBe(PAGE_GONE);
    expect(pending.unsettled()).toEqual([other]);
  });
});
