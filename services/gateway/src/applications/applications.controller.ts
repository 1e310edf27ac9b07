import { CLIPPER_APPLICATION_MESSAGES } from '@clipit/field-rules';
import { Controller, Inject } from '@nestjs/common';
import { CAMPAIGNS_CLIENT, type CampaignsClient } from '../clients.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { applicationRoutes } from './applications.routes.js';
import { toApplicationRequest, type ApplicationReceivedJson, type SubmitApplicationBody } from './applications.schemas.js';

/**
 * Clipper job applications from the apply page (spec 02 §5; ADR 0020). Open to visitors, so each address
 * may send APPLICATION_LIMIT_PER_IP per window (the route's limit); only applications that pass the rules
 * (the body's check) count, so a person fixing a typo is never locked out by their own mistakes.
 */
@Controller()
export class ApplicationsController {
  constructor(@Inject(CAMPAIGNS_CLIENT) private readonly campaigns: CampaignsClient) {}

  @Endpoint(applicationRoutes.submit)
  async submit(@ValidBody() v: SubmitApplicationBody): Promise<ApplicationReceivedJson> {
    const stored = await this.campaigns.submitApplication(toApplicationRequest(v));
    return { id: stored.id, status: 'pending', message: CLIPPER_APPLICATION_MESSAGES.received };
  }
}
