import { Catch } from '@nestjs/common';
import type { GqlExceptionFilter } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';

/**
 * Hands a `GraphQLError` (the guard's `TOKEN_EXPIRED`) to GraphQL as it is. Without a filter, Nest's default
 * handler also logs every error that is not an `HttpException` as an ERROR with its stack: an expired access
 * token is a routine refusal, not a server fault.
 */
@Catch(GraphQLError)
export class GraphQLErrorFilter implements GqlExceptionFilter {
  catch(exception: GraphQLError) {
    return exception;
  }
}
