import { useState } from 'react';

/**
 * A form's action: `busy` while it runs, and what it threw (`failure`, `undefined` when none), kept for the form
 * to show in a person's words. The action's result, or `undefined` when it threw.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  async function run<T>(action: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setFailure(undefined);
    try {
      return await action();
    } catch (error) {
      setFailure(error ?? new Error('failed'));
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { busy, failure, run, forget: () => setFailure(undefined) };
}
