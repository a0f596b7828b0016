import { Injectable } from '@nestjs/common';

/** A user of the contract; the password is compared as is, as the Nest auth chapter's sample does. */
export interface UserRecord {
  readonly id: string;
  readonly email: string;
  readonly password: string;
  readonly role: string;
}

@Injectable()
export class UsersService {
  private readonly users: readonly UserRecord[] = [
    { id: 'u-admin', email: 'admin@interop.test', password: 'admin-pass', role: 'ADMIN' },
    { id: 'u-cashier', email: 'cashier@interop.test', password: 'cashier-pass', role: 'Cashier' },
  ];

  async findOne(email: string): Promise<UserRecord | undefined> {
    return this.users.find((user) => user.email === email);
  }

  async findById(id: string): Promise<UserRecord | undefined> {
    return this.users.find((user) => user.id === id);
  }
}
