// Words servers use when they refuse a token or a session, in the messages of errors they send without a code:
// "Not authenticated", "Unauthorized", "Invalid refresh token", "jwt expired", "Session revoked", "You must be
// logged in". Not "Not allowed to edit this club" (a permission), nor "Cannot read properties of undefined
// (reading 'token')" (a crash that names a token without refusing it).
const AUTH_WORDS =
  /\b(un)?authenticat|\bunauthori[sz]|\b(not|must be|need to be) (logged|signed) in\b|\b(login|sign[ -]?in) required\b|\bjwt\b|\b(invalid|expired|revoked|unknown|missing|bad|malformed|spent|used|stale)\b[\w ]{0,20}\b(token|session|signature|credentials?)\b|\b(token|session|signature)\b[\w ]{0,20}\b(invalid|expired|revoked|unknown|not (found|valid)|malformed|already used|reused)\b/i;

/**
 * Whether an error message speaks of a refused token or session, in the words servers use for it.
 *
 * @remarks
 * The contract names no error for a dead session, a spent refresh token or a wrong password, so most servers
 * send a plain message. Words decide only how soon to ask: a session that an operation's error calls dead is
 * checked by a refresh at once, and the refresh's answer is the verdict.
 */
export function speaksOfAuth(message: string): boolean {
  return AUTH_WORDS.test(message);
}
