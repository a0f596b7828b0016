import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ClubsResolver } from './clubs.resolver';
import { ClubsService } from './clubs.service';

@Module({
  imports: [AuthModule],
  providers: [ClubsResolver, ClubsService],
})
export class ClubsModule {}
