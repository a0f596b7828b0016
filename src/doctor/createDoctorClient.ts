import type { Pair } from './Pair';
import { postGraphQL, type GraphQLAnswer } from './postGraphQL';
import type { RequestBudget } from './requestBudget';
import type { DoctorOptions } from './DoctorOptions';

const DOCUMENTS = {
  login:
    'mutation($email:String!,$password:String!){loginWithEmailPassword(email:$email,password:$password){accessToken refreshToken user{id email role}}}',
  refresh: 'mutation($token:String!){refreshToken(token:$token){accessToken refreshToken}}',
  logout: 'mutation($refreshToken:String!){logout(refreshToken:$refreshToken){success}}',
  me: '{me{id email}}',
};

/** The contract's calls as the doctor sends them: each within the run's budget and the request timeout. */
export interface DoctorClient {
  login(password: string): Promise<GraphQLAnswer>;
  refresh(pair: Pair): Promise<GraphQLAnswer>;
  me(token: string): Promise<GraphQLAnswer>;
  logout(pair: Pair): Promise<GraphQLAnswer>;
}

/** The calls to `options.uri` with the app's documents (else the contract's), each taken from `budget`. */
export function createDoctorClient(options: DoctorOptions, budget: RequestBudget): DoctorClient {
  const { uri, timeout = 10_000 } = options;
  const documents = { ...DOCUMENTS, ...options.documents };
  const post = (query: string, variables: Record<string, unknown>, token?: string): Promise<GraphQLAnswer> => {
    if (!budget.take()) return Promise.resolve({ errors: [], failure: 'was not sent: the request budget is spent' });
    return postGraphQL(uri, query, variables, { token, timeout, fetch: options.fetch });
  };
  return {
    login: (password) => post(documents.login, { email: options.email, password }),
    refresh: (pair) => post(documents.refresh, { token: pair.refreshToken }),
    me: (token) => post(documents.me, {}, token),
    logout: (pair) => post(documents.logout, { refreshToken: pair.refreshToken }, pair.accessToken),
  };
}
