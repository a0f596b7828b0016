/**
 * The claims of a JWT's payload, decoded and not verified: only the server that signed the token can verify it.
 *
 * @throws An `Error` whose message starts "Invalid token specified" when the token has no payload part, or that
 * part is not base64url-encoded UTF-8 JSON.
 */
export function decodeJwt<T = Record<string, unknown>>(token: string): T {
  try {
    const binary = atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'));
    // UTF-8 bytes as %XX escapes, which decodeURIComponent reads as UTF-8 (TextDecoder is missing on some
    // React Native engines); a literal % is escaped too.
    return JSON.parse(decodeURIComponent(binary.replace(/[%\x80-\xff]/g, (char) => `%${char.charCodeAt(0).toString(16)}`)));
  } catch (cause) {
    throw new Error('Invalid token specified: its payload is not base64url JSON', { cause });
  }
}
