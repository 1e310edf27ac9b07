import { CLIPPER_APPLICATION_MESSAGES, checkClipperApplication, firstApplicationError } from '@clipit/field-rules';
import type { RateLimiter, RateLimitVerdict } from '@clipit/service-kit';
import { BadRequestException, Controller, Inject, Req, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CAMPAIGNS_CLIENT, type CampaignsClient } from '../clients.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { SERVICE_UNAVAILABLE } from '../http/messages.js';
import { ApplicationLimitReached, APPLICATIONS_ACTION } from './application-limit.js';
import { applicationRoutes } from './applications.routes.js';
import type { ApplicationReceivedJson, SubmitApplicationBody } from './applications.schemas.js';
import { APPLICATION_LIMITER } from './applications.tokens.js';

/**
 * Clipper job applications from the apply page (spec 02 §5; ADR 0020). Open to visitors, so each
 * address may send APPLICATION_LIMIT_PER_IP per window; only applications that pass the rules count,
 * so a person fixing a typo is never locked out by their own mistakes.
 */
@Controller()
export class ApplicationsController {
  constructor(
    @Inject(CAMPAIGNS_CLIENT) private readonly campaigns: CampaignsClient,
    @Inject(APPLICATION_LIMITER) private readonly limiter: RateLimiter,
  ) {}

  @Endpoint(applicationRoutes.submit)
  async submit(@ValidBody() body: SubmitApplicationBody, @Req() req: FastifyRequest): Promise<ApplicationReceivedJson> {
    const checked = checkClipperApplication(body);
    if (!checked.ok) throw new BadRequestException(firstApplicationError(checked.errors));

    let verdict: RateLimitVerdict;
    try {
      verdict = await this.limiter.hit(APPLICATIONS_ACTION, req.ip);
    } catch (err) {
      throw new ServiceUnavailableException(SERVICE_UNAVAILABLE, { cause: err });
    }
    if (!verdict.allowed) throw new ApplicationLimitReached(verdict.retryAfterSeconds);

    const v = checked.value;
    const stored = await this.campaigns.submitApplication({
      fullName: v.fullName,
      email: v.email,
      experience: v.experience,
      whyJoin: v.whyJoin,
      ...(v.socialMediaHandles !== null ? { socialMediaHandles: v.socialMediaHandles } : {}),
      ...(v.portfolioLinks !== null ? { portfolioLinks: v.portfolioLinks } : {}),
      ...(v.availabilityHours !== null ? { availabilityHours: String(v.availabilityHours) } : {}),
    });
    return { id: stored.id, status: 'pending', message: CLIPPER_APPLICATION_MESSAGES.received };
  }
}
