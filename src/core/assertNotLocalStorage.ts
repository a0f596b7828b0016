/**
 * Throws when `storage` is the browser's `localStorage`, where the spec forbids keeping the refresh token: any
 * script on the page can read it, and it outlives the session.
 */
export function assertNotLocalStorage(storage: unknown, hint = ''): void {
  let local: unknown;
  try {
    local = globalThis.localStorage;
  } catch {
    // Reading localStorage throws where storage is blocked: then it cannot be the one handed in.
  }
  if (local !== undefined && storage === local) {
    throw new Error(
      `localStorage must not hold the refresh token, the spec forbids it. Use memory, createBroadcastTokenStore() or secure storage${hint}.`,
    );
  }
}
