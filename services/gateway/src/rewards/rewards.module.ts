import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { DashboardCache } from './dashboard-cache.js';
import { RewardsController } from './rewards.controller.js';

@Module({ imports: [AuthModule], controllers: [RewardsController], providers: [DashboardCache], exports: [DashboardCache] })
export class RewardsModule {}
