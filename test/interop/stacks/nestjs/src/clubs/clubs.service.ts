import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import type { Club } from './club.model';

@Injectable()
export class ClubsService {
  private readonly clubs: readonly Club[] = [{ id: 'c1', name: 'Riverside' }];

  findOne(id: string): Club {
    const club = this.clubs.find((candidate) => candidate.id === id);
    if (!club) {
      throw new NotFoundException('Club not found');
    }
    return club;
  }

  rename(_id: string, _name: string): Club {
    throw new ForbiddenException('Not allowed to edit this club');
  }
}
