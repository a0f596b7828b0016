import { randomUUID } from 'node:crypto';
import { Injectable, UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { type UserRecord, UsersService } from '../users/users.service';
import { jwtConstants } from './constants';
import type { AuthPayload, TokenPair } from './auth.models';

/** The claims of an access token (besides `jti`, `iat`, `exp`). */
export interface AccessTokenPayload {
  sub: string;
  email: string;
  role: string;
  sid: string;
  typ?: string;
}

/** The claims of a refresh token (besides `jti`, `iat`, `exp`). */
interface RefreshTokenPayload {
  sub: string;
  sid: string;
  typ: 'refresh';
  jti?: string;
}

/** A login's session: its user, and the `jti` of the one refresh token that may still be spent. */
interface Session {
  userId: string;
  refreshJti: string;
}

@Injectable()
export class AuthService {
  /** Live sessions by `sid`: logout deletes its session, which kills both of its tokens. */
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly usersService: UsersService,
    private readonly jwtService: JwtService,
  ) {}

  async signIn(email: string, password: string): Promise<AuthPayload> {
    const user = await this.usersService.findOne(email);
    if (user?.password !== password) {
      throw new UnauthorizedException('Invalid email or password');
    }
    const sid = randomUUID();
    const refreshJti = randomUUID();
    this.sessions.set(sid, { userId: user.id, refreshJti });
    const pair = await this.issue(user, sid, refreshJti);
    return { ...pair, user: { id: user.id, email: user.email, role: user.role } };
  }

  /** A new pair for the live refresh token `token`, which is spent at once. */
  async refresh(token: string): Promise<TokenPair> {
    const { session, user, sid } = await this.liveSessionOf(token);
    session.refreshJti = randomUUID();
    return this.issue(user, sid, session.refreshJti);
  }

  /** Ends the session of the live refresh token `token`: both of its tokens are refused from now on. */
  async logout(token: string): Promise<void> {
    const { sid } = await this.liveSessionOf(token);
    this.sessions.delete(sid);
  }

  /** The user of a verified access token's claims, or `undefined` for a refresh token or a dead session. */
  async userOf(payload: AccessTokenPayload): Promise<UserRecord | undefined> {
    if (payload.typ === 'refresh' || !this.sessions.has(payload.sid)) return undefined;
    return this.usersService.findById(payload.sub);
  }

  private async issue(user: UserRecord, sid: string, refreshJti: string): Promise<TokenPair> {
    const access: AccessTokenPayload = { sub: user.id, email: user.email, role: user.role, sid };
    const refresh: RefreshTokenPayload = { sub: user.id, sid, typ: 'refresh' };
    return {
      accessToken: await this.jwtService.signAsync(access, { jwtid: randomUUID() }),
      refreshToken: await this.jwtService.signAsync(refresh, {
        jwtid: refreshJti,
        expiresIn: jwtConstants.refreshTokenTtl,
      }),
    };
  }

  /** The session whose current refresh token is `token`; refuses a spent, revoked, expired or foreign one. */
  private async liveSessionOf(token: string) {
    let payload: RefreshTokenPayload;
    try {
      payload = await this.jwtService.verifyAsync<RefreshTokenPayload>(token);
    } catch {
      throw new UnauthorizedException('Invalid refresh token');
    }
    const session = payload.typ === 'refresh' ? this.sessions.get(payload.sid) : undefined;
    const user = session && (await this.usersService.findById(session.userId));
    if (!session || !user || session.refreshJti !== payload.jti) {
      throw new UnauthorizedException('Invalid refresh token');
    }
    return { session, user, sid: payload.sid };
  }
}
