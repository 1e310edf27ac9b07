import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { FeedController } from './feed.controller.js';
import { PublicReads } from './public-reads.service.js';
import { PublicReadCache } from './read-cache.js';

@Module({ imports: [AuthModule], controllers: [FeedController], providers: [PublicReadCache, PublicReads], exports: [PublicReadCache] })
export class FeedModule {}
