import { fromBase64Url, toBase64Url } from '../shared/base64url';

const HEADER = toBase64Url(new TextEncoder().encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));

/**
 * A key for {@link signHs256} and {@link verifyHs256}, from a raw secret.
 *
 * @remarks
 * HS256 through WebCrypto, so a test server runs unchanged in Node and in a browser (under MSW).
 */
export function importHs256Key(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

/** A compact JWT of `claims`, signed with `key`. */
export async function signHs256(key: CryptoKey, claims: Record<string, unknown>): Promise<string> {
  const payload = toBase64Url(new TextEncoder().encode(JSON.stringify(claims)));
  const signature = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${HEADER}.${payload}`));
  return `${HEADER}.${payload}.${toBase64Url(new Uint8Array(signature))}`;
}

/**
 * The claims of `token` when `key` signed it with HS256, `'invalid'` otherwise (shape, header, signature, a payload
 * that is not an object). Its `exp` and the rest are the caller's to judge.
 */
export async function verifyHs256(key: CryptoKey, token: string): Promise<Record<string, unknown> | 'invalid'> {
  const [header, payload, signature, ...rest] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined || rest.length > 0) return 'invalid';
  // Only the base64url alphabet: `atob` would take `+` and `/` too, and a token spelled two ways is not this one.
  if (/[^\w.-]/.test(token)) return 'invalid';
  try {
    if ((JSON.parse(decode(header)) as { alg?: unknown }).alg !== 'HS256') return 'invalid';
    const signed = new TextEncoder().encode(`${header}.${payload}`);
    if (!(await crypto.subtle.verify('HMAC', key, fromBase64Url(signature), signed))) return 'invalid';
    const claims = JSON.parse(decode(payload)) as unknown;
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : 'invalid';
  } catch {
    return 'invalid';
  }
}

/**
 * Whether a token whose `exp` is `exp` is dead at `nowMs`: as jose judges it, from the second of its `exp` on, and
 * one without `exp` never. `'invalid'` for an `exp` that is not a number.
 */
export function isExpired(exp: unknown, nowMs: number): boolean | 'invalid' {
  if (exp === undefined) return false;
  if (typeof exp !== 'number') return 'invalid';
  return exp <= Math.floor(nowMs / 1000);
}

function decode(text: string): string {
  return new TextDecoder().decode(fromBase64Url(text));
}
