import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { AccountService } from './account.service.js';
import { ImageUploadService } from './image-upload.service.js';
import { ImageUploadsController, UsersController } from './users.controller.js';

@Module({ imports: [AuthModule], controllers: [UsersController, ImageUploadsController], providers: [ImageUploadService, AccountService] })
export class UsersModule {}
