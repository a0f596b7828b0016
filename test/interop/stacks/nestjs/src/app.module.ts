import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { AuthModule } from './auth/auth.module';
import { ClubsModule } from './clubs/clubs.module';

@Module({
  imports: [
    GraphQLModule.forRoot<ApolloDriverConfig>({
      driver: ApolloDriver,
      // Code first, the schema generated in memory: nothing is written at runtime.
      autoSchemaFile: true,
      playground: false,
    }),
    AuthModule,
    ClubsModule,
  ],
})
export class AppModule {}
