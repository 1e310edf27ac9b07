import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { RewardsController } from './rewards.controller.js';

@Module({ imports: [AuthModule], controllers: [RewardsController] })
export class RewardsModule {}
