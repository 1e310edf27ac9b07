import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createJobQueue, MEDIA_QUEUE, openQueueReader } from '@clipit/media-queue';
import { AckPolicy, connectNats, jetstream, jetstreamManager, type NatsConnection } from '@clipit/service-kit';
import { freePorts, testInfra, waitFor } from '@clipit/testing';
import pg from 'pg';
import { PlatformProbes } from '../../src/repositories/platform-probes.js';
import { SystemMetricsService } from '../../src/services/system-metrics.service.js';
import { startAdmin, type AdminHarness } from '../support/admin-harness.js';

// The system-metrics sampler (spec 02 §3, ADR 0039) against the real NATS, Redis and Postgres: each
// metric reads what is really there, a part that does not answer is critical, samples past 7 days go,
// and replicas sharing a database never sample one interval twice.

const HOUR = 3600_000;
const PASSWORD = 'a-test-admin-password';

interface Row {
  metric_type: string;
  metric_name: string;
  value: number | null;
  status: string;
  threshold: number | null;
  metadata: Record<string, unknown>;
}

describe('system metrics sampler', () => {
  let h: AdminHarness;
  let db: pg.Client;
  let nc: NatsConnection;
  let deadPort: number;
  beforeAll(async () => {
    const [httpPort, closed] = (await freePorts(2)) as [number, number];
    deadPort = closed;
    h = await startAdmin({
      ADMIN_HTTP_PORT: httpPort,
      ADMIN_PASSWORD: PASSWORD,
      // An hour: the timer never fires during the test, which drives the sampler itself.
      ADMIN_SYSTEM_METRICS_INTERVAL_MS: HOUR,
      ADMIN_HEALTH_TARGETS: `admin=http://127.0.0.1:${httpPort},ghost=http://127.0.0.1:${deadPort}`,
    });
    db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
    nc = await connectNats(testInfra().natsUrl, 'system-metrics-test');
  });
  afterAll(async () => {
    await nc?.close();
    await db?.end();
    await h?.stop();
  });

  const latest = async () =>
    (await db.query<Row>(`SELECT * FROM system_metrics WHERE created_at = (SELECT max(created_at) FROM system_metrics) ORDER BY 1`)).rows;
  const find = (rows: Row[], type: string, name: string) => rows.find((r) => r.metric_type === type && r.metric_name === name);

  it("records each service's readiness, the queues' depths, the dead letters and each consumer's lag, as they really are", async () => {
    // Three videos wait on the media queue, under the deployment's key prefix (no worker takes them here).
    const queue = createJobQueue<object>({ queue: MEDIA_QUEUE, connection: { url: testInfra().redisUrl }, prefix: h.redisKeyPrefix });
    await Promise.all([1, 2, 3].map((i) => queue.add('process-video', {}, { jobId: `video-${i}` })));
    await queue.close();
    // A durable consumer four events behind, and one event it dead-lettered.
    const jsm = await jetstreamManager(nc);
    await jsm.consumers.add(h.stream, { durable_name: 'lagging', ack_policy: AckPolicy.Explicit, filter_subject: `${h.subjectPrefix}.>` });
    const js = jetstream(nc);
    for (let i = 0; i < 4; i += 1) await js.publish(`${h.subjectPrefix}.test.happened.v1`, JSON.stringify({ i }));
    await js.publish(`dlq.${h.subjectPrefix}.lagging.test_happened_v1`, JSON.stringify({ id: 'poison' }));

    const result = await h.app.get(SystemMetricsService).sampleNow();
    expect(result).toMatchObject({ sampled: true });

    const rows = await latest();
    // admin itself answers, degraded: the owners it calls are not running here (reported, not required).
    expect(find(rows, 'readiness', 'admin')).toMatchObject({ value: 0.5, status: 'warning', threshold: 1 });
    expect(find(rows, 'readiness', 'admin')?.metadata).toMatchObject({ httpStatus: 200, checks: { postgres: 'ok' } });
    // Its health address does not answer: critical, the error kept, the rest of the sample taken all the same.
    const ghost = find(rows, 'readiness', 'ghost');
    expect(ghost).toMatchObject({ value: 0, status: 'critical' });
    expect(ghost?.metadata['error']).toEqual(expect.stringMatching(/ECONNREFUSED/));
    expect(find(rows, 'queue_depth', 'media')).toMatchObject({ value: 3, status: 'ok', threshold: 100 });
    expect(find(rows, 'queue_depth', 'media')?.metadata).toMatchObject({ waiting: 3 });
    expect(find(rows, 'queue_depth', 'metrics')).toMatchObject({ value: 0, status: 'ok' });
    expect(find(rows, 'dead_letters', `${h.stream}_DLQ`)).toMatchObject({ value: 1, status: 'warning', threshold: 0 });
    expect(find(rows, 'dead_letters', `${h.stream}_DLQ`)?.metadata).toMatchObject({ byConsumer: { lagging: 1 } });
    expect(find(rows, 'consumer_lag', 'lagging')).toMatchObject({ value: 4, status: 'ok' });
    expect(find(rows, 'consumer_lag', 'lagging')?.metadata).toMatchObject({ numPending: 4, numAckPending: 0 });
  });

  it('records a queue whose Redis does not answer as critical with the error, without a value', async () => {
    const reader = openQueueReader({ queue: 'media', connection: { url: `redis://127.0.0.1:${deadPort}` }, prefix: h.redisKeyPrefix });
    try {
      const s = await h.app.get(PlatformProbes).queueDepth('media', reader);
      expect(s).toMatchObject({ metricType: 'queue_depth', value: null, status: 'critical' });
      expect(s.metadata['error']).toEqual(expect.stringMatching(/Redis|ECONNREFUSED/));
    } finally {
      await reader.close();
    }
  });

  it('samples an interval once, and deletes samples older than 7 days when it samples', async () => {
    const sampler = h.app.get(SystemMetricsService);
    const later = new Date(Date.now() + 2 * HOUR);
    await db.query(
      `INSERT INTO system_metrics (id, metric_type, metric_name, value, unit, status, threshold, metadata, created_at)
       VALUES (gen_random_uuid(), 'readiness', 'old', 1, 'ready', 'ok', 1, '{}', $1), (gen_random_uuid(), 'readiness', 'recent', 1, 'ready', 'ok', 1, '{}', $2)`,
      [new Date(later.getTime() - 8 * 24 * HOUR), new Date(later.getTime() - 6 * 24 * HOUR)],
    );
    await expect(sampler.sampleNow(later)).resolves.toMatchObject({ sampled: true, deleted: 1 });
    // The same interval again (this replica's next tick, or another replica's): nothing more is sampled.
    await expect(sampler.sampleNow(new Date(later.getTime() + 1000))).resolves.toEqual({ sampled: false, metrics: 0, deleted: 0 });
    const names = (await db.query<{ metric_name: string }>(`SELECT metric_name FROM system_metrics WHERE metric_name IN ('old', 'recent')`))
      .rows;
    expect(names.map((r) => r.metric_name)).toEqual(['recent']);
  });

  it('answers the latest sample with each metric’s 24-hour series over gRPC, to an admin token only', async () => {
    // Two earlier samples in one 15-minute bucket: the series keeps the worse of each (lower readiness, deeper queue).
    const bucket = new Date(Math.floor((Date.now() - 5 * HOUR) / (15 * 60_000)) * 15 * 60_000);
    const inBucket = new Date(bucket.getTime() + 60_000);
    const laterInBucket = new Date(bucket.getTime() + 120_000);
    await db.query(
      `INSERT INTO system_metrics (id, metric_type, metric_name, value, unit, status, threshold, metadata, created_at) VALUES
         (gen_random_uuid(), 'readiness', 'ghost', 1, 'ready', 'ok', 1, '{}', $1),
         (gen_random_uuid(), 'readiness', 'ghost', 0.5, 'ready', 'warning', 1, '{}', $2),
         (gen_random_uuid(), 'queue_depth', 'media', 7, 'jobs', 'ok', 100, '{}', $1),
         (gen_random_uuid(), 'queue_depth', 'media', 40, 'jobs', 'ok', 100, '{}', $2)`,
      [inBucket, laterInBucket],
    );
    const { token } = await h.client.verifyPassword({ password: PASSWORD, clientIp: '203.0.113.9' });
    const answer = await h.client.getSystemMetrics({ caller: { token: token!, clientIp: '203.0.113.9' } });
    expect(answer.intervalMs).toBe(HOUR);
    const ghost = answer.metrics.find((m) => m.metricName === 'ghost');
    expect(ghost).toMatchObject({ metricType: 'readiness', status: 'critical', value: 0, unit: 'ready' });
    expect(JSON.parse(ghost!.metadataJson)).toMatchObject({ error: expect.stringMatching(/ECONNREFUSED/) });
    expect(ghost!.series).toContainEqual({ at: bucket.toISOString(), value: 0.5 });
    const media = answer.metrics.find((m) => m.metricType === 'queue_depth' && m.metricName === 'media');
    expect(media!.series).toContainEqual({ at: bucket.toISOString(), value: 40 });
    // Oldest first, each bucket once.
    const times = media!.series.map((p) => Date.parse(p.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
    await expect(h.client.getSystemMetrics({ caller: { token: 'v1.nope', clientIp: '203.0.113.9' } })).rejects.toThrow(
      /Invalid admin token/,
    );
  });
});

describe('system metrics with two replicas on one database', () => {
  let a: AdminHarness;
  let b: AdminHarness;
  let db: pg.Client;
  const INTERVAL = 400;
  beforeAll(async () => {
    const common = { ADMIN_SYSTEM_METRICS_INTERVAL_MS: INTERVAL, ADMIN_HEALTH_TARGETS: '' };
    a = await startAdmin(common);
    b = await startAdmin({ ...common, ADMIN_DATABASE_URL: a.databaseUrl, EVENTS_STREAM: a.stream, EVENTS_SUBJECT_PREFIX: a.subjectPrefix });
    db = new pg.Client({ connectionString: a.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await b?.stop();
    await a?.stop();
  });

  it('takes one sample per interval between them, never two', async () => {
    const runs = async () =>
      (await db.query<{ slot: Date; sampled_by: string }>(`SELECT slot, sampled_by FROM system_metric_runs ORDER BY slot`)).rows;
    await waitFor(async () => ((await runs()).length >= 5 ? true : undefined), 15_000, 'five sampled intervals');
    const samples = (
      await db.query<{ at: Date }>(`SELECT DISTINCT created_at AS at FROM system_metrics WHERE metric_type = 'dead_letters'`)
    ).rows;
    const slots = samples.map((s) => Math.floor(s.at.getTime() / INTERVAL));
    expect(new Set(slots).size).toBe(slots.length);
  });
});
