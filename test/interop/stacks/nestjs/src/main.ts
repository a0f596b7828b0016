/**
 * The contract's service (../README.md) on NestJS 11 + @nestjs/graphql 13 with the ApolloDriver (Apollo Server 5
 * on Express 5), written as the Nest docs teach it:
 * - Security > Authentication: a UsersService, an AuthService whose signIn throws UnauthorizedException for bad
 *   credentials, JwtModule.register({ global: true, ... }), an AuthGuard that reads the bearer token and calls
 *   JwtService.verifyAsync;
 * - GraphQL > Quick start and Resolvers: GraphQLModule.forRoot with ApolloDriver, code first (autoSchemaFile: true,
 *   in memory), @ObjectType/@Field models, @Resolver/@Query/@Mutation/@Args;
 * - GraphQL > Other features: the guard and a @CurrentUser decorator through GqlExecutionContext, and a
 *   GqlExceptionFilter (see auth/graphql-error.filter.ts);
 * - Overview > Exception filters (built-in HTTP exceptions): NotFoundException, ForbiddenException;
 * - Fundamentals > Lifecycle events (enableShutdownHooks) and Techniques > Logger (levels).
 *
 * On the wire (POST /graphql, HTTP 200 for every refusal below: `data` is null, and @nestjs/apollo's
 * preserveHttpStatus plugin keeps execution errors at 200), first error's message and extensions.code:
 * - wrong password or unknown e-mail:   "Invalid email or password"      UNAUTHENTICATED  (UnauthorizedException)
 * - spent/revoked/expired/foreign refresh token, at refreshToken or logout:
 *                                       "Invalid refresh token"          UNAUTHENTICATED  (UnauthorizedException)
 * - missing, malformed or foreign access token, a refresh token, a dead session:
 *                                       "Not authenticated"              UNAUTHENTICATED  (UnauthorizedException)
 * - expired access token (whatever its session): "Access token expired" TOKEN_EXPIRED    (GraphQLError)
 * - club(id) other than c1:             "Club not found"                 INTERNAL_SERVER_ERROR, extensions.status 404
 *                                                                        (NotFoundException: no Apollo code for 404)
 * - renameClub:                         "Not allowed to edit this club"  FORBIDDEN        (ForbiddenException)
 * An HttpException's error also carries extensions.originalError ({ message, error, statusCode }), and every error
 * carries extensions.stacktrace unless NODE_ENV is "production" or "test" (Apollo Server's default).
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { GraphQLErrorFilter } from './auth/graphql-error.filter';

async function bootstrap() {
  // Errors only: Nest's ConsoleLogger writes them to stderr (its other levels, fatal too, go to stdout), so stdout
  // carries just the URL line.
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger: ['error'] });
  app.useGlobalFilters(new GraphQLErrorFilter());
  // SIGTERM closes the app (Apollo Server and the HTTP server), then the process exits.
  app.enableShutdownHooks();
  const host = process.env.HOST || '127.0.0.1';
  await app.listen(Number(process.env.PORT || 0), host);
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`listening on http://${host}:${port}/graphql\n`);
}

void bootstrap();
