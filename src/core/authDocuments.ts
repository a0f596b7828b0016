// The spec's three auth mutations, as plain strings: they are posted with fetch, outside Apollo.

export const LOGIN = `mutation LoginWithEmailPassword($email: String!, $password: String!) {
  loginWithEmailPassword(email: $email, password: $password) { accessToken refreshToken user { id email role } }
}`;

export const REFRESH = `mutation RefreshToken($token: String!) {
  refreshToken(token: $token) { accessToken refreshToken }
}`;

export const LOGOUT = `mutation Logout($refreshToken: String!) {
  logout(refreshToken: $refreshToken) { success }
}`;
