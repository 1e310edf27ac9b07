import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, REDIS } from '@clipit/service-kit';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { GatewayConfig } from '../config.js';
import { flowKey, randomToken, XSignInFailure, type XFlow } from './x-oauth.js';

const storedFlow = z.object({ state: z.string(), codeVerifier: z.string(), redirectUri: z.string(), linkUserId: z.string().optional() });

/**
 * Started round trips, in Redis for X_OAUTH_STATE_TTL_SECONDS under the SHA-256 of the cookie's id: any
 * replica can finish what another started, and taking a flow deletes it (GETDEL), so a state is used once.
 */
@Injectable()
export class XFlowStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Keeps the flow; answers the id its cookie carries. */
  async save(flow: XFlow): Promise<string> {
    const flowId = randomToken();
    try {
      await this.redis.set(
        flowKey(this.config.REDIS_KEY_PREFIX, flowId),
        JSON.stringify(flow),
        'EX',
        this.config.X_OAUTH_STATE_TTL_SECONDS,
      );
    } catch (err) {
      throw new XSignInFailure('x-unavailable-now', 'could not keep the sign-in with X state in Redis', { cause: err });
    }
    return flowId;
  }

  /** The flow of this cookie, removed as it is read; undefined when there is none (expired, used, never made). */
  async take(flowId: string): Promise<XFlow | undefined> {
    let raw: string | null;
    try {
      raw = await this.redis.getdel(flowKey(this.config.REDIS_KEY_PREFIX, flowId));
    } catch (err) {
      throw new XSignInFailure('x-unavailable-now', 'could not read the sign-in with X state from Redis', { cause: err });
    }
    if (raw === null) return undefined;
    const parsed = storedFlow.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }
}
