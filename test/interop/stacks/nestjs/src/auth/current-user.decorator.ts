import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';

/** The user the {@link AuthGuard} put on the request. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => GqlExecutionContext.create(context).getContext().req.user,
);
