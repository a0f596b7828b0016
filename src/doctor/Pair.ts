import type { GraphQLAnswer } from './postGraphQL';

/** A token pair the doctor was issued. */
export interface Pair {
  readonly accessToken: string;
  readonly refreshToken: string;
}

/** The pair an answer's `field` holds (`loginWithEmailPassword`, `refreshToken`), if it holds one. */
export function pairOf(answer: GraphQLAnswer, field: string): Pair | undefined {
  const value = answer.data?.[field] as Partial<Pair> | undefined;
  return typeof value?.accessToken === 'string' && typeof value.refreshToken === 'string' ? (value as Pair) : undefined;
}

/** Whether a refresh was refused: an answer came, with errors and no pair. */
export function refusedBy(answer: GraphQLAnswer): boolean {
  return !answer.failure && !answer.data?.['refreshToken'] && answer.errors.length > 0;
}
