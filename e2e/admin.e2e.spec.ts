// The admin area over real HTTP (ADR 0020): gateway → admin (own database, audit log, limits in
// Redis) → submissions and identity. The gate, the token on every call, every moderation transition
// and every refused one, a rejection reason the clipper sees, placeholder profiles claimed once, the
// paged list with its header figures, and the audit of it all.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@clipit/testing';
import type { GatewayApp } from '../services/gateway/src/app.js';
import { DEVELOPMENT_TOKEN_SECRET, issueAdminToken } from '../services/admin/src/app.js';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

let seq = 0;
function person(prefix: string) {
  seq += 1;
  const tag = `${Date.now().toString(36).slice(-5)}${seq}`;
  return { handle: `${prefix}_${tag}`.slice(0, 15), email: `${prefix}${tag}@example.com` };
}
let postSeq = 0;
const postUrl = () => `https://x.com/clipper/status/${Date.now()}${String((postSeq += 1)).padStart(4, '0')}`;

interface AdminSubmission {
  id: string;
  status: string;
  addedToFeed: string;
  rejectedReason: string | null;
  clipperHandle: string | null;
  hasVideo: string;
  platform: string;
  walletAddress: string;
}

describe('the admin area (gateway + admin + submissions + identity, real servers)', () => {
  let p: Platform;
  let token = '';
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const admin = (path: string, init: RequestInit = {}) =>
    api(path, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } });
  const moderate = (id: string, action: string, body: unknown = {}) => admin(`/api/admin/submissions/${id}/${action}`, json('POST', body));

  async function signUp(role: 'clipper' | 'streamer', extra: Record<string, unknown> = {}) {
    const who = person(role === 'streamer' ? 'st' : 'cl');
    const res = await api(
      '/api/auth/signup',
      json('POST', { email: who.email, twitterHandle: who.handle, walletAddress: WALLET, role, password: 'a-good-password', ...extra }),
    );
    const text = await res.text();
    if (res.status !== 201) return { status: res.status, text, cookie: '', id: '', handle: who.handle, body: undefined };
    const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    const body = JSON.parse(text) as { user: { id: string }; claimedProfile?: { displayName: string } };
    return { status: 201, text, cookie: `clipit.sid=${sid}`, id: body.user.id, handle: who.handle, body };
  }

  async function submit(cookie: string): Promise<string> {
    const res = await api(
      '/api/submissions',
      json('POST', { name: 'A clip to moderate', url: postUrl(), walletAddress: '', additionalInfo: 'notes for the admin' }, { cookie }),
    );
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  let clipper: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    // Admin samples the platform's health every half second here (every minute by default).
    p = await startPlatform({}, { ADMIN_SYSTEM_METRICS_INTERVAL_MS: '500' });
    const res = await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }));
    expect(res.status).toBe(200);
    token = ((await res.json()) as { token: string }).token;
    clipper = await signUp('clipper');
  });
  afterAll(async () => {
    await p?.stop();
  });

  describe('the gate', () => {
    it('answers a token and its expiry for the right password, and 401 Incorrect password for a wrong one', async () => {
      const res = await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { token: string; expiresAt: string };
      expect(body.token).toMatch(/^v1\./);
      expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now() + 3_000_000);
      await expectText(await api('/api/admin/verify-password', json('POST', { password: 'not it' })), 401, 'Incorrect password');
      await expectText(await api('/api/admin/verify-password', json('POST', {})), 400, 'Password is required');
      await expectText(await api('/api/admin/verify-password', json('POST', { password: 'x', extra: 1 })), 400, 'Unknown field: extra');
    });

    it('refuses every admin call without a token, with a wrong one and with an expired one', async () => {
      const routes: [string, RequestInit?][] = [
        ['/api/admin/submissions'],
        ['/api/admin/placeholder-streamers'],
        ['/api/clipper-applications'],
        ['/api/admin/audit'],
        ['/api/admin/system-metrics'],
        ['/api/admin/submissions/00000000-0000-4000-8000-000000000000/approve', json('POST', {})],
        ['/api/admin/placeholder-streamers', json('POST', { displayName: 'X', twitterUsername: 'x' })],
      ];
      const expired = issueAdminToken({ secret: DEVELOPMENT_TOKEN_SECRET, password: E2E_ADMIN_PASSWORD }, -1).token;
      const forged = issueAdminToken({ secret: DEVELOPMENT_TOKEN_SECRET, password: 'another password' }, 3600).token;
      for (const [path, init] of routes) {
        await expectText(await api(path, init), 401, 'Admin authorization required');
        await expectText(
          await api(path, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
          }),
          401,
          'Admin authorization required',
        );
        // The password itself is not a token.
        await expectText(
          await api(path, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${E2E_ADMIN_PASSWORD}` },
          }),
          401,
          'Invalid admin token',
        );
        await expectText(
          await api(path, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${forged}` } }),
          401,
          'Invalid admin token',
        );
        await expectText(
          await api(path, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${expired}` } }),
          401,
          'Your admin session has expired. Enter the password again.',
        );
      }
    });

    it('limits attempts per client address across gateway replicas, with Retry-After, and other addresses go on', async () => {
      // Two gateway replicas behind a proxy that names the client; both reach the one admin service.
      const replicas: GatewayApp[] = [await p.startGateway({ TRUST_PROXY: 'true' }), await p.startGateway({ TRUST_PROXY: 'true' })];
      const attempt = (i: number, password: string, ip: string) =>
        fetch(
          `${replicas[i % 2]!.httpUrl}/api/admin/verify-password`,
          json('POST', { password }, { 'x-forwarded-for': ip, origin: replicas[i % 2]!.httpUrl }),
        );
      const ip = '203.0.113.77';
      const statuses: number[] = [];
      for (let i = 0; i < 10; i += 1) statuses.push((await attempt(i, 'wrong guess', ip)).status);
      expect(statuses).toEqual(Array(10).fill(401));
      const limited = await attempt(10, E2E_ADMIN_PASSWORD, ip);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);
      expect(await limited.text()).toBe('Too many attempts. Please wait a few minutes and try again.');
      expect((await attempt(11, E2E_ADMIN_PASSWORD, '203.0.113.78')).status).toBe(200);
      const refusedRows = await p.adminDb.query(`SELECT result, detail FROM audit_entries WHERE client_ip = $1 ORDER BY created_at`, [ip]);
      expect(refusedRows.rows).toHaveLength(11);
      expect(refusedRows.rows.at(-1)).toMatchObject({ result: 'refused', detail: expect.stringMatching(/^rate limited/) });
    });
  });

  describe('moderation', () => {
    it('lists every submission newest first with the clipper, the wallet, the platform and the header figures', async () => {
      const first = await submit(clipper.cookie);
      const second = await submit(clipper.cookie);
      const res = await admin('/api/admin/submissions?limit=2');
      expect(res.status).toBe(200);
      const page = (await res.json()) as {
        submissions: AdminSubmission[];
        nextCursor: string | null;
        total: number;
        createdLast7Days: number;
      };
      expect(page.submissions.map((s) => s.id)).toEqual([second, first]);
      expect(page.submissions[0]).toMatchObject({
        status: 'pending',
        addedToFeed: 'false',
        hasVideo: 'false',
        platform: 'twitter',
        clipperHandle: clipper.handle,
        walletAddress: WALLET,
        additionalInfo: 'notes for the admin',
      });
      expect(page.total).toBeGreaterThanOrEqual(2);
      expect(page.createdLast7Days).toBe(page.total);
      await expectText(await admin('/api/admin/submissions?limit=0'), 400, 'limit must be a whole number from 1 to 200');
      await expectText(await admin('/api/admin/submissions?cursor=bogus'), 400, 'Invalid cursor');
    });

    it('pages through every submission without a gap or a repeat while new ones arrive', async () => {
      for (let i = 0; i < 5; i += 1) await submit(clipper.cookie);
      const total = ((await (await admin('/api/admin/submissions?limit=1')).json()) as { total: number }).total;
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
        const page = (await (await admin(`/api/admin/submissions${query}`)).json()) as {
          submissions: AdminSubmission[];
          nextCursor: string | null;
        };
        seen.push(...page.submissions.map((s) => s.id));
        cursor = page.nextCursor;
        // A submission created mid-walk is newer than every page still to come: it does not shift them.
        if (seen.length === 3) await submit(clipper.cookie);
      } while (cursor);
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
    });

    it('filters the moderation queue by status, platform and flags, pending first otherwise, and refuses an unknown filter in words', async () => {
      const kept = await submit(clipper.cookie);
      const turnedDown = await submit(clipper.cookie);
      expect((await moderate(turnedDown, 'reject')).status).toBe(200);
      const list = async (query: string) =>
        ((await (await admin(`/api/admin/submissions?limit=200${query}`)).json()) as { submissions: AdminSubmission[] }).submissions;

      const everything = await list('');
      const firstDecided = everything.findIndex((s) => s.status !== 'pending');
      expect(everything.slice(firstDecided).every((s) => s.status !== 'pending')).toBe(true);
      const rejected = await list('&status=rejected');
      expect(rejected.map((s) => s.id)).toContain(turnedDown);
      expect(rejected.every((s) => s.status === 'rejected')).toBe(true);
      const pending = await list('&status=pending&platform=twitter');
      expect(pending.map((s) => s.id)).toContain(kept);
      expect(pending.every((s) => s.status === 'pending' && s.platform === 'twitter')).toBe(true);
      expect(await list('&platform=tiktok')).toEqual([]);
      // No clip here has a video, so none matched, none is risky and no check warned.
      expect(await list('&flags=matched,risky,failed-checks')).toEqual([]);

      await expectText(await admin('/api/admin/submissions?status=held'), 400, 'status must be one of: pending, approved, rejected');
      await expectText(
        await admin('/api/admin/submissions?platform=youtube'),
        400,
        'platform must be one of: twitter, instagram, tiktok, other',
      );
      await expectText(await admin('/api/admin/submissions?flags=matched,hot'), 400, 'flags must be among: matched, risky, failed-checks');
      await expectText(
        await admin('/api/admin/submissions?status=pending&status=approved'),
        400,
        'status must be given once, as a short text',
      );
    });

    it('allows exactly the transitions of spec 02 §4 and refuses the others with 409 and a sentence', async () => {
      const id = await submit(clipper.cookie);
      await expectText(await moderate(id, 'add-to-feed'), 409, 'Only an approved submission can be in the feed (this one is pending)');
      await expectText(await moderate(id, 'remove-from-feed'), 409, 'Only an approved submission can be in the feed (this one is pending)');
      let res = await moderate(id, 'approve');
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id, status: 'approved', addedToFeed: 'false', clipperHandle: clipper.handle });
      await expectText(await moderate(id, 'approve'), 409, 'Only a pending submission can be approved (this one is approved)');
      await expectText(await moderate(id, 'reject'), 409, 'Only a pending submission can be rejected (this one is approved)');
      await expectText(await moderate(id, 'remove-from-feed'), 409, 'This submission is not in the feed');
      res = await moderate(id, 'add-to-feed');
      expect(await res.json()).toMatchObject({ status: 'approved', addedToFeed: 'true' });
      await expectText(await moderate(id, 'add-to-feed'), 409, 'This submission is already in the feed');
      res = await moderate(id, 'remove-from-feed');
      expect(await res.json()).toMatchObject({ status: 'approved', addedToFeed: 'false' });

      const both = await submit(clipper.cookie);
      res = await moderate(both, 'approve-and-add-to-feed');
      expect(await res.json()).toMatchObject({ status: 'approved', addedToFeed: 'true' });
      await expectText(
        await moderate(both, 'approve-and-add-to-feed'),
        409,
        'Only a pending submission can be approved (this one is approved)',
      );

      const rejected = await submit(clipper.cookie);
      expect((await moderate(rejected, 'reject')).status).toBe(200);
      for (const action of ['approve', 'approve-and-add-to-feed', 'reject']) {
        expect((await moderate(rejected, action)).status).toBe(409);
      }
      await expectText(
        await moderate(rejected, 'add-to-feed'),
        409,
        'Only an approved submission can be in the feed (this one is rejected)',
      );
    });

    it('answers 404 for an unknown submission and 400 for a body that is not empty', async () => {
      await expectText(await moderate('00000000-0000-4000-8000-000000000000', 'approve'), 404, 'Submission not found');
      await expectText(await moderate('not-an-id', 'approve'), 404, 'Submission not found');
      const id = await submit(clipper.cookie);
      await expectText(await moderate(id, 'approve', { force: true }), 400, 'Unknown field: force');
      await expectText(await moderate(id, 'reject', { reason: 'x'.repeat(501) }), 400, 'Rejection reason must be at most 500 characters');
      // Nothing was changed by the refusals.
      const { rows } = await p.submissionsDb.query(`SELECT status FROM submissions WHERE id = $1`, [id]);
      expect(rows[0]).toEqual({ status: 'pending' });
    });

    it('stores a rejection reason that the clipper then reads in GET /api/submissions', async () => {
      const id = await submit(clipper.cookie);
      const res = await moderate(id, 'reject', { reason: '  The watermark is missing.  ' });
      expect(await res.json()).toMatchObject({ status: 'rejected', rejectedReason: 'The watermark is missing.' });
      const mine = (await (await api('/api/submissions', { headers: { cookie: clipper.cookie } })).json()) as Array<{
        id: string;
        status: string;
        rejectedReason: string | null;
      }>;
      expect(mine.find((s) => s.id === id)).toMatchObject({ status: 'rejected', rejectedReason: 'The watermark is missing.' });
      // A moderation event went out through submissions' outbox.
      const { rows } = await p.submissionsDb.query(
        `SELECT count(*)::int AS n FROM outbox WHERE type = 'submission.rejected' AND envelope->'data'->'submission'->>'id' = $1`,
        [id],
      );
      expect(rows[0]).toEqual({ n: 1 });
    });

    it('audits every command with its target, result, token and correlation id', async () => {
      const id = await submit(clipper.cookie);
      const correlationId = `e2e-audit-${Date.now()}`;
      expect((await admin(`/api/admin/submissions/${id}/approve`, json('POST', {}, { 'x-correlation-id': correlationId }))).status).toBe(
        200,
      );
      expect((await admin(`/api/admin/submissions/${id}/approve`, json('POST', {}))).status).toBe(409);
      const res = await admin('/api/admin/audit?limit=5');
      expect(res.status).toBe(200);
      const { entries } = (await res.json()) as { entries: Array<Record<string, unknown>> };
      expect(entries.slice(0, 2)).toEqual([
        expect.objectContaining({
          action: 'approve',
          target: `submission ${id}`,
          result: 'refused',
          detail: 'Only a pending submission can be approved (this one is approved)',
        }),
        expect.objectContaining({
          action: 'approve',
          target: `submission ${id}`,
          result: 'ok',
          correlationId,
          actor: expect.any(String),
          clientIp: expect.any(String),
        }),
      ]);
    });
  });

  describe('placeholder streamers', () => {
    it('creates one with a claim code, which a streamer claims at sign-up once; the list shows who and when', async () => {
      const handle = person('ph').handle;
      const res = await admin(
        '/api/admin/placeholder-streamers',
        json('POST', {
          displayName: 'Placeholder Star',
          twitterUsername: handle,
          streamerMultiplier: 1.5,
          profileImageUrl: '',
          bannerImageUrl: null,
        }),
      );
      expect(res.status).toBe(201);
      const created = (await res.json()) as { id: string; claimCode: string; streamerMultiplier: string; claimedBy: string | null };
      expect(created).toMatchObject({ streamerMultiplier: '1.50', claimedBy: null, claimCode: expect.stringMatching(/^CLAIM-/) });

      const streamer = await signUp('streamer', { claimCode: created.claimCode });
      expect(streamer.status).toBe(201);
      expect(streamer.body?.claimedProfile).toEqual({ displayName: 'Placeholder Star' });
      const late = await signUp('streamer', { claimCode: created.claimCode });
      expect([late.status, late.text]).toEqual([400, 'This claim code has already been used']);

      const list = (await (await admin('/api/admin/placeholder-streamers')).json()) as Array<Record<string, unknown>>;
      expect(list.find((x) => x['id'] === created.id)).toMatchObject({
        claimedBy: streamer.id,
        claimedByHandle: streamer.handle,
        claimedAt: expect.any(String),
      });
    });

    it("refuses what spec 02 §5 refuses, in identity's words, and writes nothing", async () => {
      const before = await p.count(`SELECT count(*) FROM users WHERE is_placeholder = 'true'`);
      const cases: [Record<string, unknown>, number, string][] = [
        [{ twitterUsername: 'someone' }, 400, 'Display name is required'],
        [{ displayName: 'Someone', streamerMultiplier: 2.5 }, 400, 'Twitter username is required'],
        [
          { displayName: 'Someone', twitterUsername: person('ph').handle, streamerMultiplier: 2.5 },
          400,
          'Streamer multiplier must be a number from 1.00 to 2.00 in steps of 0.01',
        ],
        [
          { displayName: 'Someone', twitterUsername: person('ph').handle, streamerMultiplier: '1.005' },
          400,
          'Streamer multiplier must be a number from 1.00 to 2.00 in steps of 0.01',
        ],
        [{ displayName: 'Someone', twitterUsername: clipper.handle }, 409, ''],
      ];
      for (const [body, status, text] of cases) {
        const res = await admin('/api/admin/placeholder-streamers', json('POST', body));
        const answer = await res.text();
        expect([res.status, text === '' ? 'any' : answer]).toEqual([status, text === '' ? 'any' : text]);
        expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      }
      expect(await p.count(`SELECT count(*) FROM users WHERE is_placeholder = 'true'`)).toBe(before);
    });
  });
  describe('clipper applications', () => {
    const application = (overrides: Record<string, unknown> = {}) => ({
      fullName: 'Grace Applicant',
      email: `${person('ap').email}`,
      socialMediaHandles: '@grace on X, @grace on TikTok',
      availabilityHours: '30',
      experience: 'Three years of cutting stream highlights into vertical clips.',
      whyJoin: 'I clip every day anyway and want to be paid per approved clip.',
      portfolioLinks: 'https://example.com/reel',
      ...overrides,
    });

    it('takes an application from a visitor, and only admins read it, newest first, with every field', async () => {
      const body = application({ email: `  Grace.${Date.now()}@Example.com ` });
      const res = await api('/api/clipper-applications', json('POST', body));
      expect(res.status).toBe(201);
      const received = (await res.json()) as { id: string; status: string; message: string };
      expect(received).toEqual({
        id: expect.any(String),
        status: 'pending',
        message: "Thanks for applying! We'll review your application and get back to you by email.",
      });

      await expectText(await api('/api/clipper-applications'), 401, 'Admin authorization required');
      const page = (await (await admin('/api/clipper-applications?limit=1')).json()) as {
        applications: Array<Record<string, unknown>>;
        total: number;
        nextCursor: string | null;
      };
      expect(page.total).toBeGreaterThanOrEqual(1);
      expect(page.applications[0]).toEqual({
        id: received.id,
        fullName: 'Grace Applicant',
        email: (body.email as string).trim().toLowerCase(),
        socialMediaHandles: '@grace on X, @grace on TikTok',
        availabilityHours: 30,
        experience: body.experience,
        whyJoin: body.whyJoin,
        portfolioLinks: 'https://example.com/reel',
        status: 'pending',
        notes: null,
        reviewedBy: null,
        reviewedAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it('refuses what spec 02 §5 refuses, and a second pending application for one email, writing nothing', async () => {
      const before = Number((await p.campaignsDb.query('SELECT count(*) AS n FROM clipper_applications')).rows[0].n);
      const cases: [Record<string, unknown>, number, string][] = [
        [{ fullName: 'G' }, 400, 'Full name must be at least 2 characters'],
        [{ email: 'not an email' }, 400, 'Please enter a valid email address'],
        [{ experience: 'too short' }, 400, 'Please provide more details about your experience (at least 20 characters)'],
        [{ whyJoin: 'x'.repeat(2001) }, 400, 'Response is too long'],
        [{ socialMediaHandles: 'x'.repeat(501) }, 400, 'Social media handles are too long'],
        [{ portfolioLinks: 'x'.repeat(1001) }, 400, 'Portfolio links are too long'],
        [{ availabilityHours: 0 }, 400, 'Must be at least 1 hour'],
        [{ availabilityHours: 169 }, 400, 'Cannot exceed 168 hours per week'],
        [{ status: 'approved' }, 400, 'Unknown field: status'],
      ];
      for (const [change, status, text] of cases)
        await expectText(await api('/api/clipper-applications', json('POST', application(change))), status, text);
      expect(Number((await p.campaignsDb.query('SELECT count(*) AS n FROM clipper_applications')).rows[0].n)).toBe(before);

      const twice = application();
      expect((await api('/api/clipper-applications', json('POST', twice))).status).toBe(201);
      await expectText(
        await api('/api/clipper-applications', json('POST', { ...twice, email: (twice.email as string).toUpperCase() })),
        409,
        'An application for this email is already pending review',
      );
    });

    it('limits applications per address (valid ones only), with Retry-After, across gateway replicas', async () => {
      const replicas = [
        await p.startGateway({ TRUST_PROXY: 'true', APPLICATION_LIMIT_PER_IP: 2 }),
        await p.startGateway({ TRUST_PROXY: 'true', APPLICATION_LIMIT_PER_IP: 2 }),
      ];
      const send = (i: number, body: Record<string, unknown>, ip: string) =>
        fetch(
          `${replicas[i % 2]!.httpUrl}/api/clipper-applications`,
          json('POST', body, { 'x-forwarded-for': ip, origin: replicas[i % 2]!.httpUrl }),
        );
      const ip = '203.0.113.90';
      expect((await send(0, application({ fullName: 'x' }), ip)).status).toBe(400);
      expect((await send(1, application(), ip)).status).toBe(201);
      expect((await send(0, application(), ip)).status).toBe(201);
      const limited = await send(1, application(), ip);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3000);
      // The window is an hour, rounded up so nobody comes back too early.
      expect(await limited.text()).toBe('Too many applications from your network. Try again in 1 hour.');
      expect((await send(0, application(), '203.0.113.91')).status).toBe(201);
    });
  });
  describe('system metrics (spec 02 §3)', () => {
    interface Metric {
      metricType: string;
      metricName: string;
      value: number | null;
      unit: string;
      status: string;
      threshold: number | null;
      metadata: Record<string, unknown>;
      series: Array<{ at: string; value: number | null }>;
    }
    interface Answer {
      sampledAt: string | null;
      intervalMs: number;
      metrics: Metric[];
    }

    it('is refused without the admin bearer, as text', async () => {
      await expectText(await api('/api/admin/system-metrics'), 401, 'Admin authorization required');
    });

    it("answers the latest sample: every service's readiness, both queues, the dead letters and each consumer's lag, with status and 24-hour series", async () => {
      const read = async (): Promise<Answer> => {
        const res = await admin('/api/admin/system-metrics');
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        return (await res.json()) as Answer;
      };
      const answer = await waitFor(async () => {
        const a = await read();
        // Consumers register as their services start: wait for a sample that has them.
        return a.sampledAt && a.metrics.some((m) => m.metricType === 'consumer_lag' && m.metricName === 'feed') ? a : undefined;
      }, 15_000);
      expect(answer.intervalMs).toBe(500);
      // Every metric in one line each, so a failure shows the whole sample.
      const seen = answer.metrics.map(
        (m) =>
          `${m.metricType} ${m.metricName}: ${m.value} ${m.unit} ${m.status} (threshold ${m.threshold}, critical ${String(m.metadata['critical'])}, ${m.series.length} points${m.metadata['error'] ? `, ${String(m.metadata['error'])}` : ''})`,
      );
      const line = (type: string, name: string) => seen.find((l) => l.startsWith(`${type} ${name}:`));
      const expected = [
        ...['admin', 'campaigns', 'feed', 'identity', 'rewards', 'social', 'submissions'].map(
          (service) => [`readiness ${service}`, /: (1 ready ok|0\.5 ready warning) \(threshold 1, critical 0, [1-9]\d* points\)$/] as const,
        ),
        ['queue_depth media', /: \d+ jobs ok \(threshold 100, critical 1000, [1-9]\d* points\)$/] as const,
        ['queue_depth metrics', /: \d+ jobs ok \(threshold 100, critical 1000, [1-9]\d* points\)$/] as const,
        [`dead_letters ${p.names.stream}_DLQ`, /: 0 events ok \(threshold 0, critical 50, [1-9]\d* points\)$/] as const,
        ['consumer_lag feed', /: \d+ messages (ok|warning) \(threshold 500, critical 5000, [1-9]\d* points\)$/] as const,
      ];
      const wrong = expected.filter(([key, pattern]) => {
        const [type, name] = key.split(' ') as [string, string];
        return !pattern.test(line(type, name) ?? '');
      });
      expect({ wrong: wrong.map(([key]) => key), seen }).toEqual({ wrong: [], seen });
    });
  });
});
