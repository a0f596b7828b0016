/** A club of the sample organization. */
export interface Club {
  id: string;
  name: string;
}

/** The three clubs the sample organization owns (the `clubs` query). */
export const CLUBS: readonly Club[] = [
  { id: 'c_downtown', name: 'Downtown Club' },
  { id: 'c_harbor', name: 'Harbor Club' },
  { id: 'c_uptown', name: 'Uptown Club' },
];
