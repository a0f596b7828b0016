/** Options of {@link runDoctor}. */
export interface DoctorOptions {
  /** The GraphQL endpoint. */
  uri: string;
  email: string;
  password: string;
  /** ms each request may take. @defaultValue `10_000` */
  timeout?: number;
  /**
   * Documents for a server whose operations have other names, aliased to the contract's (as for
   * `createGraphQLTransport`), and `me` for the query that returns the signed-in user.
   */
  documents?: { login?: string; refresh?: string; logout?: string; me?: string };
  /**
   * The app's sign-in doors (`signIns` of `createTokenAuth` or `createTokenHandler`), as strings: each is checked
   * before any request (one top-level field; whether it can answer a pair), and never sent.
   */
  signIns?: Readonly<Record<string, string>>;
  /** @defaultValue `globalThis.fetch` */
  fetch?: typeof fetch;
}
