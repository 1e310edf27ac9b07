import { Module } from '@nestjs/common';
import { V1LeaderboardsController } from './leaderboards.controller.js';

/**
 * The versioned read API (/api/v1, ADR 0053): programs read with an API key (ApiKeyGuard, which
 * `Endpoint()` puts on every route naming a scope), never a cookie; documented in its own OpenAPI document.
 */
@Module({ controllers: [V1LeaderboardsController] })
export class V1Module {}
