import { campaignsV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { ApplicationsService } from '../services/applications.service.js';
import { CampaignClipsService } from '../services/campaign-clips.service.js';
import { ClipperProfilesService } from '../services/clipper-profiles.service.js';
import { CpmCampaignsService } from '../services/cpm-campaigns.service.js';
import { DescribeService } from '../services/describe.service.js';
import { HiresService } from '../services/hires.service.js';

/** campaigns.v1.CampaignsService: one application-service call per method; the rules live in the services. */
@GrpcService()
@campaignsV1.CampaignsServiceControllerMethods()
export class CampaignsController implements campaignsV1.CampaignsServiceController {
  constructor(
    private readonly describer: DescribeService,
    private readonly applications: ApplicationsService,
    private readonly campaigns: CpmCampaignsService,
    private readonly campaignClips: CampaignClipsService,
    private readonly profiles: ClipperProfilesService,
    private readonly hires: HiresService,
  ) {}

  describe(): Promise<campaignsV1.Description> {
    return this.describer.describe();
  }

  submitApplication(request: campaignsV1.SubmitApplicationRequest): Promise<campaignsV1.ClipperApplication> {
    return this.applications.submit(request);
  }

  listApplications(request: campaignsV1.ListApplicationsRequest): Promise<campaignsV1.ListApplicationsResponse> {
    return this.applications.list(request);
  }

  submitCampaign(request: campaignsV1.SubmitCampaignRequest): Promise<campaignsV1.CpmCampaign> {
    return this.campaigns.submit(request);
  }

  listCampaigns(request: campaignsV1.ListCampaignsRequest): Promise<campaignsV1.ListCampaignsResponse> {
    return this.campaigns.list(request);
  }

  reviewCampaign(request: campaignsV1.ReviewCampaignRequest): Promise<campaignsV1.CpmCampaign> {
    return this.campaigns.review(request);
  }

  listCampaignClips(request: campaignsV1.ListCampaignClipsRequest): Promise<campaignsV1.CampaignClipsPage> {
    return this.campaignClips.list(request);
  }

  getClipperProfile(request: campaignsV1.GetClipperProfileRequest): Promise<campaignsV1.ClipperProfile> {
    return this.profiles.get(request);
  }

  updateClipperProfile(request: campaignsV1.UpdateClipperProfileRequest): Promise<campaignsV1.ClipperProfile> {
    return this.profiles.update(request);
  }

  requestHire(request: campaignsV1.RequestHireRequest): Promise<campaignsV1.HireRequest> {
    return this.hires.request(request);
  }

  listHires(request: campaignsV1.ListHiresRequest): Promise<campaignsV1.ListHiresResponse> {
    return this.hires.list(request);
  }

  respondToHire(request: campaignsV1.RespondToHireRequest): Promise<campaignsV1.HireRequest> {
    return this.hires.respond(request);
  }

  rateHire(request: campaignsV1.RateHireRequest): Promise<campaignsV1.RateHireResponse> {
    return this.hires.rate(request);
  }
}
