import { Global, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ApiKeyAuthenticator } from '../http/api-key-authenticator.js';
import { ApiKeyGuard } from '../http/api-key.guard.js';
import { KeysController } from './keys.controller.js';
import { WebhooksController } from './webhooks.controller.js';

/**
 * Developers' access (ADR 0053): the dashboard's key routes (session), and the API key authentication every
 * /api/v1 route's guard uses, global so that `Endpoint()` can put ApiKeyGuard on a route of any module.
 */
@Global()
@Module({
  imports: [AuthModule],
  controllers: [KeysController, WebhooksController],
  providers: [ApiKeyAuthenticator, ApiKeyGuard],
  exports: [ApiKeyAuthenticator, ApiKeyGuard],
})
export class DeveloperAccessModule {}
