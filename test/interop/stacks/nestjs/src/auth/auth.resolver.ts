import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { User } from '../users/user.model';
import { AuthGuard } from './auth.guard';
import { AuthPayload, LogoutResult, TokenPair } from './auth.models';
import { AuthService } from './auth.service';
import { CurrentUser } from './current-user.decorator';

@Resolver()
export class AuthResolver {
  constructor(private readonly authService: AuthService) {}

  @Mutation(() => AuthPayload)
  loginWithEmailPassword(@Args('email') email: string, @Args('password') password: string): Promise<AuthPayload> {
    return this.authService.signIn(email, password);
  }

  @Mutation(() => TokenPair)
  refreshToken(@Args('token') token: string): Promise<TokenPair> {
    return this.authService.refresh(token);
  }

  @Mutation(() => LogoutResult)
  async logout(@Args('refreshToken') refreshToken: string): Promise<LogoutResult> {
    await this.authService.logout(refreshToken);
    return { success: true };
  }

  @Query(() => User)
  @UseGuards(AuthGuard)
  me(@CurrentUser() user: User): User {
    return user;
  }
}
