import { socialContract } from '@clipit/contracts';
import { contractClient, type ClientOf } from '@clipit/service-kit';
import { startServiceUnderTest } from '@clipit/testing';
import { bootstrapSocial, type SocialApp, type SocialConfigOverrides } from '../../src/app.js';

/**
 * One social per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have. `stop()` closes it and removes what the run made.
 * To read what it publishes: `collectEvents(names.stream, `${names.subjectPrefix}.social.>`)` from @clipit/testing.
 */
export interface SocialHarness {
  app: SocialApp;
  client: ClientOf<typeof socialContract>;
  httpUrl: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

export async function startSocial(overrides: SocialConfigOverrides = {}): Promise<SocialHarness> {
  const service = await startServiceUnderTest('social', 'SOCIAL', bootstrapSocial, overrides);
  const client = contractClient(socialContract, service.grpcAddress);
  return {
    app: service.app,
    client,
    httpUrl: service.app.httpUrl,
    databaseUrl: service.databaseUrl,
    async stop() {
      client.close();
      await service.stop();
    },
  };
}
