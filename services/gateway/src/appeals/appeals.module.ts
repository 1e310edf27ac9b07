import { Module } from '@nestjs/common';
import { AdminBearerGuard } from '../admin/admin-bearer.guard.js';
import { AuthModule } from '../auth/auth.module.js';
import { AppealsController } from './appeals.controller.js';

/** Appeals (ADR 0051): the clipper's routes (SessionGuard, from AuthModule) and the admin's (the bearer guard). */
@Module({ imports: [AuthModule], controllers: [AppealsController], providers: [AdminBearerGuard] })
export class AppealsModule {}
