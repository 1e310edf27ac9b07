import type { adminV1 } from '@clipit/contracts';
import { CONFIG, invalid, unauthenticated, type RateLimiter } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { LOGIN_LIMITER } from '../clients.js';
import type { AdminConfig } from '../config.js';
import { isAdminPassword } from '../domain/admin-password.js';
import { checkAdminToken, issueAdminToken, type TokenKeys } from '../domain/admin-token.js';
import { messages } from '../domain/messages.js';
import { AuditService } from './audit.service.js';

/** The admin gate (spec 02 §2.4, §4): the password check, limited per address, and the tokens it hands out. */
@Injectable()
export class AccessService {
  private readonly keys: TokenKeys;

  constructor(
    @Inject(CONFIG) private readonly config: AdminConfig,
    @Inject(LOGIN_LIMITER) private readonly limiter: RateLimiter,
    private readonly audit: AuditService,
  ) {
    this.keys = { secret: config.ADMIN_TOKEN_SECRET, password: config.ADMIN_PASSWORD };
  }

  async verifyPassword(request: adminV1.VerifyPasswordRequest, now = new Date()): Promise<adminV1.VerifyPasswordResponse> {
    const clientIp = request.clientIp || 'unknown';
    if (!request.password) throw invalid(messages.passwordRequired);
    // Counted before the check, right or wrong, so guessing costs attempts whatever the outcome.
    const verdict = await this.limiter.hit('admin-verify', clientIp);
    if (!verdict.allowed) {
      await this.audit.record({
        action: 'verify-password',
        result: 'refused',
        detail: `rate limited for ${verdict.retryAfterSeconds} s`,
        clientIp,
      });
      return { retryAfterSeconds: verdict.retryAfterSeconds };
    }
    if (!isAdminPassword(request.password, this.config.ADMIN_PASSWORD)) {
      await this.audit.record({ action: 'verify-password', result: 'refused', detail: messages.incorrectPassword, clientIp });
      throw unauthenticated(messages.incorrectPassword);
    }
    const { token, id, expiresAt } = issueAdminToken(this.keys, this.config.ADMIN_TOKEN_TTL_SECONDS, now);
    await this.audit.record({
      action: 'verify-password',
      result: 'ok',
      detail: `token expires ${expiresAt.toISOString()}`,
      actor: id,
      clientIp,
    });
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /** The token's id for the audit log; UNAUTHENTICATED with the sentence for a missing, bad or expired token. */
  authorize(caller: adminV1.AdminCaller | undefined, now = new Date()): string {
    const check = checkAdminToken(caller?.token, this.keys, now);
    if (!check.ok) throw unauthenticated(check.reason);
    return check.id;
  }
}
