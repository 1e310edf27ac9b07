import { developerV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { ApiKeysService } from '../services/api-keys.service.js';
import { DescribeService } from '../services/describe.service.js';
import { WebhookEndpointsService } from '../services/webhook-endpoints.service.js';

/** developer.v1.DeveloperService: one application-service call per method; the rules live in the services. */
@GrpcService()
@developerV1.DeveloperServiceControllerMethods()
export class DeveloperController implements developerV1.DeveloperServiceController {
  constructor(
    private readonly describer: DescribeService,
    private readonly apiKeys: ApiKeysService,
    private readonly webhooks: WebhookEndpointsService,
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

  createEndpoint(request: developerV1.CreateEndpointRequest): Promise<developerV1.CreatedEndpoint> {
    return this.webhooks.create(request);
  }

  listEndpoints(request: developerV1.ListEndpointsRequest): Promise<developerV1.EndpointList> {
    return this.webhooks.list(request);
  }

  deleteEndpoint(request: developerV1.DeleteEndpointRequest): Promise<developerV1.DeleteEndpointResponse> {
    return this.webhooks.delete(request);
  }

  rotateEndpointSecret(request: developerV1.RotateEndpointSecretRequest): Promise<developerV1.CreatedEndpoint> {
    return this.webhooks.rotate(request);
  }

  enableEndpoint(request: developerV1.EnableEndpointRequest): Promise<developerV1.Endpoint> {
    return this.webhooks.enable(request);
  }

  listDeliveries(request: developerV1.ListDeliveriesRequest): Promise<developerV1.DeliveryPage> {
    return this.webhooks.deliveriesOf(request);
  }

  redeliver(request: developerV1.RedeliverRequest): Promise<developerV1.Delivery> {
    return this.webhooks.redeliver(request);
  }
}
