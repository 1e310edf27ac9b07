import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { FeedController } from './feed.controller.js';
import { PersonalPages } from './personal-pages.js';
import { PublicReads } from './public-reads.service.js';
import { PublicReadCache } from './read-cache.js';

@Module({
  imports: [AuthModule],
  controllers: [FeedController],
  providers: [PublicReadCache, PersonalPages, PublicReads],
  exports: [PublicReadCache, PersonalPages],
})
export class FeedModule {}
