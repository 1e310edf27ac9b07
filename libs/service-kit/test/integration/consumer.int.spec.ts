import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { subjectFor, type EventType } from '@clipit/contracts';
import { connectNats } from '../../src/bus/jetstream.js';
import { isChildOf, startInMemoryTracing, waitFor, testInfra, type InMemoryTracing, type ReadableSpan } from '@clipit/testing';
import { SpanKind } from '@opentelemetry/api';
import { EventConsumer } from '../../src/bus/consumer.js';
import { HandlerRegistry, type EventHandler } from '../../src/bus/handlers.js';
import { dlqStreamName, dlqSubject } from '../../src/bus/jetstream.js';
import { Outbox } from '../../src/bus/outbox.js';
import { OutboxRelay } from '../../src/bus/relay.js';
import { createBusHarness, sampleUser, type BusHarness } from '../fixtures/bus-harness.js';

/** A handler that records every application in `applied`, so "once" can be counted. */
function recordingHandler(consumer: string, seen: string[]): EventHandler<'user.registered'> {
  return async (event, tx) => {
    seen.push(event.id);
    await tx.query(
      'INSERT INTO applied (event_id, consumer) VALUES ($1, $2) ON CONFLICT (event_id, consumer) DO UPDATE SET times = applied.times + 1',
      [event.id, consumer],
    );
  };
}

