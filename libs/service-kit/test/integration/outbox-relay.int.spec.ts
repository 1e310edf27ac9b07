import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { waitFor } from '@clipit/testing';
import { Outbox } from '../../src/bus/outbox.js';
import { OutboxRelay } from '../../src/bus/relay.js';
import { createBusHarness, sampleUser, type BusHarness } from '../fixtures/bus-harness.js';

describe('transactional outbox and relay (real Postgres and NATS JetStream)', () => {
  let h: BusHarness;
  let relay: OutboxRelay;
  let outbox: Outbox;

  beforeAll(async () => {
    h = await createBusHarness('relay');
    outbox = new Outbox(h.names.subjectPrefix);
    relay = new OutboxRelay({
      dataSource: h.dataSource,
      databaseUrl: h.databaseUrl,
      nc: h.nc,
      stream: h.names.stream,
      logger: h.logger,
      pollIntervalMs: 200,
    });
    await relay.start();
  });

  afterAll(async () => {
    await relay.stop();
    await h.close();
  });

  it('publishes an event once after its transaction commits, on the versioned subject, with the event id as message id', async () => {
    const before = await h.streamMessageCount();
    const widgetId = randomUUID();
    const envelope = await h.dataSource.transaction(async (m) => {
      await m.query('INSERT INTO widgets (id, name) VALUES ($1, $2)', [widgetId, 'committed']);
      return outbox.append(m, 'user.registered', sampleUser('committed'));
    });

    await waitFor(async () => ((await h.streamMessageCount()) === before + 1 ? true : undefined), 5000, 'the event on the stream');
    const jsm = await jetstreamManager(h.nc);
    const stored = await jsm.streams.getMessage(h.names.stream, { last_by_subj: `${h.names.subjectPrefix}.identity.user.registered.v1` });
    expect(stored?.json<{ id: string; type: string; source: string }>()).toMatchObject({
      id: envelope.id,
      type: 'user.registered',
      source: 'identity',
    });
    expect(stored?.header?.get('Nats-Msg-Id')).toBe(envelope.id);

    // The relay marks the row in the transaction that selected it, which commits just after the publish.
    await waitFor(
      async () => {
        const [row] = (await h.dataSource.query('SELECT published_at FROM outbox WHERE id = $1', [envelope.id])) as [
          { published_at: Date | null },
        ];
        return row.published_at ? true : undefined;
      },
      5000,
      'the row marked published',
    );

    // A relay that crashed after publishing but before marking the row publishes it again: JetStream drops the duplicate.
    await h.dataSource.query('UPDATE outbox SET published_at = NULL WHERE id = $1', [envelope.id]);
    relay.kick();
    await waitFor(
      async () => {
        const [r] = (await h.dataSource.query('SELECT published_at FROM outbox WHERE id = $1', [envelope.id])) as [
          { published_at: Date | null },
        ];
        return r.published_at ? true : undefined;
      },
      5000,
      'the row marked again',
    );
    expect(await h.streamMessageCount()).toBe(before + 1);
  });

  it('never publishes an event whose transaction rolled back', async () => {
    const before = await h.streamMessageCount();
    const widgetId = randomUUID();
    await expect(
      h.dataSource.transaction(async (m) => {
        await m.query('INSERT INTO widgets (id, name) VALUES ($1, $2)', [widgetId, 'rolled back']);
        await outbox.append(m, 'user.registered', sampleUser('rolledback'));
        throw new Error('the state change failed after the event was written');
      }),
    ).rejects.toThrow('state change failed');

    // Give the relay every chance: a notification, a poll and an explicit drain.
    relay.kick();
    await relay.drain();
    await new Promise((r) => setTimeout(r, 500));
    expect(await h.streamMessageCount()).toBe(before);
    expect(
      await h.dataSource.query(
        "SELECT count(*)::int AS n FROM outbox WHERE envelope->>'type' = $1 AND envelope->'data'->'user'->>'twitterUsername' = $2",
        ['user.registered', 'rolledback'],
      ),
    ).toEqual([{ n: 0 }]);
    expect(await h.dataSource.query('SELECT count(*)::int AS n FROM widgets WHERE id = $1', [widgetId])).toEqual([{ n: 0 }]);
  });

  it('refuses an event whose data does not match its schema, rolling the state change back', async () => {
    const widgetId = randomUUID();
    await expect(
      h.dataSource.transaction(async (m) => {
        await m.query('INSERT INTO widgets (id, name) VALUES ($1, $2)', [widgetId, 'bad event']);
        await outbox.append(m, 'user.registered', { user: { id: 'not-a-uuid' } } as never);
      }),
    ).rejects.toThrow();
    expect(await h.dataSource.query('SELECT count(*)::int AS n FROM widgets WHERE id = $1', [widgetId])).toEqual([{ n: 0 }]);
  });

  it('refuses to write an event outside a transaction', async () => {
    await expect(outbox.append(h.dataSource.manager, 'user.registered', sampleUser('outside'))).rejects.toThrow('inside a transaction');
  });

  it('keeps publishing in commit order across many events', async () => {
    const before = await h.streamMessageCount();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const e = await h.dataSource.transaction((m) =>
        outbox.append(m, 'user.updated', { user: sampleUser(`u${i}`).user, changed: ['displayName'] }),
      );
      ids.push(e.id);
    }
    await waitFor(async () => ((await h.streamMessageCount()) === before + 25 ? true : undefined), 10000, '25 events');
    const js = jetstream(h.nc);
    const jsm = await jetstreamManager(h.nc);
    const name = `order_${randomUUID().slice(0, 8)}`;
    await jsm.consumers.add(h.names.stream, {
      name,
      filter_subject: `${h.names.subjectPrefix}.identity.user.updated.v1`,
      ack_policy: 'none',
      deliver_policy: 'all',
    });
    const consumer = await js.consumers.get(h.names.stream, name);
    const seen: string[] = [];
    const batch = await consumer.fetch({ max_messages: 25, expires: 3000 });
    for await (const m of batch) seen.push(m.json<{ id: string }>().id);
    expect(seen).toEqual(ids);
  });
});
