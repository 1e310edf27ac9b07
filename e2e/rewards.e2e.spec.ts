// Rewards over real HTTP: gateway → rewards (own database, fed by identity's and submissions' events).
// An approval through the admin area becomes points, a tier's earning, dashboard figures and, after the
// weekly run, a payout in the public ledger; every refusal is text, and an id that is no user is 404.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@clipit/testing';
import { randomUUID } from 'node:crypto';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const NEW_WALLET = 'So11111111111111111111111111111111111111112';
let seq = 0;
const postUrl = () => `https://x.com/clipper/status/${Date.now()}${String((seq += 1)).padStart(4, '0')}`;

describe('rewards (gateway + rewards + identity + submissions + admin, real servers)', () => {
  let p: Platform;
  let adminToken = '';
  let clipper: { id: string; cookie: string };
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const asClipper = (method: string, path: string, body?: unknown) => api(path, json(method, body, { cookie: clipper.cookie }));

  beforeAll(async () => {
    p = await startPlatform();
    adminToken = (
      (await (await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }))).json()) as { token: string }
    ).token;
    const handle = `rw_${Date.now().toString(36).slice(-6)}`;
    const res = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role: 'clipper',
        password: 'a-good-password',
        displayName: 'Rita Rewards',
      }),
    );
    expect(res.status).toBe(201);
    clipper = {
      id: ((await res.json()) as { user: { id: string } }).user.id,
      cookie: `clipit.sid=${/clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1]}`,
    };
  });
  afterAll(async () => {
    await p?.stop();
  });

  async function submit(): Promise<string> {
    const res = await asClipper('POST', '/api/submissions', { name: `Clip ${seq}`, url: postUrl(), walletAddress: '' });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }
  const moderate = (id: string, action: 'approve' | 'reject') =>
    api(`/api/admin/submissions/${id}/${action}`, json('POST', {}, { authorization: `Bearer ${adminToken}` }));

  it('turns an approval into points, an earning and dashboard figures; a rejection into a lower approval rate', async () => {
    const empty = (await (await asClipper('GET', '/api/dashboard')).json()) as Record<string, unknown>;
    expect(empty).toMatchObject({
      user: { id: clipper.id, displayName: 'Rita Rewards', role: 'clipper', currentTier: 1 },
      earningsSummary: { paid: 0, pending: 0, held: 0, total: 0 },
    });

    const approved = await submit();
    expect((await moderate(approved, 'approve')).status).toBe(200);
    await waitFor(
      async () => ((await p.rewardsDb.query('SELECT 1 FROM earnings WHERE submission_id = $1', [approved])).rowCount ? true : undefined),
      15_000,
      'earning made',
    );
    const rejected = await submit();
    expect((await moderate(rejected, 'reject')).status).toBe(200);
    await waitFor(
      async () =>
        (await p.rewardsDb.query("SELECT 1 FROM submissions WHERE id = $1 AND status = 'rejected'", [rejected])).rowCount
          ? true
          : undefined,
      15_000,
      'rejection applied',
    );

    const dashboard = await asClipper('GET', '/api/dashboard');
    expect(dashboard.status).toBe(200);
    expect(await dashboard.json()).toMatchObject({
      user: { id: clipper.id, email: expect.stringContaining('@example.com'), isLive: 'false' },
      tierProgress: {
        currentTier: { name: 'Bronze', ratePerClip: 10 },
        nextTier: { name: 'Silver', ratePerClip: 15 },
        meetsNextTierRequirements: false,
      },
      metrics: { totalApproved: 1, approvedInWindow: 1, approvalRate: 50, avgViews: 0, approvedThisWeek: 1, windowWeeks: 4 },
      earningsSummary: { paid: 0, pending: 10, held: 0, total: 10 },
      recentSubmissions: [
        { id: rejected, status: 'rejected', platform: 'twitter' },
        { id: approved, status: 'approved', rejectedReason: null },
      ],
    });

    // 10 × 1 approved × 0.5.
    const stats = await api(`/api/clipper/stats/${clipper.id}`);
    expect(await stats.json()).toMatchObject({
      points: 5,
      tier: 'bronze',
      rank: 1,
      totalClippers: 1,
      lockedFeatures: ['Streamer Multipliers', 'Hire Button Visibility', 'Paid Campaigns'],
      breakdown: { approvalRatio: 0.5, finalPoints: 5 },
    });
    const refreshed = await asClipper('POST', '/api/clipper/refresh-points');
    expect(refreshed.status).toBe(200);
    expect(await refreshed.json()).toMatchObject({ points: 5 });

    const earnings = (await (await asClipper('GET', '/api/earnings?limit=10')).json()) as {
      earnings: { submissionId: string; amount: number; status: string }[];
      nextCursor: null;
    };
    expect(earnings).toEqual({
      earnings: [expect.objectContaining({ submissionId: approved, amount: 10, status: 'pending', type: 'post' })],
      nextCursor: null,
    });
  });

  it('pays the week’s earnings into the public ledger, and shows them paid', async () => {
    expect(await (await api('/api/payouts')).json()).toEqual({ payouts: [], nextCursor: null });
    const run = await p.runPayouts(new Date(Date.now() + 8 * 24 * 60 * 60 * 1000));
    expect(run).toMatchObject({ paid: 1, amount: '10' });
    const ledger = (await (await api('/api/payouts')).json()) as {
      payouts: { walletAddress: string; amount: number; signature: string }[];
    };
    expect(ledger.payouts).toEqual([
      expect.objectContaining({ walletAddress: WALLET, amount: 10, signature: expect.any(String), driver: 'ledger', earningsCount: 1 }),
    ]);
    expect((await (await asClipper('GET', '/api/earnings/payouts')).json()) as unknown).toEqual(ledger);
    expect(((await (await asClipper('GET', '/api/dashboard')).json()) as { earningsSummary: unknown }).earningsSummary).toEqual({
      paid: 10,
      pending: 0,
      held: 0,
      total: 10,
    });
    const earnings = (await (await asClipper('GET', '/api/earnings')).json()) as { earnings: { status: string; txHash: string }[] };
    expect(earnings.earnings[0]).toMatchObject({ status: 'paid', txHash: ledger.payouts[0]!.signature });
  });

  it('holds the earnings of a replaced wallet for 72 hours: shown to the clipper, unpaid and out of the ledger, then paid to the new wallet', async () => {
    const approved = await submit();
    expect((await moderate(approved, 'approve')).status).toBe(200);
    await waitFor(
      async () => ((await p.rewardsDb.query('SELECT 1 FROM earnings WHERE submission_id = $1', [approved])).rowCount ? true : undefined),
      15_000,
      'earning made',
    );
    // Earned in an earlier week, so the next run owes it.
    await p.rewardsDb.query("UPDATE earnings SET created_at = now() - interval '8 days' WHERE submission_id = $1", [approved]);

    const changed = await asClipper('PATCH', '/api/user/profile', { walletAddress: NEW_WALLET, currentPassword: 'a-good-password' });
    expect(changed.status).toBe(200);
    const changedAt = await waitFor(
      async () =>
        (
          (await p.rewardsDb.query('SELECT wallet_changed_at FROM people WHERE id = $1 AND wallet_address = $2', [clipper.id, NEW_WALLET]))
            .rows[0] as { wallet_changed_at: Date | null } | undefined
        )?.wallet_changed_at ?? undefined,
      15_000,
      'the wallet change reaching rewards',
    );
    const heldUntil = new Date(changedAt.getTime() + 72 * 3_600_000);
    const dashboard = (await (await asClipper('GET', '/api/dashboard')).json()) as {
      payoutHold: { amount: number; reason: string; heldUntil: string } | null;
    };
    expect(dashboard.payoutHold).toEqual({
      amount: 10,
      reason: expect.stringContaining('72 hours'),
      heldUntil: heldUntil.toISOString(),
      walletChangedAt: changedAt.toISOString(),
    });

    const ledgerBefore = (await (await api('/api/payouts')).json()) as { payouts: unknown[] };
    const run = await p.runPayouts(new Date(Date.now() + 3_600_000));
    expect(run.paid).toBe(0);
    expect(run.skipped).toEqual([expect.objectContaining({ userId: clipper.id, heldUntil: heldUntil.toISOString() })]);
    expect(await (await api('/api/payouts')).json()).toEqual(ledgerBefore);
    expect(((await (await asClipper('GET', '/api/dashboard')).json()) as { earningsSummary: unknown }).earningsSummary).toEqual({
      paid: 10,
      pending: 10,
      held: 0,
      total: 20,
    });

    expect((await p.releaseHolds(new Date(heldUntil.getTime() - 60_000))).paid).toBe(0);
    await p.releaseHolds(new Date(heldUntil.getTime() + 60_000));
    const ledger = (await (await api('/api/payouts')).json()) as { payouts: { walletAddress: string; amount: number }[] };
    expect(ledger.payouts[0]).toMatchObject({ walletAddress: NEW_WALLET, amount: 10 });
    expect(ledger.payouts).toHaveLength(ledgerBefore.payouts.length + 1);
    expect(((await (await asClipper('GET', '/api/dashboard')).json()) as { payoutHold: unknown }).payoutHold).toBeNull();
  });

  it('lists the tiers as data', async () => {
    const tiers = (await (await api('/api/tiers')).json()) as { name: string; ratePerPost: number }[];
    expect(tiers.map((t) => [t.name, t.ratePerPost])).toEqual([
      ['Bronze', 10],
      ['Silver', 15],
      ['Gold', 25],
      ['Diamond', 40],
    ]);
  });

  it('answers 404 in text for an id that is no user, and a user who signed up a moment ago as bronze with no points', async () => {
    await expectText(await api(`/api/clipper/stats/${randomUUID()}`), 404, 'User not found');
    // Asked at once: rewards may not have user.registered yet, and confirms the id with identity instead.
    const handle = `rf_${Date.now().toString(36).slice(-6)}`;
    const signUp = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role: 'streamer',
        password: 'a-good-password',
      }),
    );
    expect(signUp.status).toBe(201);
    const fresh = ((await signUp.json()) as { user: { id: string } }).user.id;
    const stats = await api(`/api/clipper/stats/${fresh}`);
    expect(stats.status).toBe(200);
    expect(await stats.json()).toMatchObject({ points: 0, tier: 'bronze', breakdown: { finalPoints: 0 } });
  });

  it('refuses in text: no session, a bad id, a bad cursor, a request from another site', async () => {
    await expectText(await api('/api/dashboard'), 401, 'Not signed in');
    await expectText(await api('/api/earnings'), 401, 'Not signed in');
    await expectText(await api('/api/clipper/stats/not-a-uuid'), 400, 'Invalid user id');
    await expectText(await api('/api/payouts?cursor=junk'), 400, 'Invalid cursor');
    const crossSite = await fetch(`${p.url}/api/clipper/refresh-points`, {
      method: 'POST',
      headers: { cookie: clipper.cookie, origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
  });
});
