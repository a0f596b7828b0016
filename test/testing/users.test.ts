import { describe, expect, it } from 'vitest';
import { createTestAuthServer } from '../../src/testing';

describe('the seeded accounts', () => {
  it('seeds the owner, a built-in ADMIN, a custom-role Cashier and an ADMIN with a second factor', () => {
    expect(createTestAuthServer().users).toEqual([
      expect.objectContaining({ id: 'u_owner', email: 'owner@demo.test', password: 'owner-pass', role: 'OWNER' }),
      expect.objectContaining({ id: 'u_admin', email: 'admin@demo.test', password: 'admin-pass', role: 'ADMIN' }),
      expect.objectContaining({
        id: 'u_cashier',
        email: 'cashier@demo.test',
        password: 'cashier-pass',
        role: 'Cashier',
      }),
      expect.objectContaining({
        id: 'u_twofactor',
        email: 'twofactor@demo.test',
        password: 'twofactor-pass',
        role: 'ADMIN',
        secondFactor: true,
      }),
    ]);
  });
});
