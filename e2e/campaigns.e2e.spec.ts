// CPM campaigns and hiring over real HTTP: gateway → campaigns (own database, fed by identity's,
// submissions' and rewards' events). A streamer's campaign below the minimum is refused with the rule's
// words and a valid one is listed as pending; a clipper cannot buy one; a clipper is hired only once
// rewards puts them at the gold points tier, with each package; the clipper answers their requests.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { CAMPAIGN_MESSAGES, HIRE_MESSAGES, HIRE_PACKAGES, HIRE_RATING_MESSAGES as R, packageFill } from '@clipit/field-rules';
import { waitFor } from '@clipit/testing';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-5)}${(seq += 1)}`;

interface Account {
  id: string;
  cookie: string;
}

const campaign = {
  title: 'Launch week push',
  description: 'Clips of the launch stream, posted on X during launch week.',
  targetViews: 100_000,
  budgetAmount: 500,
  contentLink: '',
};

const hire = {
  clientName: 'Brand Team',
  clientEmail: 'team@brand.example.com',
  projectDescription: 'Seven launch clips for our token week, cut from the stream.',
  contactInfo: '@brandteam',
};

describe('campaigns and hiring (gateway + campaigns + identity + submissions + rewards + admin, real servers)', () => {
  let p: Platform;
  let adminToken = '';
  let streamer: Account;
  let otherStreamer: Account;
  let clipper: Account;
  let gold: Account;
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const as = (who: Account | undefined, method: string, path: string, body?: unknown) =>
    api(path, json(method, body, who ? { cookie: who.cookie } : {}));

  async function signUp(role: 'clipper' | 'streamer', displayName: string): Promise<Account> {
    const handle = unique(role === 'clipper' ? 'cl_' : 'st_');
    const res = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role,
        password: 'a-good-password',
        displayName,
        ...(role === 'streamer' ? { tokenLink: 'https://pump.fun/coin/abc' } : {}),
      }),
    );
    expect(res.status).toBe(201);
    return {
      id: ((await res.json()) as { user: { id: string } }).user.id,
      cookie: `clipit.sid=${/clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1]}`,
    };
  }

  beforeAll(async () => {
    p = await startPlatform();
    adminToken = (
      (await (await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }))).json()) as { token: string }
    ).token;
    streamer = await signUp('streamer', 'Sam Streamer');
    otherStreamer = await signUp('streamer', 'Olly Other');
    clipper = await signUp('clipper', 'Cleo Bronze');
    gold = await signUp('clipper', 'Gail Gold');
  });
  afterAll(async () => {
    await p?.stop();
  });

  describe('CPM campaigns', () => {
    it('refuses a campaign below the minimum, with the shared definition’s words, as text', async () => {
      await expectText(
        await as(streamer, 'POST', '/api/cpm-campaigns', { ...campaign, targetViews: 1000 }),
        400,
        CAMPAIGN_MESSAGES.targetViewsMin,
      );
      await expectText(
        await as(streamer, 'POST', '/api/cpm-campaigns', { ...campaign, targetViews: 200_000 }),
        400,
        'Budget must match the views at $5 per 1,000 views: $1,000 for 200,000 views',
      );
      await expectText(
        await as(streamer, 'POST', '/api/cpm-campaigns', { ...campaign, budgetAmount: 499 }),
        400,
        CAMPAIGN_MESSAGES.budgetMin,
      );
      await expectText(await as(streamer, 'POST', '/api/cpm-campaigns', { ...campaign, title: 'Four' }), 400, CAMPAIGN_MESSAGES.titleShort);
      await expectText(
        await as(streamer, 'POST', '/api/cpm-campaigns', { ...campaign, description: 'too short' }),
        400,
        CAMPAIGN_MESSAGES.descriptionShort,
      );
      await expectText(
        await as(streamer, 'POST', '/api/cpm-campaigns', { ...campaign, contentLink: 'not a link' }),
        400,
        CAMPAIGN_MESSAGES.contentLinkInvalid,
      );
      await expectText(await as(streamer, 'POST', '/api/cpm-campaigns', { ...campaign, discount: 10 }), 400, 'Unknown field: discount');
      expect((await p.campaignsDb.query('SELECT count(*)::int AS n FROM cpm_campaigns')).rows[0].n).toBe(0);
    });

    it('refuses a clipper (403) and a visitor (401)', async () => {
      await expectText(await as(clipper, 'POST', '/api/cpm-campaigns', campaign), 403, CAMPAIGN_MESSAGES.streamersOnly);
      expect((await as(undefined, 'POST', '/api/cpm-campaigns', campaign)).status).toBe(401);
      expect((await as(undefined, 'GET', '/api/cpm-campaigns')).status).toBe(401);
    });

    it('stores a valid campaign as pending, says the review takes 24 hours, and lists it for its streamer only', async () => {
      const res = await as(streamer, 'POST', '/api/cpm-campaigns', {
        ...campaign,
        targetViews: '250,000',
        budgetAmount: '1250',
        contentLink: 'https://x.com/sam/status/1',
      });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { campaign: Record<string, unknown>; message: string };
      expect(body.message).toBe(CAMPAIGN_MESSAGES.submitted);
      expect(body.campaign).toMatchObject({
        streamerId: streamer.id,
        title: campaign.title,
        targetViews: 250_000,
        budgetAmount: 1250,
        contentLink: 'https://x.com/sam/status/1',
        status: 'pending',
        deliveredViews: 0,
      });
      const mine = (await (await as(streamer, 'GET', '/api/cpm-campaigns')).json()) as { campaigns: { id: string }[]; total: number };
      expect(mine).toMatchObject({ campaigns: [{ id: body.campaign['id'] }], total: 1, nextCursor: null });
      expect(await (await as(otherStreamer, 'GET', '/api/cpm-campaigns')).json()).toEqual({ campaigns: [], nextCursor: null, total: 0 });
    });
  });

  describe('hiring', () => {
    it('refuses to hire a clipper below the gold points tier, with why (403, text)', async () => {
      await waitFor(
        async () => ((await api(`/api/clippers/${clipper.id}/profile`)).status === 200 ? true : undefined),
        15_000,
        'clipper profile made',
      );
      const profile = (await (await api(`/api/clippers/${clipper.id}/profile`)).json()) as Record<string, unknown>;
      expect(profile).toMatchObject({
        userId: clipper.id,
        displayName: 'Cleo Bronze',
        clipperTier: 'bronze',
        canBeHired: false,
        totalHires: 0,
      });
      await expectText(
        await as(undefined, 'POST', `/api/clippers/${clipper.id}/hire`, { ...hire, ...packageFill('speed') }),
        403,
        HIRE_MESSAGES.notGold,
      );
    });

    it('answers 404 for someone who is not a clipper and 400 for a bad id', async () => {
      await expectText(await api(`/api/clippers/${streamer.id}/profile`), 404, 'Clipper not found');
      await expectText(await api('/api/clippers/not-a-uuid/profile'), 400, 'Invalid clipper id');
    });

    it('answers 404 with a text for an id that is no user, on every campaigns route taking a user id (issue 33 §7)', async () => {
      const nobody = randomUUID();
      await expectText(await api(`/api/clippers/${nobody}/profile`), 404, 'Clipper not found');
      await expectText(await as(undefined, 'POST', `/api/clippers/${nobody}/hire`, hire), 404, 'Clipper not found');
    });

    it('hires a gold clipper with each package, and the clipper answers their requests', async () => {
      // Tiers are data (ADR 0025): one approved clip reaches Gold in this spec's rewards database.
      await p.rewardsDb.query(
        'UPDATE tiers SET min_total_approved = 1, min_approved_in_window = 1, min_approval_rate = 0, min_avg_views = 0 WHERE level IN (2, 3)',
      );
      const submitted = await as(gold, 'POST', '/api/submissions', {
        name: 'Gold clip',
        url: `https://x.com/gail/status/${Date.now()}1`,
        walletAddress: '',
      });
      expect(submitted.status).toBe(201);
      const clipId = ((await submitted.json()) as { id: string }).id;
      expect(
        (await api(`/api/admin/submissions/${clipId}/approve`, json('POST', {}, { authorization: `Bearer ${adminToken}` }))).status,
      ).toBe(200);
      const profile = await waitFor(
        async () => {
          const res = await api(`/api/clippers/${gold.id}/profile`);
          const body =
            res.status === 200
              ? ((await res.json()) as {
                  clipperTier: string;
                  canBeHired: boolean;
                  services: { serviceName: string; basePrice: number | null }[];
                })
              : undefined;
          return body?.clipperTier === 'gold' ? body : undefined;
        },
        20_000,
        'clipper reached gold',
      );
      expect(profile.canBeHired).toBe(true);
      expect(profile.services.map((s) => [s.serviceName, s.basePrice])).toEqual(HIRE_PACKAGES.map((pack) => [pack.name, pack.price]));

      const ids: string[] = [];
      for (const pack of HIRE_PACKAGES) {
        const res = await as(clipper, 'POST', `/api/clippers/${gold.id}/hire`, {
          clipperId: gold.id,
          ...hire,
          ...packageFill(pack.id),
          urgency: 'high',
          preferredContact: 'telegram',
        });
        expect(res.status).toBe(201);
        const body = (await res.json()) as { id: string; status: string; message: string };
        expect(body).toMatchObject({ status: 'pending', message: HIRE_MESSAGES.sent });
        ids.push(body.id);
      }
      const anonymous = await as(undefined, 'POST', `/api/clippers/${gold.id}/hire`, hire);
      expect(anonymous.status).toBe(201);

      const received = (await (await as(gold, 'GET', '/api/hires?status=pending')).json()) as {
        hires: Record<string, unknown>[];
        total: number;
      };
      expect(received.total).toBe(4);
      expect(received.hires.map((h) => h['budget'])).toEqual([null, null, 100, 40]);
      expect(received.hires[3]).toMatchObject({
        clientUserId: clipper.id,
        clientEmail: hire.clientEmail,
        urgency: 'high',
        preferredContact: 'telegram',
        status: 'pending',
      });
      expect(received.hires[0]).toMatchObject({ clientUserId: null, urgency: 'medium', preferredContact: 'email' });

      await expectText(await as(clipper, 'POST', `/api/hires/${ids[0]}/accept`, {}), 403, 'You can only answer your own hire requests');
      await expectText(await as(gold, 'POST', `/api/hires/${ids[0]}/complete`, {}), 409, 'Only an accepted hire request can be completed');
      expect(await (await as(gold, 'POST', `/api/hires/${ids[0]}/accept`, { clipperNotes: 'On it' })).json()).toMatchObject({
        status: 'accepted',
        clipperNotes: 'On it',
      });
      expect(await (await as(gold, 'POST', `/api/hires/${ids[1]}/decline`, {})).json()).toMatchObject({ status: 'declined' });
      await expectText(await as(gold, 'POST', `/api/hires/${ids[1]}/accept`, {}), 409, 'This hire request has already been answered');
      expect(await (await as(gold, 'POST', `/api/hires/${ids[0]}/complete`, {})).json()).toMatchObject({
        status: 'completed',
        completedAt: expect.any(String),
      });
      expect(await (await api(`/api/clippers/${gold.id}/profile`)).json()).toMatchObject({ totalHires: 1 });
    });

    it('refuses each hire rule with its words, a self-hire, and an unknown field, storing nothing', async () => {
      const before = (await p.campaignsDb.query('SELECT count(*)::int AS n FROM clipper_hires')).rows[0].n as number;
      const to = `/api/clippers/${gold.id}/hire`;
      await expectText(await as(undefined, 'POST', to, { ...hire, clientEmail: 'nope' }), 400, HIRE_MESSAGES.clientEmail);
      await expectText(await as(undefined, 'POST', to, { ...hire, clientName: 'A' }), 400, HIRE_MESSAGES.clientNameShort);
      await expectText(
        await as(undefined, 'POST', to, { ...hire, projectDescription: 'short' }),
        400,
        HIRE_MESSAGES.projectDescriptionShort,
      );
      await expectText(await as(undefined, 'POST', to, { ...hire, budget: 0 }), 400, HIRE_MESSAGES.budgetPositive);
      await expectText(await as(undefined, 'POST', to, { ...hire, contactInfo: '' }), 400, HIRE_MESSAGES.contactInfoRequired);
      await expectText(await as(undefined, 'POST', to, { ...hire, urgency: 'tomorrow' }), 400, HIRE_MESSAGES.urgencyInvalid);
      await expectText(await as(undefined, 'POST', to, { ...hire, package: 'speed' }), 400, 'Unknown field: package');
      await expectText(await as(undefined, 'POST', to, { ...hire, clipperId: clipper.id }), 400, 'clipperId does not match the path');
      await expectText(await as(gold, 'POST', to, hire), 400, HIRE_MESSAGES.self);
      expect((await p.campaignsDb.query('SELECT count(*)::int AS n FROM clipper_hires')).rows[0].n).toBe(before);
    });

    it('lets the client rate a completed hire once with the answer’s token, refusing everything else with a text (ADR 0040)', async () => {
      const ask = async () => {
        const res = await as(undefined, 'POST', `/api/clippers/${gold.id}/hire`, { ...hire, ...packageFill('speed') });
        expect(res.status).toBe(201);
        return (await res.json()) as { id: string; ratingToken: string; ratingUrl: string };
      };
      const first = await ask();
      expect(first.ratingToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(first.ratingUrl).toBe(`/hires/${first.id}/rate#token=${first.ratingToken}`);
      // Only the token's hash is kept.
      const stored = (await p.campaignsDb.query('SELECT rating_token_hash FROM clipper_hires WHERE id = $1', [first.id])).rows[0];
      expect(stored.rating_token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.rating_token_hash).not.toContain(first.ratingToken);

      const rateIt = (id: string, body: Record<string, unknown>) => as(undefined, 'POST', `/api/clipper-hires/${id}/rating`, body);
      const ok = { token: first.ratingToken, rating: 4, review: 'Fast, sharp clips.' };
      await expectText(await rateIt(first.id, ok), 409, R.notCompleted);
      await as(gold, 'POST', `/api/hires/${first.id}/accept`, {});
      await expectText(await rateIt(first.id, ok), 409, R.notCompleted);
      expect((await as(gold, 'POST', `/api/hires/${first.id}/complete`, {})).status).toBe(200);

      await expectText(await rateIt(first.id, { ...ok, token: (await ask()).ratingToken }), 403, R.wrongToken);
      await expectText(await rateIt(first.id, { ...ok, rating: 6 }), 400, R.ratingRange);
      await expectText(await rateIt(first.id, { ...ok, rating: 0 }), 400, R.ratingRange);
      await expectText(await rateIt(first.id, { ...ok, rating: 3.5 }), 400, R.ratingRange);
      await expectText(await rateIt(first.id, { ...ok, review: 'x'.repeat(1001) }), 400, R.reviewTooLong);
      await expectText(await rateIt(randomUUID(), ok), 404, 'Hire request not found');
      await expectText(await rateIt('not-a-uuid', ok), 400, 'Invalid hire request id');
      await expectText(await rateIt(first.id, { ...ok, stars: 5 }), 400, 'Unknown field: stars');

      const rated = await rateIt(first.id, ok);
      expect(rated.status).toBe(200);
      expect(await rated.json()).toEqual({
        hireId: first.id,
        clipperId: gold.id,
        rating: 4,
        review: 'Fast, sharp clips.',
        averageRating: 4,
        totalReviews: 1,
        message: R.saved,
      });
      await expectText(await rateIt(first.id, { ...ok, rating: 5 }), 409, R.alreadyRated);

      // A second hire rated 5: the profile's average and count follow.
      const second = await ask();
      await as(gold, 'POST', `/api/hires/${second.id}/accept`, {});
      await as(gold, 'POST', `/api/hires/${second.id}/complete`, {});
      expect((await rateIt(second.id, { token: second.ratingToken, rating: 5 })).status).toBe(200);
      expect(await (await api(`/api/clippers/${gold.id}/profile`)).json()).toMatchObject({ averageRating: 4.5, totalReviews: 2 });
      const hires = (await (await as(gold, 'GET', '/api/hires?status=completed')).json()) as { hires: { id: string }[] };
      expect(hires.hires.map((h) => h.id)).toEqual(expect.arrayContaining([first.id, second.id]));
      const events = await p.campaignsDb.query(
        `SELECT envelope::jsonb #> '{data}' AS data FROM outbox WHERE type = 'hire.rated' ORDER BY seq`,
      );
      expect(
        events.rows.map((r: { data: Record<string, unknown> }) => [
          r.data['hireId'],
          r.data['rating'],
          r.data['averageRating'],
          r.data['totalReviews'],
        ]),
      ).toEqual([
        [first.id, 4, 4, 1],
        [second.id, 5, 4.5, 2],
      ]);
    });

    it('refuses a request to a clipper who is not taking work', async () => {
      const res = await as(gold, 'PATCH', '/api/clipper-profile', { isAvailable: false, bio: 'Cutting crypto streams daily.' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ isAvailable: 'false', canBeHired: false, bio: 'Cutting crypto streams daily.' });
      await expectText(await as(undefined, 'POST', `/api/clippers/${gold.id}/hire`, hire), 409, HIRE_MESSAGES.unavailable);
    });
  });
});
