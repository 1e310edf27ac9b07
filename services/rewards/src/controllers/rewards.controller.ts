import { rewardsV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { DescribeService } from '../services/describe.service.js';

/** rewards.v1.RewardsService: one application-service call per method; the rules live in the services. */
@GrpcService()
@rewardsV1.RewardsServiceControllerMethods()
export class RewardsController implements rewardsV1.RewardsServiceController {
  constructor(private readonly describer: DescribeService) {}

  describe(): Promise<rewardsV1.Description> {
    return this.describer.describe();
  }
}
