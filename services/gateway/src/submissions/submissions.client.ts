import { protoFile, submissionsV1 } from '@clipit/contracts';
import { createGrpcClient, type PromiseClient } from '@clipit/service-kit';

/** The submissions service's gRPC API, answering Promises; failures are GrpcCallError with the owner's message. */
export type SubmissionsClient = PromiseClient<submissionsV1.SubmissionsServiceClient> & { close(): void };

export const SUBMISSIONS_CLIENT = Symbol('SUBMISSIONS_CLIENT');

export function createSubmissionsClient(url: string): SubmissionsClient {
  return createGrpcClient<submissionsV1.SubmissionsServiceClient>({
    url,
    packageName: submissionsV1.SUBMISSIONS_V1_PACKAGE_NAME,
    serviceName: submissionsV1.SUBMISSIONS_SERVICE_NAME,
    protoFile: protoFile('submissions'),
    // Finalizing stats the upload in storage and queues it; give it more than a lookup.
    deadlineMs: 15_000,
  });
}
