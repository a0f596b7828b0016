/**
 * The context key under which an operation carries a probe that `TokenAuthLink` marks as it passes: the React
 * provider's `me` query carries one, so that a chain where `auth.link` never runs (placed after the link that sends
 * the operation) is told apart from a server that refuses a token.
 * @internal
 */
export const CHAIN_PROBE_KEY = 'tokenPairChainProbe';

/** What an operation carries under {@link CHAIN_PROBE_KEY}. @internal */
export interface ChainProbe {
  /** Set by `TokenAuthLink` when the operation passed it. */
  passed?: boolean;
}
