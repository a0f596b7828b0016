import { describe, expect, it } from 'vitest';
import { getClientAddress, peerAddresses } from '../../src/server/clientAddress';

describe('getClientAddress', () => {
  const withPeer = (headers: Record<string, string>, peer?: string) => {
    const incoming = new Request('http://127.0.0.1/auth/login', { method: 'POST', headers });
    if (peer) peerAddresses.set(incoming, peer);
    return incoming;
  };

  it('is the peer alone without trustProxy, whatever X-Forwarded-For the browser sent', () => {
    expect(getClientAddress(withPeer({ 'x-forwarded-for': '6.6.6.6' }, '203.0.113.7'), { trustProxy: false })).toEqual({
      address: '203.0.113.7',
      forwardedFor: '203.0.113.7',
    });
  });

  it('behind a trusted proxy, is the last address of its chain, with the peer (the proxy) appended upstream', () => {
    expect(
      getClientAddress(withPeer({ 'x-forwarded-for': '6.6.6.6, 198.51.100.9' }, '10.0.0.2'), { trustProxy: true }),
    ).toEqual({
      address: '198.51.100.9',
      forwardedFor: '6.6.6.6, 198.51.100.9, 10.0.0.2',
    });
  });

  it('is unknown for a request that did not come through toNodeHandler and names no proxy chain', () => {
    expect(getClientAddress(withPeer({}), { trustProxy: false })).toEqual({
      address: undefined,
      forwardedFor: undefined,
    });
    expect(getClientAddress(withPeer({}), { trustProxy: true })).toEqual({
      address: undefined,
      forwardedFor: undefined,
    });
  });
});
