import { randomUUID } from 'node:crypto';
import {
  parseEventData,
  type HireRatedV1,
  type HireRequestedV1,
  type HireRespondedV1,
  type RewardsStandingChangedV1,
  type UserSnapshot,
} from '@clipit/contracts';
import {
  CLIPPER_PROFILE_MESSAGES as P,
  HIRE_MESSAGES as M,
  HIRE_PACKAGES,
  HIRE_RATING_MESSAGES as R,
  packageFill,
} from '@clipit/field-rules';
import { GrpcCallError } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCampaigns, userSnapshot, type CampaignsHarness } from '../support/campaigns-harness.js';

// Clipper profiles and hiring against the real Postgres and NATS: profiles made from identity's events,
// points tiers from rewards' (late events never regress them), the three packages on first reaching gold,
// the owner's edits, the hire gate with the rules' words, and the clipper's answers, each published once.

let h: CampaignsHarness;
beforeAll(async () => {
  h = await startCampaigns();
});
afterAll(async () => {
  await h?.stop();
});

async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GrpcCallError);
  const e = err as GrpcCallError;
  return { code: e.code, message: e.message };
}

const hire = {
  clientName: 'Brand Team',
  clientEmail: 'Team@Brand.example.com',
  projectDescription: 'Seven launch clips for our token week, cut from the stream.',
  contactInfo: '@brandteam',
};

async function clipper(patch: Partial<UserSnapshot> = {}): Promise<UserSnapshot> {
  const user = userSnapshot('clipper', patch);
  await h.feed('user.registered', { user, claimedPlaceholderId: null });
  return user;
}
const standing = (
  userId: string,
  revision: number,
  clipperTier: RewardsStandingChangedV1['clipperTier'],
  clipPoints = revision * 100,
): RewardsStandingChangedV1 => ({
  userId,
  clipPoints,
  clipperTier,
  currentTier: 1,
  revision,
  at: new Date().toISOString(),
});
async function goldClipper(): Promise<UserSnapshot> {
  const user = await clipper();
  await h.feed('rewards.standing-changed', standing(user.id, 1, 'gold'));
  return user;
}

