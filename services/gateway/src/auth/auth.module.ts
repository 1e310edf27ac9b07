import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { MultipartModule } from '@nestjs/platform-fastify/multipart';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { signupMultipartOptions } from './profile-picture.js';
import { SessionGuard, SessionStrategy } from './session.strategy.js';

@Module({
  imports: [
    PassportModule,
    MultipartModule.registerAsync({
      useFactory: (config: GatewayConfig) => signupMultipartOptions(config.PROFILE_IMAGE_MAX_BYTES),
      inject: [GATEWAY_CONFIG],
    }),
  ],
  controllers: [AuthController],
  providers: [AuthService, SessionStrategy, SessionGuard],
  exports: [SessionGuard, SessionStrategy],
})
export class AuthModule {}
