import { adminV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { AccessService } from '../services/access.service.js';
import { AppealsService } from '../services/appeals.service.js';
import { ApplicationsService } from '../services/applications.service.js';
import { AuditService } from '../services/audit.service.js';
import { CampaignsReviewService } from '../services/campaigns-review.service.js';
import { DescribeService } from '../services/describe.service.js';
import { EarningHoldsService } from '../services/earning-holds.service.js';
import { ModerationService } from '../services/moderation.service.js';
import { PlaceholdersService } from '../services/placeholders.service.js';
import { SystemMetricsService } from '../services/system-metrics.service.js';

/**
 * admin.v1.AdminService: one application-service call per method; the rules live in the services.
 * Every method but Describe and VerifyPassword checks the admin token first.
 */
@GrpcService()
@adminV1.AdminServiceControllerMethods()
export class AdminController implements adminV1.AdminServiceController {
  constructor(
    private readonly describer: DescribeService,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly moderation: ModerationService,
    private readonly placeholders: PlaceholdersService,
    private readonly applications: ApplicationsService,
    private readonly campaigns: CampaignsReviewService,
    private readonly systemMetrics: SystemMetricsService,
    private readonly appeals: AppealsService,
    private readonly holds: EarningHoldsService,
  ) {}

  describe(): Promise<adminV1.Description> {
    return this.describer.describe();
  }

  verifyPassword(request: adminV1.VerifyPasswordRequest): Promise<adminV1.VerifyPasswordResponse> {
    return this.access.verifyPassword(request);
  }

  async listSubmissions(request: adminV1.ListSubmissionsRequest): Promise<adminV1.SubmissionPage> {
    this.access.authorize(request.caller);
    return this.moderation.list(request);
  }

  async moderate(request: adminV1.ModerateRequest): Promise<adminV1.AdminSubmission> {
    const actor = this.access.authorize(request.caller);
    return this.moderation.moderate(request, actor);
  }

  async listPlaceholderStreamers(request: adminV1.ListPlaceholderStreamersRequest): Promise<adminV1.ListPlaceholderStreamersResponse> {
    this.access.authorize(request.caller);
    return this.placeholders.list();
  }

  async createPlaceholderStreamer(request: adminV1.CreatePlaceholderStreamerRequest): Promise<adminV1.PlaceholderStreamer> {
    const actor = this.access.authorize(request.caller);
    return this.placeholders.create(request, actor);
  }

  async listApplications(request: adminV1.ListApplicationsRequest): Promise<adminV1.ApplicationPage> {
    this.access.authorize(request.caller);
    return this.applications.list(request);
  }

  async listCampaigns(request: adminV1.ListCampaignsRequest): Promise<adminV1.CampaignPage> {
    this.access.authorize(request.caller);
    return this.campaigns.list(request);
  }

  async reviewCampaign(request: adminV1.ReviewCampaignRequest): Promise<adminV1.AdminCampaign> {
    const actor = this.access.authorize(request.caller);
    return this.campaigns.review(request, actor);
  }

  async listAudit(request: adminV1.ListAuditRequest): Promise<adminV1.AuditPage> {
    this.access.authorize(request.caller);
    return this.audit.list(request);
  }

  async getSystemMetrics(request: adminV1.GetSystemMetricsRequest): Promise<adminV1.SystemMetrics> {
    this.access.authorize(request.caller);
    return this.systemMetrics.overview();
  }

  async decideEarningHold(request: adminV1.DecideEarningHoldRequest): Promise<adminV1.EarningHold> {
    const actor = this.access.authorize(request.caller);
    return this.holds.decide(request, actor);
  }

  async listAppeals(request: adminV1.ListAppealsRequest): Promise<adminV1.AppealPage> {
    this.access.authorize(request.caller);
    return this.appeals.list(request);
  }

  async decideAppeal(request: adminV1.DecideAppealRequest): Promise<adminV1.AdminAppeal> {
    const actor = this.access.authorize(request.caller);
    return this.appeals.decide(request, actor);
  }
}
