import { socialV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { DescribeService } from '../services/describe.service.js';

/** social.v1.SocialService: one application-service call per method; the rules live in the services. */
@GrpcService()
@socialV1.SocialServiceControllerMethods()
export class SocialController implements socialV1.SocialServiceController {
  constructor(private readonly describer: DescribeService) {}

  describe(): Promise<socialV1.Description> {
    return this.describer.describe();
  }
}
