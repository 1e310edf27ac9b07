import type { identityV1, ProcessVideoJob } from '@clipit/contracts';
import type { PromiseClient } from '@clipit/service-kit';

/** Where accepted videos go to be processed (the media queue); `enqueue` is idempotent per video id. */
export interface MediaQueuePort {
  enqueue(job: ProcessVideoJob): Promise<void>;
  close(): Promise<void>;
}

/** The identity calls submissions makes (checking a tagged streamer or token exists). */
export type IdentityPort = Pick<PromiseClient<identityV1.IdentityServiceClient>, 'getToken' | 'getUser'>;
