import { feedV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { DescribeService } from '../services/describe.service.js';

/** feed.v1.FeedService: one application-service call per method; the rules live in the services. */
@GrpcService()
@feedV1.FeedServiceControllerMethods()
export class FeedController implements feedV1.FeedServiceController {
  constructor(private readonly describer: DescribeService) {}

  describe(): Promise<feedV1.Description> {
    return this.describer.describe();
  }
}
