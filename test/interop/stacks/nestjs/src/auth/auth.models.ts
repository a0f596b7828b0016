import { Field, ObjectType } from '@nestjs/graphql';
import { User } from '../users/user.model';

@ObjectType()
export class TokenPair {
  @Field()
  accessToken: string;

  @Field()
  refreshToken: string;
}

@ObjectType()
export class AuthPayload extends TokenPair {
  @Field(() => User)
  user: User;
}

@ObjectType()
export class LogoutResult {
  @Field()
  success: boolean;
}
