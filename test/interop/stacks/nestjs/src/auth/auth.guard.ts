import { type CanActivate, type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import { JwtService, TokenExpiredError } from '@nestjs/jwt';
import type { Request } from 'express';
import { GraphQLError } from 'graphql';
import { type AccessTokenPayload, AuthService } from './auth.service';

/**
 * Lets a resolver run for a live access token only, and puts its user on the request. An expired token is
 * refused with the contract's `TOKEN_EXPIRED` (the JWT library checks the signature, then `exp`, before the
 * session is looked at); any other refusal is the Nest way, an `UnauthorizedException`.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly jwtService: JwtService,
    private readonly authService: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request: Request & { user?: unknown } = GqlExecutionContext.create(context).getContext().req;
    const token = this.extractTokenFromHeader(request);
    if (!token) {
      throw new UnauthorizedException('Not authenticated');
    }
    let payload: AccessTokenPayload;
    try {
      payload = await this.jwtService.verifyAsync<AccessTokenPayload>(token);
    } catch (error) {
      if (error instanceof TokenExpiredError) {
        throw new GraphQLError('Access token expired', { extensions: { code: 'TOKEN_EXPIRED' } });
      }
      throw new UnauthorizedException('Not authenticated');
    }
    const user = await this.authService.userOf(payload);
    if (!user) {
      throw new UnauthorizedException('Not authenticated');
    }
    request.user = { id: user.id, email: user.email, role: user.role };
    return true;
  }

  private extractTokenFromHeader(request: Request): string | undefined {
    const [type, token] = request.headers.authorization?.split(' ') ?? [];
    return type === 'Bearer' ? token : undefined;
  }
}
