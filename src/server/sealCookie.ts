import { fromBase64Url, toBase64Url } from '../shared/base64url';

/** Seals and opens the handler's cookie. See {@link createCookieSealer}. */
export interface CookieSealer {
  /** Encrypts and authenticates `value` as a cookie-safe string. */
  seal(value: unknown): Promise<string>;
  /** The value sealed in `text`, or `undefined` when it was not sealed with this secret or was altered. */
  open<T>(text: string): Promise<T | undefined>;
}

const VERSION = 'v1';
const encoder = new TextEncoder();

/**
 * Creates the sealer of the handler's cookie: AES-256-GCM from the platform's WebCrypto, with a key derived
 * from `secret` by HKDF-SHA-256. GCM authenticates as it encrypts, so a cookie that was altered, or sealed with
 * another secret, does not open; `purpose` is bound in as additional data, so a value sealed for one purpose
 * does not open as another.
 *
 * @throws An `Error` when `secret` has fewer than 32 bytes.
 */
export function createCookieSealer(secret: string | Uint8Array, purpose: string): CookieSealer {
  const raw = typeof secret === 'string' ? encoder.encode(secret) : secret;
  if (raw.byteLength < 32) {
    throw new Error('The token handler needs a secret of at least 32 bytes: generate one with `openssl rand -base64 32`.');
  }
  const additionalData = encoder.encode(`${VERSION}:${purpose}`);
  const key = crypto.subtle
    .importKey('raw', raw as Uint8Array<ArrayBuffer>, 'HKDF', false, ['deriveKey'])
    .then((material) =>
      crypto.subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode('apollo-link-token-pair cookie') },
        material,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt'],
      ),
    );
  return {
    async seal(value) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData },
        await key,
        encoder.encode(JSON.stringify(value)),
      );
      return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
    },
    async open<T>(text: string) {
      const [version, iv, data] = text.split('.');
      if (version !== VERSION || !iv || !data) return undefined;
      try {
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData },
          await key,
          fromBase64Url(data),
        );
        return JSON.parse(new TextDecoder().decode(plain)) as T;
      } catch {
        return undefined;
      }
    },
  };
}
