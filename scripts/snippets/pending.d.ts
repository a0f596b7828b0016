// TEMPORARY, delete at the merge of issue 13's session work: `useAuth()`'s `ended` and `reconnecting`, which the
// README already uses, are added to src/react/AuthContext.ts on another branch. Until then this declares them
// as that branch does, but optional, so that src/ still compiles; once the real ones exist, the check fails here
// (merged interface members must have the same modifiers), which says: delete this file.
import type {} from '../../src/react/AuthContext';

declare module '../../src/react/AuthContext' {
  interface AuthContextValue {
    readonly reconnecting?: boolean;
    readonly ended?: {
      readonly reason: 'logout' | 'rejected' | 'replaced' | 'no-session';
      readonly elsewhere: boolean;
      readonly rejection?: 'expired' | 'revoked';
      readonly at: number;
    } | null;
  }
}
