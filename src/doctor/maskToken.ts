/** A token as the doctor prints it: its first three characters and its last four (`eyJ…x9Qw`), never whole. */
export function maskToken(token: unknown): string {
  return typeof token === 'string' && token.length > 12 ? `${token.slice(0, 3)}…${token.slice(-4)}` : '(none)';
}
