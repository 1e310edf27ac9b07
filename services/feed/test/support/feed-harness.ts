import { feedContract } from '@clipit/contracts';
import { contractClient, type ClientOf } from '@clipit/service-kit';
import { startServiceUnderTest } from '@clipit/testing';
import { bootstrapFeed, type FeedApp, type FeedConfigOverrides } from '../../src/app.js';

/**
 * One feed per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have. `stop()` closes it and removes what the run made.
 * To read what it publishes: `collectEvents(names.stream, `${names.subjectPrefix}.feed.>`)` from @clipit/testing.
 */
export interface FeedHarness {
  app: FeedApp;
  client: ClientOf<typeof feedContract>;
  httpUrl: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

export async function startFeed(overrides: FeedConfigOverrides = {}): Promise<FeedHarness> {
  const service = await startServiceUnderTest('feed', 'FEED', bootstrapFeed, overrides);
  const client = contractClient(feedContract, service.grpcAddress);
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
