// A JWT (three base64url segments), or a run of 32 or more token characters with a digit in it (an opaque token).
const TOKENS = /\b[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}\b|\b(?=[\w-]*\d)[\w-]{32,}\b/g;

/** `text` with every token in it cut to its last 4 characters: `…x9Qz`. */
export function redact(text: string): string {
  return text.replace(TOKENS, (token) => `…${token.slice(-4)}`);
}
