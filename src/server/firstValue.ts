/** The first value of a comma-separated header: the client-facing one, when proxies append theirs. */
export const firstValue = (header: string | null | undefined): string | undefined => header?.split(',')[0]?.trim();
