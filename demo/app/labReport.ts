import { useSyncExternalStore } from 'react';
import type { LabReport } from '../server/LabReport.ts';

let report: LabReport | null = null;
let reachable = true;
let snapshot: { report: LabReport | null; reachable: boolean } = { report, reachable };
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

/** Loads `GET /control/lab` now; every card that shows it updates. */
export async function loadLabReport(): Promise<void> {
  try {
    const response = await fetch('/control/lab');
    report = (await response.json()) as LabReport;
    reachable = true;
  } catch {
    reachable = false;
  }
  snapshot = { report, reachable };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    void loadLabReport();
    timer = setInterval(loadLabReport, 500);
  }
  return () => {
    listeners.delete(listener);
    if (!listeners.size) timer = void clearInterval(timer);
  };
}

/** What the demo server's lab reports (counters, sessions, faults), polled every 500 ms while shown. */
export function useLabReport() {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
}
