const REFUSED = [4401, 4403];

/** Whether `event` is a close by which the server refused the connection's token: 4401 or 4403. */
export function isRefusal(event: unknown): boolean {
  return isCloseEvent(event) && REFUSED.includes(event.code);
}

function isCloseEvent(event: unknown): event is { code: number; reason: string } {
  return typeof event === 'object' && event !== null && 'code' in event && 'reason' in event;
}
