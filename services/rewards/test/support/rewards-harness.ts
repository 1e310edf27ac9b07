import { rewardsContract } from '@clipit/contracts';
import { contractClient, type ClientOf } from '@clipit/service-kit';
import { startServiceUnderTest } from '@clipit/testing';
import { bootstrapRewards, type RewardsApp, type RewardsConfigOverrides } from '../../src/app.js';

/**
 * One rewards per test file, on its own database, event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have. `stop()` closes it and removes what the run made.
 * To read what it publishes: `collectEvents(names.stream, `${names.subjectPrefix}.rewards.>`)` from @clipit/testing.
 */
export interface RewardsHarness {
  app: RewardsApp;
  client: ClientOf<typeof rewardsContract>;
  httpUrl: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

export async function startRewards(overrides: RewardsConfigOverrides = {}): Promise<RewardsHarness> {
  const service = await startServiceUnderTest('rewards', 'REWARDS', bootstrapRewards, overrides);
  const client = contractClient(rewardsContract, service.grpcAddress);
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