describe('durable consumer with inbox and dead-letter (real Postgres and NATS JetStream)', () => {
  let h: BusHarness;
  let relay: OutboxRelay;
  let outbox: Outbox;
  const running: EventConsumer[] = [];

  beforeAll(async () => {
    h = await createBusHarness('consumer');
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

  afterEach(async () => {
    await Promise.all(running.splice(0).map((c) => c.stop()));
  });

  afterAll(async () => {
    await relay.stop();
    await h.close();
  });

  async function emit(type: EventType, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const data = type === 'user.registered' ? sampleUser(`u${i}`) : { user: sampleUser(`u${i}`).user, changed: ['displayName'] };
      ids.push((await h.dataSource.transaction((m) => outbox.append(m, type, data as never))).id);
    }
    return ids;
  }

  async function appliedTimes(consumer: string): Promise<Map<string, number>> {
    const rows = (await h.dataSource.query('SELECT event_id, times FROM applied WHERE consumer = $1', [consumer])) as Array<{
      event_id: string;
      times: number;
    }>;
    return new Map(rows.map((r) => [r.event_id, r.times]));
  }

  it('shares one durable consumer between two replicas and applies each event exactly once', async () => {
    const name = `replicas_${randomUUID().slice(0, 8)}`;
    const seenA: string[] = [];
    const seenB: string[] = [];
    const ncB = await connectNats(testInfra().natsUrl, 'replica-b');
    const make = (nc: typeof h.nc, seen: string[]) =>
      new EventConsumer({
        name,
        nc,
        names: h.names,
        dataSource: h.dataSource,
        registry: new HandlerRegistry().on('user.registered', async (e, tx) => {
          await new Promise((r) => setTimeout(r, 5)); // some work, so both replicas get a share
          await recordingHandler(name, seen)(e, tx);
        }),
        subscriptions: ['user.registered'],
        logger: h.logger,
        batchSize: 2,
      });
    const a = make(h.nc, seenA);
    const b = make(ncB, seenB);
    await a.start();
    await b.start();
    running.push(a, b);

    const ids = await emit('user.registered', 60);
    const applied = await waitFor(
      async () => {
        const m = await appliedTimes(name);
        return ids.every((id) => m.has(id)) ? m : undefined;
      },
      20000,
      'all 60 events applied',
    );

    expect([...applied.values()].every((t) => t === 1)).toBe(true);
    expect(new Set([...seenA, ...seenB]).size).toBe(60);
    expect(seenA.length + seenB.length).toBe(60);
    expect(seenA.length).toBeGreaterThan(0);
    expect(seenB.length).toBeGreaterThan(0);
    const [{ n }] = (await h.dataSource.query('SELECT count(*)::int AS n FROM inbox WHERE consumer = $1', [name])) as [{ n: number }];
    expect(n).toBe(60);
    await ncB.close();
  });

  it('changes nothing when the same event arrives again (redelivery or a republish outside the dedupe window)', async () => {
    const name = `dup_${randomUUID().slice(0, 8)}`;
    const seen: string[] = [];
    const consumer = new EventConsumer({
      name,
      nc: h.nc,
      names: h.names,
      dataSource: h.dataSource,
      registry: new HandlerRegistry().on('user.registered', recordingHandler(name, seen)),
      subscriptions: ['user.registered'],
      logger: h.logger,
    });
    await consumer.start();
    running.push(consumer);
    const [id] = await emit('user.registered', 1);
    await waitFor(async () => ((await appliedTimes(name)).get(id!) ? true : undefined), 10000, 'first application');

    // The same envelope published again under a different message id, as after the dedupe window.
    const jsm = await jetstreamManager(h.nc);
    const original = await jsm.streams.getMessage(h.names.stream, { last_by_subj: subjectFor('user.registered', h.names.subjectPrefix) });
    const pub = await jetstream(h.nc).publish(subjectFor('user.registered', h.names.subjectPrefix), original!.data, {
      msgID: randomUUID(),
    });
    await waitFor(
      async () => {
        const info = await jsm.consumers.info(h.names.stream, name);
        return info.ack_floor.stream_seq >= pub.seq ? true : undefined;
      },
      10000,
      'the duplicate acked',
    );

    expect((await appliedTimes(name)).get(id!)).toBe(1);
    expect(seen.filter((s) => s === id)).toHaveLength(1);
  });

  it('retries a failing handler with backoff, then parks the event on the dead-letter subject', async () => {
    const name = `dlq_${randomUUID().slice(0, 8)}`;
    const attempts: number[] = [];
    const consumer = new EventConsumer({
      name,
      nc: h.nc,
      names: h.names,
      dataSource: h.dataSource,
      registry: new HandlerRegistry().on('user.updated', async (_e, tx) => {
        attempts.push(Date.now());
        await tx.query('INSERT INTO widgets (id, name) VALUES ($1, $2)', [randomUUID(), 'half-written']);
        throw new Error('downstream rejected the update');
      }),
      subscriptions: ['user.updated'],
      logger: h.logger,
      maxAttempts: 3,
      backoffMs: [100, 300],
    });
    await consumer.start();
    running.push(consumer);
    const widgetsBefore = ((await h.dataSource.query('SELECT count(*)::int AS n FROM widgets')) as [{ n: number }])[0].n;
    const [id] = await emit('user.updated', 1);

    const jsm = await jetstreamManager(h.nc);
    const dead = await waitFor(
      async () => {
        try {
          return (
            (await jsm.streams.getMessage(dlqStreamName(h.names), { last_by_subj: dlqSubject(h.names, name, 'user.updated') })) ?? undefined
          );
        } catch {
          return undefined;
        }
      },
      15000,
      'the dead letter',
    );

    expect(dead!.json<{ id: string }>().id).toBe(id);
    expect(dead!.header?.get('Clipit-Attempts')).toBe('3');
    expect(dead!.header?.get('Clipit-Error')).toContain('downstream rejected the update');
    expect(dead!.header?.get('Clipit-Original-Subject')).toBe(subjectFor('user.updated', h.names.subjectPrefix));
    expect(attempts).toHaveLength(3);
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(90);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(280);
    // Every attempt rolled back: no handler writes, no inbox row.
    expect(((await h.dataSource.query('SELECT count(*)::int AS n FROM widgets')) as [{ n: number }])[0].n).toBe(widgetsBefore);
    expect(await h.dataSource.query('SELECT count(*)::int AS n FROM inbox WHERE consumer = $1', [name])).toEqual([{ n: 0 }]);
    // Terminated: the server does not deliver it again.
    await new Promise((r) => setTimeout(r, 800));
    expect(attempts).toHaveLength(3);

    // And a person can read it: `npm run dlq -- <consumer>`.
    const listing = execFileSync(process.execPath, [fileURLToPath(new URL('../../../../scripts/dlq.mjs', import.meta.url)), name], {
      env: { ...process.env, NATS_URL: testInfra().natsUrl, EVENTS_STREAM: h.names.stream },
      encoding: 'utf8',
    });
    expect(listing).toContain(`consumer=${name}  type=user.updated  event=${id}  attempts=3`);
    expect(listing).toContain('error: downstream rejected the update');
    expect(listing).toContain('1 dead letter(s) of ' + name);
  });

  it('dead-letters a message that is not a valid envelope at once, and acks types it does not handle', async () => {
    const name = `poison_${randomUUID().slice(0, 8)}`;
    const seen: string[] = [];
    const consumer = new EventConsumer({
      name,
      nc: h.nc,
      names: h.names,
      dataSource: h.dataSource,
      registry: new HandlerRegistry().on('user.registered', recordingHandler(name, seen)).on('user.updated', async () => undefined),
      subscriptions: ['user.registered', 'user.updated'],
      logger: h.logger,
    });
    await consumer.start();
    running.push(consumer);
    const hdr = headers();
    await jetstream(h.nc).publish(`${h.names.subjectPrefix}.identity.user.registered.v1`, 'this is not json', {
      headers: hdr,
      msgID: randomUUID(),
    });
    const jsm = await jetstreamManager(h.nc);
    const dead = await waitFor(
      async () => {
        try {
          return (
            (await jsm.streams.getMessage(dlqStreamName(h.names), { last_by_subj: dlqSubject(h.names, name, 'unknown') })) ?? undefined
          );
        } catch {
          return undefined;
        }
      },
      10000,
      'the poison message dead-lettered',
    );
    expect(dead!.string()).toBe('this is not json');
    expect(dead!.header?.get('Clipit-Attempts')).toBe('1');
  });

  describe('with tracing on (ADR 0054)', () => {
    let tracing: InMemoryTracing;
    beforeAll(async () => {
      tracing = await startInMemoryTracing();
    });
    afterAll(() => tracing.stop());

    const token = () => {
      const now = new Date().toISOString();
      const id = randomUUID();
      return {
        token: {
          id,
          streamerId: randomUUID(),
          name: `T${id.slice(0, 4)}`,
          pumpFunLink: null,
          description: null,
          isActive: 'true' as const,
          createdAt: now,
          updatedAt: now,
        },
      };
    };

    it('links create → send and process, and the consumer’s own event continues the trace; untraced work makes no spans', async () => {
      const name = `traced_${randomUUID().slice(0, 8)}`;
      const applied: string[] = [];
      // Two types, so the consumer filters on the whole prefix and sees events it has no handler for.
      const consumer = new EventConsumer({
        name,
        nc: h.nc,
        names: h.names,
        dataSource: h.dataSource,
        registry: new HandlerRegistry()
          .on('token.changed', async (e, tx) => {
            applied.push(e.id);
            await outbox.append(tx, 'session.ended', { userId: e.data.token.streamerId, sessionKey: 'k'.repeat(43), reason: 'logout' });
          })
          .on('session.ended', async (e) => {
            applied.push(e.id);
          }),
        subscriptions: ['token.changed', 'session.ended'],
        logger: h.logger,
      });
      await consumer.start();
      running.push(consumer);

      const untraced = await h.dataSource.transaction((m) => outbox.append(m, 'token.changed', token()));
      const { root, traced, ignored } = await tracing.traced(async (span) => ({
        root: span,
        ...(await h.dataSource.transaction(async (m) => ({
          traced: await outbox.append(m, 'token.changed', token()),
          // No handler in this consumer: acked with no process span.
          ignored: await outbox.append(m, 'user.updated', { user: sampleUser('bob').user, changed: ['displayName'] }),
        }))),
      }));
      expect(untraced).not.toHaveProperty('traceparent');
      expect(traced.traceparent).toMatch(new RegExp(`^00-${root.spanContext().traceId}-[\\da-f]{16}-01$`));

      const byName = (prefix: string, subject: string) => tracing.spans().filter((s) => s.name === `${prefix} ${subject}`);
      const tokenSubject = subjectFor('token.changed', h.names.subjectPrefix);
      const sessionSubject = subjectFor('session.ended', h.names.subjectPrefix);
      const userSubject = subjectFor('user.updated', h.names.subjectPrefix);
      await waitFor(
        () => (byName('process', sessionSubject).length === 1 && applied.length === 4 ? true : undefined),
        15000,
        'both chains handled',
      );
      await waitFor(async () =>
        (await jetstreamManager(h.nc).then((j) => j.consumers.info(h.names.stream, name))).num_ack_pending === 0 ? true : undefined,
      );

      const one = (prefix: string, subject: string): ReadableSpan => {
        const spans = byName(prefix, subject);
        expect({ span: `${prefix} ${subject}`, count: spans.length }).toEqual({ span: `${prefix} ${subject}`, count: 1 });
        return spans[0]!;
      };
      const createToken = one('create', tokenSubject);
      const sendToken = one('send', tokenSubject);
      const processToken = one('process', tokenSubject);
      const createSession = one('create', sessionSubject);
      const sendSession = one('send', sessionSubject);
      const processSession = one('process', sessionSubject);
      const createUser = one('create', userSubject);
      const sendUser = one('send', userSubject);
      expect(byName('process', userSubject)).toEqual([]);

      expect(isChildOf(createToken, root)).toBe(true);
      expect(isChildOf(createUser, root)).toBe(true);
      expect(isChildOf(sendToken, createToken)).toBe(true);
      expect(isChildOf(processToken, createToken)).toBe(true);
      expect(isChildOf(createSession, processToken)).toBe(true);
      expect(isChildOf(sendSession, createSession)).toBe(true);
      expect(isChildOf(processSession, createSession)).toBe(true);
      expect(isChildOf(sendUser, createUser)).toBe(true);
      expect(sendUser.attributes['messaging.message.id']).toBe(ignored.id);
      expect(traced.traceparent).toContain(createToken.spanContext().spanId);

      expect([createToken.kind, sendToken.kind, processToken.kind]).toEqual([SpanKind.PRODUCER, SpanKind.PRODUCER, SpanKind.CONSUMER]);
      expect(sendToken.attributes).toMatchObject({
        'messaging.system': 'nats',
        'messaging.destination.name': tokenSubject,
        'messaging.message.id': traced.id,
        'clipit.outbox.attempt': 1,
      });
      expect(processToken.attributes).toMatchObject({
        'messaging.consumer.group.name': name,
        'messaging.message.id': traced.id,
        'clipit.delivery_count': 1,
        'clipit.stream_sequence': expect.any(Number),
        'clipit.outcome': 'handled',
      });
      // The span covers the ack: it ended after its own event was appended in the handler's transaction.
      expect(processToken.endTime[0] * 1e9 + processToken.endTime[1]).toBeGreaterThanOrEqual(
        createSession.endTime[0] * 1e9 + createSession.endTime[1],
      );
      // No root spans of the kit's own: the untraced event and the event it caused made none.
      const traceId = root.spanContext().traceId;
      expect(tracing.spans().filter((s) => s.spanContext().traceId !== traceId)).toEqual([]);
    });
  });
});
