import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status } from '@grpc/grpc-js';
import { ConfigError, GrpcCallError } from '@clipit/service-kit';
import pg from 'pg';
import { bootstrapAdmin } from '../../src/app.js';
import { startAdmin, type AdminHarness } from '../support/admin-harness.js';

// admin started by the kit against the real Postgres, NATS and Redis: the gate, the limit shared by
// replicas, the token on every command, the audit log, and owners that are away.

const PASSWORD = 'a-test-admin-password';

async function refusal(call: Promise<unknown>): Promise<[number, string]> {
  try {
    await call;
  } catch (err) {
    if (err instanceof GrpcCallError) return [err.code, err.message];
    throw err;
  }
  throw new Error('the call succeeded');
}

describe('admin', () => {
  let h: AdminHarness;
  let db: pg.Client;
  beforeAll(async () => {
    // The owners it calls are not running: their ports are closed.
    h = await startAdmin({
      ADMIN_PASSWORD: PASSWORD,
      ADMIN_LOGIN_MAX_PER_IP: 4,
      SUBMISSIONS_GRPC_URL: '127.0.0.1:1',
      IDENTITY_GRPC_URL: '127.0.0.1:1',
      CAMPAIGNS_GRPC_URL: '127.0.0.1:1',
    });
    db = new pg.Client({ connectionString: h.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await h?.stop();
  });

  it('is ready once its database answers; the owners it calls are reported, not required', async () => {
    const res = await fetch(`${h.httpUrl}/health/ready`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; checks: Record<string, string> };
    expect(body.checks).toMatchObject({ postgres: 'ok', redis: 'ok' });
  });

  it('says over gRPC what it runs: name, version and the migrations its database has', async () => {
    await expect(h.client.describe({})).resolves.toEqual({
      service: 'admin',
      version: '0.1.0',
      migrations: ['CreateEventBusTables1763700000000', 'CreateAuditEntries1764200000000', 'CreateSystemMetrics1764900000000'],
    });
  });

  it('answers a token for the right password, 401 for a wrong one, and audits both without the password', async () => {
    expect(await refusal(h.client.verifyPassword({ password: 'wrong', clientIp: '198.51.100.1' }))).toEqual([
      status.UNAUTHENTICATED,
      'Incorrect password',
    ]);
    expect(await refusal(h.client.verifyPassword({ password: '', clientIp: '198.51.100.1' }))).toEqual([
      status.INVALID_ARGUMENT,
      'Password is required',
    ]);
    const granted = await h.client.verifyPassword({ password: PASSWORD, clientIp: '198.51.100.1' });
    expect(granted.token).toMatch(/^v1\.\d+\.[\w-]+\.[\w-]+$/);
    expect(new Date(granted.expiresAt!).getTime() - Date.now()).toBeGreaterThan(3500_000);
    const { rows } = await db.query<{ action: string; result: string; detail: string; client_ip: string }>(
      `SELECT action, result, detail, client_ip FROM audit_entries ORDER BY created_at`,
    );
    expect(rows.map((r) => [r.action, r.result, r.client_ip])).toEqual([
      ['verify-password', 'refused', '198.51.100.1'],
      ['verify-password', 'ok', '198.51.100.1'],
    ]);
    const everything = JSON.stringify(await db.query('SELECT * FROM audit_entries'));
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain(granted.token);
  });

  it('limits attempts per address, counted in Redis so a second replica sees the same count', async () => {
    const second = await startAdmin({ ADMIN_PASSWORD: PASSWORD, ADMIN_LOGIN_MAX_PER_IP: 4, REDIS_KEY_PREFIX: h.redisKeyPrefix });
    try {
      const ip = '203.0.113.9';
      await refusal(h.client.verifyPassword({ password: 'nope', clientIp: ip }));
      await refusal(second.client.verifyPassword({ password: 'nope', clientIp: ip }));
      await refusal(h.client.verifyPassword({ password: 'nope', clientIp: ip }));
      await refusal(second.client.verifyPassword({ password: 'nope', clientIp: ip }));
      // The fifth, even with the right password, is over the limit on either replica.
      const limited = await second.client.verifyPassword({ password: PASSWORD, clientIp: ip });
      expect(limited.token).toBeUndefined();
      expect(limited.retryAfterSeconds).toBeGreaterThan(800);
      expect((await h.client.verifyPassword({ password: PASSWORD, clientIp: ip })).token).toBeUndefined();
      // Another address is not affected.
      expect((await h.client.verifyPassword({ password: PASSWORD, clientIp: '203.0.113.10' })).token).toBeDefined();
      const { rows } = await db.query(
        `SELECT 1 FROM audit_entries WHERE client_ip = $1 AND result = 'refused' AND detail LIKE 'rate limited%'`,
        [ip],
      );
      expect(rows).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });

  it('refuses every command without a valid token, with a sentence', async () => {
    expect(await refusal(h.client.listSubmissions({} as never))).toEqual([status.UNAUTHENTICATED, 'Admin authorization required']);
    expect(await refusal(h.client.reviewCampaign({ campaignId: 'x', decision: 'approve' } as never))).toEqual([
      status.UNAUTHENTICATED,
      'Admin authorization required',
    ]);
    expect(await refusal(h.client.listAudit({ caller: { token: 'v1.1.abc.def', clientIp: '' } }))).toEqual([
      status.UNAUTHENTICATED,
      'Invalid admin token',
    ]);
    const other = await startAdmin({ ADMIN_PASSWORD: 'another-password' });
    try {
      const foreign = await other.client.verifyPassword({ password: 'another-password', clientIp: '192.0.2.1' });
      expect(
        await refusal(h.client.moderate({ caller: { token: foreign.token!, clientIp: '' }, submissionId: 'x', action: 'approve' })),
      ).toEqual([status.UNAUTHENTICATED, 'Invalid admin token']);
    } finally {
      await other.stop();
    }
  });

  it('ends a token when it expires', async () => {
    const shortLived = await startAdmin({ ADMIN_PASSWORD: PASSWORD, ADMIN_TOKEN_TTL_SECONDS: 1 });
    try {
      const { token } = await shortLived.client.verifyPassword({ password: PASSWORD, clientIp: '192.0.2.2' });
      await expect(shortLived.client.listAudit({ caller: { token: token!, clientIp: '' } })).resolves.toBeDefined();
      await new Promise((r) => setTimeout(r, 1100));
      expect(await refusal(shortLived.client.listAudit({ caller: { token: token!, clientIp: '' } }))).toEqual([
        status.UNAUTHENTICATED,
        'Your admin session has expired. Enter the password again.',
      ]);
    } finally {
      await shortLived.stop();
    }
  });

  it('says which owner is away, and audits a command that could not be carried out as failed', async () => {
    const { token } = await h.client.verifyPassword({ password: PASSWORD, clientIp: '192.0.2.3' });
    const caller = { token: token!, clientIp: '192.0.2.3' };
    expect(await refusal(h.client.listSubmissions({ caller, flags: [] }))).toEqual([
      status.UNAVAILABLE,
      'The submissions service is unavailable right now. Please try again shortly.',
    ]);
    expect(await refusal(h.client.listPlaceholderStreamers({ caller }))).toEqual([
      status.UNAVAILABLE,
      'The identity service is unavailable right now. Please try again shortly.',
    ]);
    expect(await refusal(h.client.listApplications({ caller }))).toEqual([
      status.UNAVAILABLE,
      'The campaigns service is unavailable right now. Please try again shortly.',
    ]);
    expect(await refusal(h.client.moderate({ caller, submissionId: '6f1c0a52-8a4b-4c38-9d55-3f7d3c1e2a10', action: 'approve' }))).toEqual([
      status.UNAVAILABLE,
      'The submissions service is unavailable right now. Please try again shortly.',
    ]);
    expect(await refusal(h.client.moderate({ caller, submissionId: '6f1c0a52-8a4b-4c38-9d55-3f7d3c1e2a10', action: 'publish' }))).toEqual([
      status.INVALID_ARGUMENT,
      'Unknown moderation action: publish',
    ]);
    const { rows } = await db.query<{ action: string; target: string; result: string; actor: string }>(
      `SELECT action, target, result, actor FROM audit_entries WHERE action = 'approve'`,
    );
    expect(rows).toEqual([
      { action: 'approve', target: 'submission 6f1c0a52-8a4b-4c38-9d55-3f7d3c1e2a10', result: 'failed', actor: expect.any(String) },
    ]);
    // Campaigns: the list and a review name the campaigns service; the review is audited as failed.
    expect(await refusal(h.client.listCampaigns({ caller, status: 'pending' }))).toEqual([
      status.UNAVAILABLE,
      'The campaigns service is unavailable right now. Please try again shortly.',
    ]);
    expect(
      await refusal(h.client.reviewCampaign({ caller, campaignId: '0b7f4c1e-6a7d-4c1f-9b59-2f3f1d7c9a10', decision: 'approve' })),
    ).toEqual([status.UNAVAILABLE, 'The campaigns service is unavailable right now. Please try again shortly.']);
    expect(
      await refusal(h.client.reviewCampaign({ caller, campaignId: '0b7f4c1e-6a7d-4c1f-9b59-2f3f1d7c9a10', decision: 'pause' })),
    ).toEqual([status.INVALID_ARGUMENT, 'Unknown campaign decision: pause']);
    const campaignRows = await db.query<{ action: string; target: string; result: string; actor: string }>(
      `SELECT action, target, result, actor FROM audit_entries WHERE action LIKE '%-campaign'`,
    );
    expect(campaignRows.rows).toEqual([
      { action: 'approve-campaign', target: 'campaign 0b7f4c1e-6a7d-4c1f-9b59-2f3f1d7c9a10', result: 'failed', actor: expect.any(String) },
    ]);
  });

  it('pages the audit log newest first, without gaps or repeats', async () => {
    const { token } = await h.client.verifyPassword({ password: PASSWORD, clientIp: '192.0.2.4' });
    const caller = { token: token!, clientIp: '192.0.2.4' };
    const total = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM audit_entries')).rows[0]!.n);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.client.listAudit({ caller, limit: 3, cursor });
      seen.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const newest = await h.client.listAudit({ caller, limit: 1 });
    expect(newest.entries[0]).toMatchObject({ action: 'verify-password', result: 'ok', clientIp: '192.0.2.4' });
    expect(await refusal(h.client.listAudit({ caller, cursor: 'not-a-cursor' }))).toEqual([status.INVALID_ARGUMENT, 'Invalid cursor']);
  });

  it('names a bad variable and starts nothing', async () => {
    await expect(bootstrapAdmin({ ADMIN_HTTP_PORT: 'eighty', LOG_LEVEL: 'silent' })).rejects.toThrow(ConfigError);
  });

  it('refuses to start in production with the development password', async () => {
    await expect(startAdmin({ NODE_ENV: 'production' })).rejects.toThrow(/ADMIN_PASSWORD is the development default/);
  });
});
