/** The most a token handler route reads of a body, in bytes: a login is a few hundred. */
export const BODY_LIMIT = 16_384;

/** The refusal of a body larger than {@link BODY_LIMIT}: 413 `PAYLOAD_TOO_LARGE`. */
export const PAYLOAD_TOO_LARGE = {
  code: 'PAYLOAD_TOO_LARGE',
  message: `The body must be at most ${BODY_LIMIT} bytes.`,
} as const;

/**
 * Reads `request`'s body as text, at most `limit` bytes: `undefined` as soon as it is larger (by its
 * `Content-Length`, or once that many bytes have come), without reading the rest.
 */
export async function readBody(request: Request, limit = BODY_LIMIT): Promise<string | undefined> {
  if (Number(request.headers.get('content-length')) > limit) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: BlobPart[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return new Blob(chunks).text();
}
