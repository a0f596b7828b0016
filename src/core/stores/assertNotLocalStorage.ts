/**
 * Throws `message` when `storage` is the browser's `localStorage`, where the spec forbids keeping the refresh
 * token: any script on the page can read it, and it outlives the session. Each caller says what to do instead
 * with the options it has.
 */
export function assertNotLocalStorage(storage: unknown, message: string): void {
  let local: unknown;
  try {
    local = globalThis.localStorage;
  } catch {
    // Reading localStorage throws where storage is blocked: then it cannot be the one handed in.
  }
  if (local !== undefined && storage === local) {
    throw new Error(message);
  }
}
