import { identityV1, protoFile } from '@clipit/contracts';
import { createGrpcClient, type PromiseClient } from '@clipit/service-kit';

/** The identity service's gRPC API, answering Promises; failures are GrpcCallError with the owner's message. */
export type IdentityClient = PromiseClient<identityV1.IdentityServiceClient> & { close(): void };

export const IDENTITY_CLIENT = Symbol('IDENTITY_CLIENT');

export function createIdentityClient(url: string): IdentityClient {
  return createGrpcClient<identityV1.IdentityServiceClient>({
    url,
    packageName: identityV1.IDENTITY_V1_PACKAGE_NAME,
    serviceName: identityV1.IDENTITY_SERVICE_NAME,
    protoFile: protoFile('identity'),
  });
}
