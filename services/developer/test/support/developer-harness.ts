import { developerContract } from '@clipit/contracts';
import { contractClient, GrpcCallError, type ClientOf } from '@clipit/service-kit';
import { startServiceUnderTest } from '@clipit/testing';
import { expect } from '@jest/globals';
import { bootstrapDeveloper, developerService, type DeveloperApp, type DeveloperConfigOverrides } from '../../src/app.js';

/**
 * One developer per test file, on its own database (a copy of the run's migrated template), event stream and subject prefix, listening on free
 * ports, with a gRPC client as its callers have. `stop()` closes it and removes what the run made.
 * To read what it publishes: `collectEvents(h.names.stream, `${h.names.subjectPrefix}.developer.>`)` from @clipit/testing.
 */
export interface DeveloperHarness {
  app: DeveloperApp;
  client: ClientOf<typeof developerContract>;
  httpUrl: string;
  databaseUrl: string;
  names: { subjectPrefix: string; stream: string; redisKeyPrefix: string };
  stop(): Promise<void>;
}

export async function startDeveloper(overrides: DeveloperConfigOverrides = {}): Promise<DeveloperHarness> {
  const service = await startServiceUnderTest('developer', 'DEVELOPER', bootstrapDeveloper, overrides, developerService);
  const client = contractClient(developerContract, service.grpcAddress);
  return {
    app: service.app,
    client,
    httpUrl: service.app.httpUrl,
    databaseUrl: service.databaseUrl,
    names: service.names,
    async stop() {
      client.close();
      await service.stop();
    },
  };
}

/** The gRPC status and message a call was refused with (fails the test when it was not refused). */
export async function refusal(call: Promise<unknown>): Promise<[number, string]> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GrpcCallError);
  return [(err as GrpcCallError).code, (err as GrpcCallError).message];
}
