import { UseGuards } from '@nestjs/common';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AuthGuard } from '../auth/auth.guard';
import { Club } from './club.model';
import { ClubsService } from './clubs.service';

@Resolver(() => Club)
@UseGuards(AuthGuard)
export class ClubsResolver {
  constructor(private readonly clubsService: ClubsService) {}

  @Query(() => Club)
  club(@Args('id', { type: () => ID }) id: string): Club {
    return this.clubsService.findOne(id);
  }

  @Mutation(() => Club)
  renameClub(@Args('id', { type: () => ID }) id: string, @Args('name') name: string): Club {
    return this.clubsService.rename(id, name);
  }
}
