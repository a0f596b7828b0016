import { AuthRequestError } from '../errors/AuthRequestError';

/**
 * The failure of a read of the token store, in the store's own words, for the app and for the operation that met
 * it: at start, and in a shared store before a refresh. A failure already told as the store's passes as it is.
 * @internal
 */
export function storeReadError(cause: unknown): AuthRequestError {
  if (AuthRequestError.is(cause) && cause.operation === 'store') return cause;
  const words = (cause as { message?: unknown } | undefined)?.message;
  const said = typeof words === 'string' && words ? `: ${words}` : '.';
  return new AuthRequestError(`The token store could not be read${said}`, 'store', undefined, cause);
}
