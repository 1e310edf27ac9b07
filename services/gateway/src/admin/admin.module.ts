import { Module } from '@nestjs/common';
import { AdminArea } from './admin-area.service.js';
import { AdminBearerGuard } from './admin-bearer.guard.js';
import { AdminController } from './admin.controller.js';

@Module({ controllers: [AdminController], providers: [AdminBearerGuard, AdminArea] })
export class AdminModule {}
