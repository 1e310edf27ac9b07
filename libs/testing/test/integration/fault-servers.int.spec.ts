// The fault harness's private servers: each starts on free ports with its data in a folder of its own,
// keeps what it acknowledged across a SIGKILL and a restart, and leaves nothing behind when closed.
import { afterAll, describe, expect, it } from '@jest/globals';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Redis } from 'ioredis';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { startNatsCluster, startNatsServer, startPostgresServer, startRedisServer, type PrivateServer } from '../../src/faults/servers.js';

const opened: Array<Pick<PrivateServer, 'close'>> = [];
afterAll(async () => {
  for (const s of opened) await s.close();
});

describe('private servers for fault tests', () => {
  it('NATS keeps a stored JetStream message across a SIGKILL and answers again on the same port', async () => {
    const nats = await startNatsServer();
    opened.push(nats);
    let nc = await connect({ servers: nats.url });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'FAULTS', subjects: ['faults.>'] });
    await jetstream(nc).publish('faults.one', 'kept');
    await nc.close();

    await nats.process.kill();
    expect(nats.process.state).toBe('killed');
    await nats.process.start();

    nc = await connect({ servers: nats.url });
    const info = await (await jetstreamManager(nc)).streams.info('FAULTS');
    expect(info.state.messages).toBe(1);
    await nc.close();
    expect(nats.process.unexpectedExits()).toEqual([]);
  });

  it('a 3-node NATS cluster: a stream of three copies takes messages with a node SIGKILLed, and the node started again catches up', async () => {
    const cluster = await startNatsCluster(3);
    opened.push(cluster);
    expect(cluster.url.split(',')).toEqual(cluster.nodes.map((n) => n.url));
    expect(await cluster.metaLeader()).toMatch(/^clipit-nats-[123]$/);
    const nc = await connect({ servers: cluster.url.split(','), maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    try {
      await (await jetstreamManager(nc)).streams.add({ name: 'FAULTS', subjects: ['faults.>'], num_replicas: 3 });
      const js = jetstream(nc);
      await js.publish('faults.one', 'before');
      const leader = await cluster.streamLeader('FAULTS');
      expect(leader).toBeDefined();
      // A follower this client is not connected to, so neither an election nor a reconnection makes the test
      // longer; the fault suite kills the leader under the services.
      const follower = cluster.nodes.find((n) => n !== leader && n.name !== nc.info?.server_name)!;
      await cluster.kill(follower);
      expect(follower.process.state).toBe('killed');
      for (let i = 0; i < 20; i += 1) await js.publish('faults.one', `while-down-${i}`);
      const behind = (await cluster.streamViews('FAULTS')).map((v) => v.node);
      expect(behind).not.toContain(follower.name);

      await cluster.restart(follower);
      const caught = await cluster.caughtUp(follower, 'FAULTS', 15_000);
      expect(caught).toMatchObject({ agreed: true, node: { node: follower.name, state: { messages: 21, last_seq: 21 } } });
      expect((await cluster.streamLeader('FAULTS'))?.name).toMatch(/^clipit-nats-[123]$/);
    } finally {
      await nc.close();
    }
    await cluster.close();
    for (const node of cluster.nodes) expect(existsSync(node.dataDir)).toBe(false);
    expect(cluster.nodes.flatMap((n) => n.process.unexpectedExits())).toEqual([]);
  });

  it('Redis keeps an acknowledged write across a SIGKILL (append-only file synced on every write)', async () => {
    const redis = await startRedisServer();
    opened.push(redis);
    let client = new Redis(redis.url);
    await client.set('faults:key', 'kept');
    client.disconnect();
    await redis.process.kill();
    await redis.process.start();
    client = new Redis(redis.url);
    expect(await client.get('faults:key')).toBe('kept');
    client.disconnect();
  });

  it('PostgreSQL keeps a committed row across a SIGKILL; close() removes its folder', async () => {
    const postgres = await startPostgresServer();
    let client = new pg.Client({ connectionString: `${postgres.url}/postgres` });
    await client.connect();
    await client.query('CREATE TABLE kept (v text)');
    await client.query(`INSERT INTO kept VALUES ('kept')`);
    await client.end();
    await postgres.process.kill();
    await postgres.process.start();
    client = new pg.Client({ connectionString: `${postgres.url}/postgres` });
    await client.connect();
    expect((await client.query('SELECT v FROM kept')).rows).toEqual([{ v: 'kept' }]);
    await client.end();
    await postgres.close();
    expect(existsSync(postgres.dataDir)).toBe(false);
    expect(postgres.process.state).toBe('stopped');
  });

  it('a paused server holds its port but answers nothing until resumed', async () => {
    const redis = await startRedisServer();
    opened.push(redis);
    const client = new Redis(redis.url, { commandTimeout: 300, maxRetriesPerRequest: 0 });
    redis.process.pause();
    await expect(client.ping()).rejects.toThrow();
    redis.process.resume();
    expect(await client.ping()).toBe('PONG');
    client.disconnect();
  });
});
