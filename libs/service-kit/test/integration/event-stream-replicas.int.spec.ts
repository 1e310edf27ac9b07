// EVENTS_STREAM_REPLICAS (ADR 0054): the events stream and its dead-letter stream are kept in as many copies as
// asked, on a 3-node JetStream cluster of the test's own; a stream made with another count is scaled to it at
// the next boot, and a single server that cannot keep more than one copy stops the boot naming the variable.
import { deleteEventStreams, isolatedNames, startNatsCluster, testInfra, type NatsCluster } from '@clipit/testing';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectNats, dlqStreamName, ensureEventStreams, jetstreamManager, type StreamNames } from '../../src/bus/jetstream.js';
import { connectEventBus } from '../../src/process/startup.js';

/** Each stream's count as configured, and the nodes holding a copy (the leader and its replicas). */
async function copies(nc: NatsConnection, names: StreamNames) {
  const jsm = await jetstreamManager(nc);
  const out: Record<string, { replicas: number; nodes: number }> = {};
  for (const name of [names.stream, dlqStreamName(names)]) {
    const info = await jsm.streams.info(name);
    out[name] = { replicas: info.config.num_replicas, nodes: (info.cluster?.leader ? 1 : 0) + (info.cluster?.replicas?.length ?? 0) };
  }
  return out;
}

describe('the event streams on a JetStream cluster', () => {
  let cluster: NatsCluster;
  beforeAll(async () => {
    cluster = await startNatsCluster(3);
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('are made with the count asked for, scaled to a new count at the next boot, and left alone when none is given', async () => {
    const names = { stream: 'REPLICAS_EVENTS', subjectPrefix: 'replicas' };
    // The boot reaches the cluster through NATS_URL's comma list, spaces and all.
    const nc = await connectEventBus(cluster.url.split(',').join(', '), 'replicas-test', names, { replicas: 1 });
    try {
      expect(await copies(nc, names)).toEqual({
        REPLICAS_EVENTS: { replicas: 1, nodes: 1 },
        REPLICAS_EVENTS_DLQ: { replicas: 1, nodes: 1 },
      });
      await ensureEventStreams(nc, names, { replicas: 3 });
      expect(await copies(nc, names)).toEqual({
        REPLICAS_EVENTS: { replicas: 3, nodes: 3 },
        REPLICAS_EVENTS_DLQ: { replicas: 3, nodes: 3 },
      });
      // A caller that does not say (a test harness, a tool) keeps the operator's count.
      await ensureEventStreams(nc, names);
      expect((await copies(nc, names))['REPLICAS_EVENTS']).toEqual({ replicas: 3, nodes: 3 });
    } finally {
      await nc.close();
    }
  });
});

describe('the event streams on a single server', () => {
  it('refuse more than one copy, naming EVENTS_STREAM_REPLICAS', async () => {
    const iso = isolatedNames('replicas');
    const names = { stream: iso.stream, subjectPrefix: iso.subjectPrefix };
    const nc = await connectNats(testInfra().natsUrl, 'replicas-single-test');
    try {
      await expect(ensureEventStreams(nc, names, { replicas: 3 })).rejects.toThrow(
        `stream ${names.stream} could not be made with 3 replicas (EVENTS_STREAM_REPLICAS): replicas > 1 not supported in non-clustered mode`,
      );
    } finally {
      await deleteEventStreams(nc, names.stream).catch(() => undefined);
      await nc.close();
    }
  });
});
