// The spec's three auth mutations, posted with fetch outside Apollo; compact, since they ship in the bundle.

const PAIR = 'accessToken refreshToken';

export const LOGIN = `mutation Login($email:String!,$password:String!){loginWithEmailPassword(email:$email,password:$password){${PAIR} user{id email role}}}`;

export const REFRESH = `mutation Refresh($token:String!){refreshToken(token:$token){${PAIR}}}`;

export const LOGOUT = `mutation Logout($refreshToken:String!){logout(refreshToken:$refreshToken){success}}`;
