// Appeals over real servers (ADR 0051): gateway → submissions (appeals, the hold mirror) and admin (the
// decision, audited) → submission.approved / appeal.decided on NATS → rewards (an earning, a release) →
// the weekly payout run. A held earning is made the real way: an approved clip whose second X read shows
// bought views, so its risk puts it under review and rewards holds what it earns.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@clipit/testing';
import { randomUUID } from 'node:crypto';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
let seq = 0;
const postId = () => `18${Date.now()}${String((seq += 1)).padStart(3, '0')}`;

interface AppealJson {
  id: string;
  submissionId: string;
  kind: 'rejection' | 'hold';
  text: string;
  status: 'pending' | 'upheld' | 'overturned';
  rejectedReason: string | null;
  holdReasons: string[];
  decisionReason: string | null;
  postUrl: string;
  clipperHandle?: string | null;
}

describe('appeals (gateway + submissions + admin + rewards + metrics worker, real servers)', () => {
  let p: Platform;
  let adminToken = '';
  let clipper: { id: string; cookie: string; handle: string };
  let other: { id: string; cookie: string; handle: string };
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const asAdmin = (method: string, path: string, body?: unknown) =>
    api(path, json(method, body, { authorization: `Bearer ${adminToken}` }));
  const appeal = (cookie: string, submissionId: string, text: unknown) =>
    api(`/api/submissions/${submissionId}/appeal`, json('POST', { text }, { cookie }));
  const decide = (appealId: string, outcome: string, reason: string) =>
    asAdmin('POST', `/api/admin/appeals/${appealId}/decide`, { outcome, reason });

  async function signUp(prefix: string) {
    const handle = `${prefix}_${Date.now().toString(36).slice(-6)}`;
    const res = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role: 'clipper',
        password: 'a-good-password',
      }),
    );
    expect(res.status).toBe(201);
    return {
      id: ((await res.json()) as { user: { id: string } }).user.id,
      cookie: `clipit.sid=${/clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1]}`,
      handle,
    };
  }

  async function submit(cookie: string, id = postId()): Promise<{ submissionId: string; code: string; postId: string }> {
    const res = await api(
      '/api/submissions',
      json('POST', { name: `Clip ${id}`, url: `https://x.com/somebody/status/${id}`, walletAddress: '' }, { cookie }),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; verificationCode: string };
    return { submissionId: body.id, code: body.verificationCode, postId: id };
  }

  const moderate = async (id: string, action: 'approve' | 'reject', reason?: string) => {
    const res = await asAdmin('POST', `/api/admin/submissions/${id}/${action}`, reason ? { reason } : {});
    expect(res.status).toBe(200);
  };

  const earningOf = async (cookie: string, submissionId: string) => {
    const res = await api('/api/earnings?limit=50', { headers: { cookie } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { earnings: { submissionId: string; status: string; amount: number }[] }).earnings.find(
      (e) => e.submissionId === submissionId,
    );
  };

  const submissionOf = async (cookie: string, submissionId: string) =>
    ((await (await api('/api/submissions', { headers: { cookie } })).json()) as { id: string; status: string }[]).find(
      (s) => s.id === submissionId,
    );

  const adminList = async (): Promise<AppealJson[]> => {
    const res = await asAdmin('GET', '/api/admin/appeals?limit=200');
    expect(res.status).toBe(200);
    return ((await res.json()) as { appeals: AppealJson[] }).appeals;
  };

  beforeAll(async () => {
    p = await startPlatform({}, {}, { metricsWorker: true });
    adminToken = (
      (await (await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }))).json()) as { token: string }
    ).token;
    clipper = await signUp('ap');
    other = await signUp('ao');
  });
  afterAll(async () => {
    await p?.stop();
  });

  let overturnedRejection = '';

  it('an overturned rejection approves the clip, which then earns', async () => {
    const { submissionId } = await submit(clipper.cookie);
    await moderate(submissionId, 'reject', 'Not a gaming clip');
    const res = await appeal(clipper.cookie, submissionId, '  The game is on screen from the start  ');
    expect(res.status).toBe(201);
    const filed = (await res.json()) as AppealJson;
    expect(filed).toMatchObject({
      submissionId,
      kind: 'rejection',
      status: 'pending',
      text: 'The game is on screen from the start',
      rejectedReason: 'Not a gaming clip',
    });

    const listed = (await adminList()).find((a) => a.id === filed.id);
    expect(listed).toMatchObject({
      clipperHandle: clipper.handle,
      kind: 'rejection',
      rejectedReason: 'Not a gaming clip',
      status: 'pending',
    });
    expect(listed?.postUrl).toContain('https://x.com/somebody/status/');

    const decided = await decide(filed.id, 'overturned', 'The game is visible throughout');
    expect(decided.status).toBe(200);
    expect(await decided.json()).toMatchObject({ status: 'overturned', decisionReason: 'The game is visible throughout' });
    expect((await submissionOf(clipper.cookie, submissionId))?.status).toBe('approved');
    // The usual consequences of an approval: rewards earns it from submission.approved.
    await waitFor(
      async () => ((await earningOf(clipper.cookie, submissionId))?.status === 'pending' ? true : undefined),
      20_000,
      'the earning',
    );
    // The clipper reads the outcome; the admin's step is in the audit log.
    const mine = (await (await api('/api/appeals/mine', { headers: { cookie: clipper.cookie } })).json()) as { appeals: AppealJson[] };
    expect(mine.appeals.find((a) => a.id === filed.id)).toMatchObject({
      status: 'overturned',
      decisionReason: 'The game is visible throughout',
    });
    const audit = await p.adminDb.query<{ action: string; result: string; detail: string }>(
      `SELECT action, result, detail FROM audit_entries WHERE target LIKE $1`,
      [`appeal ${filed.id}%`],
    );
    expect(audit.rows).toEqual([{ action: 'appeal-overturned', result: 'ok', detail: 'reason: The game is visible throughout' }]);
    overturnedRejection = filed.id;
  });

  it('an overturned hold releases the earning, paid by the next payout run', async () => {
    const { submissionId, code, postId: id } = await submit(clipper.cookie);
    p.xApi.setPost(id, {
      text: `Clip of the day ${code}`,
      created_at: new Date(Date.now() - 3600_000).toISOString(),
      metrics: { impression_count: 1_200, like_count: 30, retweet_count: 4, reply_count: 3, quote_count: 1 },
      videoViews: 500,
    });
    await moderate(submissionId, 'approve');
    await waitFor(
      async () => ((await earningOf(clipper.cookie, submissionId))?.status === 'pending' ? true : undefined),
      30_000,
      'the earning',
    );
    const reads = async () => {
      const res = await api(`/api/submissions/${submissionId}/metrics-history`, { headers: { cookie: clipper.cookie } });
      return ((await res.json()) as { points: unknown[] }).points.length;
    };
    await waitFor(async () => ((await reads()) === 1 ? true : undefined), 30_000, 'the first read');
    // Nothing is held yet: nothing to appeal.
    await expectText(
      await appeal(clipper.cookie, submissionId, 'why'),
      400,
      'Only a rejected clip or a clip whose earning is held can be appealed',
    );

    // Bought views on the next read: under review, so rewards holds the earning and submissions hears it.
    p.xApi.setPost(id, {
      metrics: { impression_count: 48_000, like_count: 31, retweet_count: 5, reply_count: 3, quote_count: 1 },
      videoViews: 520,
    });
    await p.submissionsDb.query('UPDATE submissions SET metrics_due_at = now() WHERE id = $1', [submissionId]);
    await waitFor(async () => ((await reads()) === 2 ? true : undefined), 30_000, 'the second read');
    await waitFor(async () => ((await earningOf(clipper.cookie, submissionId))?.status === 'held' ? true : undefined), 20_000, 'the hold');
    await waitFor(
      async () =>
        (await p.submissionsDb.query('SELECT earning_hold FROM submissions WHERE id = $1', [submissionId])).rows[0]?.earning_hold === 'held'
          ? true
          : undefined,
      20_000,
      'submissions to hear of the hold',
    );

    const res = await appeal(clipper.cookie, submissionId, 'I bought nothing; a big account shared it');
    expect(res.status).toBe(201);
    const filed = (await res.json()) as AppealJson;
    expect(filed.kind).toBe('hold');
    expect(filed.holdReasons.length).toBeGreaterThan(0);
    await expectText(await appeal(clipper.cookie, submissionId, 'again'), 409, 'You have already appealed this decision');

    const decided = await decide(filed.id, 'overturned', 'A large account reposted it');
    expect(decided.status).toBe(200);
    await waitFor(
      async () => ((await earningOf(clipper.cookie, submissionId))?.status === 'pending' ? true : undefined),
      20_000,
      'the release',
    );
    const released = await p.rewardsDb.query<{ decision: string; decision_reason: string }>(
      'SELECT decision, decision_reason FROM earnings WHERE submission_id = $1',
      [submissionId],
    );
    expect(released.rows[0]).toEqual({ decision: 'released', decision_reason: 'A large account reposted it' });

    const run = await p.runPayouts(new Date(Date.now() + 8 * 24 * 60 * 60 * 1000));
    expect(run.paid).toBeGreaterThanOrEqual(1);
    expect((await earningOf(clipper.cookie, submissionId))?.status).toBe('paid');
  });

  it('an upheld appeal changes nothing else', async () => {
    const { submissionId } = await submit(clipper.cookie);
    await moderate(submissionId, 'reject', 'Watermarked');
    const filed = (await (await appeal(clipper.cookie, submissionId, 'It is my own watermark')).json()) as AppealJson;
    const decided = await decide(filed.id, 'upheld', 'Watermarks are not allowed');
    expect(decided.status).toBe(200);
    expect(await decided.json()).toMatchObject({ status: 'upheld', decisionReason: 'Watermarks are not allowed' });
    expect((await submissionOf(clipper.cookie, submissionId))?.status).toBe('rejected');
    expect(await earningOf(clipper.cookie, submissionId)).toBeUndefined();
    // Pending first, then oldest first: this one is decided, so after every pending one.
    const list = await adminList();
    const firstDecided = list.findIndex((a) => a.status !== 'pending');
    expect(list.slice(firstDecided).every((a) => a.status !== 'pending')).toBe(true);
  });

  it('answers every bad input with a text the UI can show', async () => {
    const { submissionId } = await submit(clipper.cookie);
    await moderate(submissionId, 'reject', 'Too short');
    // Another clipper's clip, and an unknown one: the same 404.
    await expectText(await appeal(other.cookie, submissionId, 'mine'), 404, 'Submission not found');
    await expectText(await appeal(clipper.cookie, randomUUID(), 'mine'), 404, 'Submission not found');
    await expectText(await appeal(clipper.cookie, 'not-an-id', 'mine'), 400, 'Invalid submission id');
    // A pending clip.
    const pending = await submit(clipper.cookie);
    await expectText(
      await appeal(clipper.cookie, pending.submissionId, 'mine'),
      400,
      'Only a rejected clip or a clip whose earning is held can be appealed',
    );
    // Over 1,000 characters, and blank.
    await expectText(await appeal(clipper.cookie, submissionId, 'x'.repeat(1001)), 400, 'An appeal must be at most 1,000 characters');
    await expectText(await appeal(clipper.cookie, submissionId, '   '), 400, 'Please say why the decision should change');
    // Signed out.
    await expectText(await api(`/api/submissions/${submissionId}/appeal`, json('POST', { text: 'mine' })), 401, 'Not signed in');
    // A second appeal.
    const first = await appeal(clipper.cookie, submissionId, 'x'.repeat(1000));
    expect(first.status).toBe(201);
    const filed = (await first.json()) as AppealJson;
    await expectText(await appeal(clipper.cookie, submissionId, 'again'), 409, 'You have already appealed this decision');

    // The admin's: a bad outcome, no reason, a reason too long, an unknown appeal, a decided one.
    await expectText(await decide(filed.id, 'maybe', 'x'), 400, "Outcome must be 'upheld' or 'overturned'");
    await expectText(await decide(filed.id, 'upheld', ' '), 400, 'A reason is required');
    await expectText(await decide(filed.id, 'upheld', 'x'.repeat(501)), 400, 'Reason must be at most 500 characters');
    await expectText(await decide(randomUUID(), 'upheld', 'x'), 404, 'Appeal not found');
    await expectText(await decide('nope', 'upheld', 'x'), 400, 'Invalid appeal id');
    await expectText(await decide(overturnedRejection, 'upheld', 'again'), 409, 'This appeal has already been decided');
    const audit = await p.adminDb.query<{ result: string }>(`SELECT result FROM audit_entries WHERE target = $1`, [
      `appeal ${overturnedRejection}`,
    ]);
    expect(audit.rows).toEqual([{ result: 'refused' }]);
    // Without the admin token.
    await expectText(await api('/api/admin/appeals'), 401, 'Admin authorization required');

    // The clipper's own list: newest first, and nobody else's.
    const mine = (await (await api('/api/appeals/mine?limit=1', { headers: { cookie: clipper.cookie } })).json()) as {
      appeals: AppealJson[];
      nextCursor: string | null;
    };
    expect(mine.appeals.map((a) => a.id)).toEqual([filed.id]);
    expect(mine.nextCursor).not.toBeNull();
    const theirs = (await (await api('/api/appeals/mine', { headers: { cookie: other.cookie } })).json()) as { appeals: AppealJson[] };
    expect(theirs.appeals).toEqual([]);
    await expectText(await api('/api/appeals/mine'), 401, 'Not signed in');
  });
});
