import { campaignsV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { ApplicationsService } from '../services/applications.service.js';
import { DescribeService } from '../services/describe.service.js';

/** campaigns.v1.CampaignsService: one application-service call per method; the rules live in the services. */
@GrpcService()
@campaignsV1.CampaignsServiceControllerMethods()
export class CampaignsController implements campaignsV1.CampaignsServiceController {
  constructor(
    private readonly describer: DescribeService,
    private readonly applications: ApplicationsService,
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
}
