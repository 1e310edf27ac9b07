import { Module } from '@nestjs/common';
import { CampaignsController } from './campaigns.controller.js';
import { HireTargetGuard } from './hire-target.guard.js';
import { HiringService } from './hiring.service.js';

@Module({ controllers: [CampaignsController], providers: [HiringService, HireTargetGuard] })
export class CampaignsModule {}
