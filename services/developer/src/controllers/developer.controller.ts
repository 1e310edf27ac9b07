import { developerV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { ApiKeysService } from '../services/api-keys.service.js';
import { DescribeService } from '../services/describe.service.js';

/** developer.v1.DeveloperService: one application-service call per method; the rules live in the services. */
@GrpcService()
@developerV1.DeveloperServiceControllerMethods()
export class DeveloperController implements developerV1.DeveloperServiceController {
  constructor(
    private readonly describer: DescribeService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  describe(): Promise<developerV1.Description> {
    return this.describer.describe();
  }

  createKey(request: developerV1.CreateKeyRequest): Promise<developerV1.CreatedKey> {
    return this.apiKeys.create(request);
  }

  listKeys(request: developerV1.ListKeysRequest): Promise<developerV1.KeyList> {
    return this.apiKeys.list(request);
  }

  revokeKey(request: developerV1.RevokeKeyRequest): Promise<developerV1.RevokeKeyResponse> {
    return this.apiKeys.revoke(request);
  }

  authenticateKey(request: developerV1.AuthenticateKeyRequest): Promise<developerV1.KeyPrincipal> {
    return this.apiKeys.authenticate(request);
  }
}
