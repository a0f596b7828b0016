/**
 * Says that `target` (a URL) could not be reached, in the words of the failure: `fetch` says only "fetch failed"
 * (Node) or "Failed to fetch" (browsers), and Node keeps the reason (`connect ECONNREFUSED …`, a URL it could not
 * parse) in the error's `cause`.
 */
export function unreachable(target: string, failure: unknown): string {
  const words = [failure, (failure as { cause?: unknown } | undefined)?.cause]
    .map((each) => (each as { message?: unknown } | undefined)?.message)
    .filter((message): message is string => typeof message === 'string' && message !== '');
  return `${target} cannot be reached${words.length ? ` (${words.join(': ')})` : ''}`;
}
