import { Module } from '@nestjs/common';
import { AdminBearerGuard } from './admin-bearer.guard.js';
import { AdminController } from './admin.controller.js';

@Module({ controllers: [AdminController], providers: [AdminBearerGuard] })
export class AdminModule {}
