// src/refetchEvents.ts: Apollo Client's event-based refetching (4.2 and later), as Apollo's docs teach it: every
// watched query is fetched again when the tab shows again and when the network comes back. A laptop waking from
// sleep fires both at once, with a token dead for the time asleep: the queries wait on auth.link for one refresh.
import { onlineSource, RefetchEventManager, windowFocusSource } from '@apollo/client';

export const refetchEventManager = new RefetchEventManager({
  sources: { windowFocus: windowFocusSource, online: onlineSource },
});
