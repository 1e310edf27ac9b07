import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { LiveController } from './live.controller.js';
import { LiveStreams } from './live-streams.js';
import { LiveHub } from './live-hub.js';
import { SocialController } from './social.controller.js';

@Module({ imports: [AuthModule], controllers: [SocialController, LiveController], providers: [LiveHub, LiveStreams] })
export class SocialModule {}