describe('clipper profiles from events', () => {
  it('makes a profile for a clipper only, refreshes its names, and ignores an older user event', async () => {
    const user = await clipper({ displayName: 'Cleo Bronze', profileImageUrl: 'https://img.example.com/a.png' });
    expect(await h.client.getClipperProfile({ userId: user.id })).toMatchObject({
      userId: user.id,
      displayName: 'Cleo Bronze',
      twitterUsername: user.twitterUsername,
      profileImageUrl: 'https://img.example.com/a.png',
      clipperTier: 'bronze',
      clipPoints: '0',
      isAvailable: 'true',
      canBeHired: false,
      totalHires: 0,
      averageRating: '0.00',
      services: [],
    });
    const newer = { ...user, displayName: 'Cleo Renamed', updatedAt: new Date(Date.now() + 1000).toISOString() };
    await h.feed('user.updated', { user: newer, changed: ['displayName'] });
    await h.feed('user.updated', { user: { ...user, displayName: 'Cleo Stale' }, changed: ['displayName'] });
    expect((await h.client.getClipperProfile({ userId: user.id })).displayName).toBe('Cleo Renamed');

    const streamer = userSnapshot('streamer');
    await h.feed('user.registered', { user: streamer, claimedPlaceholderId: null });
    expect(await refusal(h.client.getClipperProfile({ userId: streamer.id }))).toEqual({ code: status.NOT_FOUND, message: P.notFound });
    expect(await refusal(h.client.getClipperProfile({ userId: 'nope' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: 'Invalid clipper id',
    });
  });

  it('takes the points tier from rewards by revision, whatever order the events arrive in', async () => {
    const user = userSnapshot('clipper');
    // The standing arrives before the user: the profile made later starts from it.
    await h.feed('rewards.standing-changed', standing(user.id, 2, 'silver', 250));
    await h.feed('user.registered', { user, claimedPlaceholderId: null });
    expect(await h.client.getClipperProfile({ userId: user.id })).toMatchObject({
      clipperTier: 'silver',
      clipPoints: '250',
      lastClipPointsUpdate: expect.any(String),
    });

    await h.feed('rewards.standing-changed', standing(user.id, 4, 'gold', 900));
    await h.feed('rewards.standing-changed', standing(user.id, 3, 'bronze', 10)); // late: ignored
    expect(await h.client.getClipperProfile({ userId: user.id })).toMatchObject({
      clipperTier: 'gold',
      clipPoints: '900',
      canBeHired: true,
    });
  });

  it('gives a clipper the three packages when they first reach gold, and never again', async () => {
    const user = await clipper();
    expect((await h.client.getClipperProfile({ userId: user.id })).services).toEqual([]);
    await h.feed('rewards.standing-changed', standing(user.id, 1, 'gold'));
    const profile = await h.client.getClipperProfile({ userId: user.id });
    expect(profile.services.map((s) => [s.serviceName, s.basePrice ?? null, s.deliveryTimeHours ?? null, s.isActive])).toEqual([
      ['Speed Pack', '40.00', 24, true],
      ['Growth Pack', '100.00', 72, true],
      ['Viral Marketing', null, null, true],
    ]);
    expect(profile.services.map((s) => s.description)).toEqual(HIRE_PACKAGES.map((p) => p.description));

    // Cleared by the owner, dropped to silver and back to gold: not given again.
    await h.client.updateClipperProfile({
      userId: user.id,
      setServices: true,
      services: [],
      setPortfolioUrls: false,
      portfolioUrls: [],
      setSpecialties: false,
      specialties: [],
      setSocialLinks: false,
      socialLinks: [],
    });
    await h.feed('rewards.standing-changed', standing(user.id, 2, 'silver'));
    await h.feed('rewards.standing-changed', standing(user.id, 3, 'gold'));
    expect((await h.client.getClipperProfile({ userId: user.id })).services).toEqual([]);
  });

  it('keeps a clipper’s own services when they reach gold', async () => {
    const user = await clipper();
    const edit = {
      userId: user.id,
      setPortfolioUrls: false,
      portfolioUrls: [],
      setSpecialties: false,
      specialties: [],
      setSocialLinks: false,
      socialLinks: [],
    };
    await h.client.updateClipperProfile({
      ...edit,
      setServices: true,
      services: [{ serviceName: 'Highlight reel', basePrice: '75', deliveryTimeHours: 48, isActive: true }],
    });
    await h.feed('rewards.standing-changed', standing(user.id, 1, 'gold'));
    expect((await h.client.getClipperProfile({ userId: user.id })).services.map((s) => s.serviceName)).toEqual(['Highlight reel']);
  });
});

describe('UpdateClipperProfile', () => {
  const none = {
    setPortfolioUrls: false,
    portfolioUrls: [],
    setSpecialties: false,
    specialties: [],
    setSocialLinks: false,
    socialLinks: [],
    setServices: false,
    services: [],
  };

  it('stores the owner’s edit, leaving what was not sent', async () => {
    const user = await clipper();
    const updated = await h.client.updateClipperProfile({
      ...none,
      userId: user.id,
      bio: ' Cutting crypto streams daily. ',
      setSpecialties: true,
      specialties: ['Memecoins', 'Highlights'],
      setPortfolioUrls: true,
      portfolioUrls: ['https://x.com/me/status/1'],
      yearsExperience: 3,
      hourlyRate: '25.5',
      isAvailable: 'false',
    });
    expect(updated).toMatchObject({
      bio: 'Cutting crypto streams daily.',
      specialties: ['Memecoins', 'Highlights'],
      portfolioUrls: ['https://x.com/me/status/1'],
      yearsExperience: 3,
      hourlyRate: '25.50',
      isAvailable: 'false',
    });
    const again = await h.client.updateClipperProfile({ ...none, userId: user.id, isAvailable: 'true' });
    expect(again).toMatchObject({
      bio: 'Cutting crypto streams daily.',
      specialties: ['Memecoins', 'Highlights'],
      hourlyRate: '25.50',
      isAvailable: 'true',
    });
  });

  it.each([
    [{ bio: 'x'.repeat(1001) }, P.bioLong],
    [{ setPortfolioUrls: true, portfolioUrls: ['not a link'] }, P.portfolioUrl],
    [{ setSpecialties: true, specialties: Array.from({ length: 11 }, (_, i) => `s${i}`) }, P.specialtiesTooMany],
    [{ yearsExperience: 61 }, P.yearsRange],
    [{ hourlyRate: '-1' }, P.hourlyRateNegative],
    [{ setServices: true, services: [{ serviceName: '', isActive: true }] }, P.serviceNameRequired],
    [{ setServices: true, services: [{ serviceName: 'S', deliveryTimeHours: 721, isActive: true }] }, P.deliveryTimeRange],
  ])('refuses %j with the rule’s words', async (change, message) => {
    const user = await clipper();
    expect(await refusal(h.client.updateClipperProfile({ ...none, userId: user.id, ...change }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message,
    });
  });

  it('answers NOT_FOUND for someone without a clipper profile', async () => {
    expect(await refusal(h.client.updateClipperProfile({ ...none, userId: randomUUID(), bio: 'hi' }))).toEqual({
      code: status.NOT_FOUND,
      message: P.notFound,
    });
  });
});

describe('RequestHire', () => {
  it('refuses a clipper below gold with why, an unknown clipper, a self-hire and an unavailable clipper, storing nothing', async () => {
    const bronze = await clipper();
    const gold = await goldClipper();
    const before = await h.count('SELECT count(*) FROM clipper_hires');
    expect(await refusal(h.client.requestHire({ clipperId: bronze.id, ...hire, ...packageFill('speed'), budget: '40' }))).toEqual({
      code: status.PERMISSION_DENIED,
      message: M.notGold,
    });
    await h.feed('rewards.standing-changed', standing(bronze.id, 1, 'silver'));
    expect(await refusal(h.client.requestHire({ clipperId: bronze.id, ...hire }))).toEqual({
      code: status.PERMISSION_DENIED,
      message: M.notGold,
    });
    expect(await refusal(h.client.requestHire({ clipperId: randomUUID(), ...hire }))).toEqual({
      code: status.NOT_FOUND,
      message: 'Clipper not found',
    });
    expect(await refusal(h.client.requestHire({ clipperId: gold.id, clientUserId: gold.id, ...hire }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: M.self,
    });
    expect(await refusal(h.client.requestHire({ clipperId: gold.id, ...hire, clientEmail: 'nope' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: M.clientEmail,
    });
    expect(await refusal(h.client.requestHire({ clipperId: gold.id, ...hire, budget: '0' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: M.budgetPositive,
    });
    expect(await refusal(h.client.requestHire({ clipperId: gold.id, ...hire, urgency: 'tomorrow' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: M.urgencyInvalid,
    });
    await h.client.updateClipperProfile({
      userId: gold.id,
      isAvailable: 'false',
      setPortfolioUrls: false,
      portfolioUrls: [],
      setSpecialties: false,
      specialties: [],
      setSocialLinks: false,
      socialLinks: [],
      setServices: false,
      services: [],
    });
    expect(await refusal(h.client.requestHire({ clipperId: gold.id, ...hire }))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: M.unavailable,
    });
    expect(await h.count('SELECT count(*) FROM clipper_hires')).toBe(before);
  });

  it('hires a gold clipper with each package, publishes hire.requested once each, and lists them newest first', async () => {
    const gold = await goldClipper();
    const client = randomUUID();
    const services = (await h.client.getClipperProfile({ userId: gold.id })).services;
    const ids: string[] = [];
    for (const pack of HIRE_PACKAGES) {
      const fill = packageFill(pack.id);
      const stored = await h.client.requestHire({
        clipperId: gold.id,
        clientUserId: client,
        ...hire,
        projectDescription: fill.projectDescription,
        ...(fill.budget !== null ? { budget: String(fill.budget) } : {}),
        urgency: 'high',
        preferredContact: 'telegram',
      });
      expect(stored).toMatchObject({
        clipperId: gold.id,
        clientUserId: client,
        clientEmail: 'team@brand.example.com',
        status: 'pending',
        urgency: 'high',
        preferredContact: 'telegram',
        serviceId: services.find((s) => s.serviceName === pack.name)!.id,
      });
      expect(stored.budget ?? null).toBe(pack.price === null ? null : pack.price.toFixed(2));
      ids.push(stored.id);
    }
    const anonymous = await h.client.requestHire({ clipperId: gold.id, ...hire });
    expect(anonymous).toMatchObject({ urgency: 'medium', preferredContact: 'email' });
    expect(anonymous.clientUserId).toBeUndefined();
    expect(anonymous.serviceId).toBeUndefined();

    const page = await h.client.listHires({ clipperId: gold.id, status: 'pending' });
    expect(Number(page.total)).toBe(4);
    expect(page.hires.map((x) => x.id)).toEqual([anonymous.id, ...[...ids].reverse()]);
    const first = await h.client.listHires({ clipperId: gold.id, limit: 3 });
    const rest = await h.client.listHires({ clipperId: gold.id, limit: 3, cursor: first.nextCursor! });
    expect([...first.hires, ...rest.hires].map((x) => x.id)).toEqual(page.hires.map((x) => x.id));
    expect(await refusal(h.client.listHires({ clipperId: gold.id, status: 'open' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: 'Unknown hire status: open',
    });

    const requested = await waitFor(
      () => {
        const got = h.events.filter(
          (e) => e.envelope.type === 'hire.requested' && (e.envelope.data as HireRequestedV1).clipperId === gold.id,
        );
        return got.length === 4 ? got : undefined;
      },
      10_000,
      'hire.requested',
    );
    expect(parseEventData('hire.requested', requested[0]!.envelope.data)).toMatchObject({
      clipperId: gold.id,
      hire: { status: 'pending' },
    });
    expect(
      await h.count(`SELECT count(*) FROM outbox WHERE type = 'hire.requested' AND envelope::jsonb #>> '{data,clipperId}' = $1`, [gold.id]),
    ).toBe(4);
  });
});

describe('RespondToHire', () => {
  it('lets only the clipper accept, decline and complete, counting completed hires once', async () => {
    const gold = await goldClipper();
    const other = await goldClipper();
    const a = await h.client.requestHire({ clipperId: gold.id, ...hire });
    const b = await h.client.requestHire({ clipperId: gold.id, ...hire });
    const respond = (id: string, action: string, by = gold.id, clipperNotes?: string) =>
      h.client.respondToHire({ id, clipperId: by, action, ...(clipperNotes !== undefined ? { clipperNotes } : {}) });

    expect(await refusal(respond(a.id, 'accept', other.id))).toEqual({
      code: status.PERMISSION_DENIED,
      message: 'You can only answer your own hire requests',
    });
    expect(await refusal(respond(a.id, 'complete'))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: 'Only an accepted hire request can be completed',
    });
    expect(await respond(a.id, 'accept', gold.id, 'On it')).toMatchObject({
      status: 'accepted',
      clipperNotes: 'On it',
      respondedAt: expect.any(String),
    });
    expect(await respond(b.id, 'decline')).toMatchObject({ status: 'declined' });
    expect(await refusal(respond(b.id, 'accept'))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: 'This hire request has already been answered',
    });
    expect(await refusal(respond(a.id, 'accept'))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: 'This hire request has already been answered',
    });
    expect(await refusal(respond(a.id, 'cancel'))).toEqual({ code: status.INVALID_ARGUMENT, message: 'Unknown hire action: cancel' });
    expect(await refusal(respond(randomUUID(), 'accept'))).toEqual({ code: status.NOT_FOUND, message: 'Hire request not found' });

    expect(await respond(a.id, 'complete')).toMatchObject({ status: 'completed', clipperNotes: 'On it', completedAt: expect.any(String) });
    expect(await refusal(respond(a.id, 'complete'))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: 'Only an accepted hire request can be completed',
    });
    expect((await h.client.getClipperProfile({ userId: gold.id })).totalHires).toBe(1);

    const responded = await waitFor(
      () => {
        const got = h.events.filter(
          (e) => e.envelope.type === 'hire.responded' && (e.envelope.data as HireRespondedV1).clipperId === gold.id,
        );
        return got.length === 3 ? got.map((e) => e.envelope.data as HireRespondedV1) : undefined;
      },
      10_000,
      'hire.responded',
    );
    expect(responded.map((e) => [e.hire.id, e.action])).toEqual([
      [a.id, 'accepted'],
      [b.id, 'declined'],
      [a.id, 'completed'],
    ]);
    expect(
      await h.count(`SELECT count(*) FROM outbox WHERE type = 'hire.responded' AND envelope::jsonb #>> '{data,clipperId}' = $1`, [gold.id]),
    ).toBe(3);
  });
});

describe('rating a completed hire (ADR 0040)', () => {
  it('counts ratings sent at once, each once, and publishes hire.rated with the figures after each', async () => {
    const gold = await goldClipper();
    const done = [];
    for (let i = 0; i < 4; i += 1) {
      const asked = await h.client.requestHire({ clipperId: gold.id, ...hire });
      expect(asked.ratingToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await h.client.respondToHire({ id: asked.id, clipperId: gold.id, action: 'accept' });
      await h.client.respondToHire({ id: asked.id, clipperId: gold.id, action: 'complete' });
      done.push({ id: asked.id, token: asked.ratingToken! });
    }
    // The listed requests never carry the token.
    expect((await h.client.listHires({ clipperId: gold.id })).hires.every((x) => x.ratingToken === undefined)).toBe(true);

    // Four ratings of four hires at once, and each hire's second rating racing its first.
    const stars = [5, 4, 4, 2];
    const results = await Promise.allSettled(
      done.flatMap((d, i) => [
        h.client.rateHire({ id: d.id, token: d.token, rating: stars[i]!, review: `Hire ${i}` }),
        h.client.rateHire({ id: d.id, token: d.token, rating: 1 }),
      ]),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      expect({ code: (r.reason as GrpcCallError).code, message: (r.reason as GrpcCallError).message }).toEqual({
        code: status.FAILED_PRECONDITION,
        message: R.alreadyRated,
      });
    }
    const kept = (await h.client.listHires({ clipperId: gold.id, status: 'completed' })).hires.map((x) => x.clientRating!);
    const mean = kept.reduce((a, b) => a + b, 0) / kept.length;
    expect(await h.client.getClipperProfile({ userId: gold.id })).toMatchObject({ averageRating: mean.toFixed(2), totalReviews: 4 });

    const rated = await waitFor(
      () => {
        const got = h.events.filter((e) => e.envelope.type === 'hire.rated' && (e.envelope.data as HireRatedV1).clipperId === gold.id);
        return got.length === 4 ? got.map((e) => parseEventData('hire.rated', e.envelope.data)) : undefined;
      },
      10_000,
      'hire.rated',
    );
    expect(rated.map((e) => e.totalReviews).sort()).toEqual([1, 2, 3, 4]);
    expect(rated.find((e) => e.totalReviews === 4)!.averageRating).toBe(Number(mean.toFixed(2)));
    expect(
      await h.count(`SELECT count(*) FROM outbox WHERE type = 'hire.rated' AND envelope::jsonb #>> '{data,clipperId}' = $1`, [gold.id]),
    ).toBe(4);
  });
});
