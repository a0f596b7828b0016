/** A club of the demo organization. */
export interface Club {
  id: string;
  name: string;
}

/** The three clubs the demo organization owns. */
export const CLUBS: readonly Club[] = [
  { id: 'c_downtown', name: 'Downtown Club' },
  { id: 'c_harbor', name: 'Harbor Club' },
  { id: 'c_uptown', name: 'Uptown Club' },
];
