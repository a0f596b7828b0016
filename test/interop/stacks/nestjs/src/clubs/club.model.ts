import { Field, ID, ObjectType } from '@nestjs/graphql';

@ObjectType()
export class Club {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;
}
