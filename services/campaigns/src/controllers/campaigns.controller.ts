import { campaignsV1 } from '@clipit/contracts';
import { DomainError, GrpcService } from '@clipit/service-kit';
import { status } from '@grpc/grpc-js';
import { DescribeService } from '../services/describe.service.js';

/** campaigns.v1.CampaignsService: one application-service call per method; the rules live in the services. */
@GrpcService()
@campaignsV1.CampaignsServiceControllerMethods()
export class CampaignsController implements campaignsV1.CampaignsServiceController {
  constructor(private readonly describer: DescribeService) {}

  describe(): Promise<campaignsV1.Description> {
    return this.describer.describe();
  }

  // Interim until the applications slice lands on this branch (replaced at merge).
  listApplications(): Promise<campaignsV1.ListApplicationsResponse> {
    return Promise.reject(new DomainError(status.UNIMPLEMENTED, 'Clipper applications are not available yet'));
  }
}
