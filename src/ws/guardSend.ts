/** A WebSocket class, as graphql-ws's `webSocketImpl` takes it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a mixin's constructor must take `any[]` (TS2545)
export type WebSocketClass = new (...args: any[]) => { readonly readyState: number; send(data: string): void };

/** `WebSocket.OPEN`: the socket is open. */
export const OPEN = 1;

/**
 * `Impl` whose `send` drops what it is given once the socket is no longer open.
 *
 * @remarks
 * graphql-ws answers a server's ping with a pong, and sends a subscription once connected, without looking whether
 * the socket is still open. A socket this client closes to authenticate again (after a refresh, or a tab that thawed
 * with pings queued) may still deliver a ping: the pong goes to a closing socket, which a browser reports as the
 * console error "WebSocket is already in CLOSING or CLOSED state." (the 30-minute soak, seeds 1 and 2, after a
 * long freeze). Nothing sent then could arrive: dropping it loses nothing.
 */
export function guardSend<T extends WebSocketClass>(Impl: T): T {
  return class extends Impl {
    override send(data: string): void {
      if (this.readyState === OPEN) super.send(data);
    }
  };
}
