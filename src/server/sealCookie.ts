import { fromBase64Url, toBase64Url } from '../shared/base64url';

/** Seals and opens the handler's cookie. See {@link createCookieSealer}. */
export interface CookieSealer {
  /** Encrypts and authenticates `value` as a cookie-safe string. */
  seal(value: unknown): Promise<string>;
  /**
   * The value sealed in `text` and whether it was sealed with an older secret of the ring (`stale`: seal it
   * again); `undefined` when none of the secrets sealed it, or it was altered.
   */
  open<T>(text: string): Promise<{ value: T; stale: boolean } | undefined>;
}

/** One secret, or a ring of them: the first seals, every one opens. */
export type Secrets = string | Uint8Array | readonly (string | Uint8Array)[];

const VERSION = 'v1';
const encoder = new TextEncoder();

/**
 * Creates the sealer of the handler's cookie: AES-256-GCM from the platform's WebCrypto, with a key derived
 * from each secret by HKDF-SHA-256. GCM authenticates as it encrypts, so a cookie that was altered, or sealed with
 * a secret not in the ring, does not open; `purpose` is bound in as additional data, so a value sealed for one
 * purpose does not open as another. The first secret seals; every one opens, so secrets rotate without signing
 * anybody out.
 *
 * @throws An `Error`, at once, when `secrets` is not a secret of at least 32 bytes or a non-empty list of them.
 */
export function createCookieSealer(secrets: Secrets, purpose: string): CookieSealer {
  const ring = (Array.isArray(secrets) ? secrets : [secrets]) as readonly unknown[];
  if (!ring.length) throw new Error("The token handler's `secret` list is empty: give it at least one secret.");
  const additionalData = encoder.encode(`${VERSION}:${purpose}`);
  const keys = ring.map((secret, index) => keyOf(secret, index));
  return {
    async seal(value) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData },
        await keys[0]!,
        encoder.encode(JSON.stringify(value)),
      );
      return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
    },
    async open<T>(text: string) {
      const [version, iv, data] = text.split('.');
      if (version !== VERSION || !iv || !data) return undefined;
      for (const [index, key] of keys.entries()) {
        try {
          const plain = await crypto.subtle.decrypt(
            { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData },
            await key,
            fromBase64Url(data),
          );
          return { value: JSON.parse(new TextDecoder().decode(plain)) as T, stale: index > 0 };
        } catch {
          // Not this secret's: the next one may open it.
        }
      }
      return undefined;
    },
  };
}

function keyOf(secret: unknown, index: number): Promise<CryptoKey> {
  const raw = typeof secret === 'string' ? encoder.encode(secret) : secret;
  if (!(raw instanceof Uint8Array) || raw.byteLength < 32) {
    throw new Error(
      `The token handler's \`secret\`${index ? ` number ${index + 1}` : ''} must be a string or Uint8Array of at least 32 bytes (or a list of them, the newest first): generate one with \`openssl rand -base64 32\`.`,
    );
  }
  return crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'HKDF', false, ['deriveKey']).then((material) =>
    crypto.subtle.deriveKey(
      {
        name: 'HKDF',
        hash: 'SHA-256',
        salt: new Uint8Array(0),
        info: encoder.encode('apollo-link-token-pair cookie'),
      },
      material,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    ),
  );
}
