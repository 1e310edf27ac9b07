import { randomUUID } from 'node:crypto';
import {
  parseEventData,
  type CampaignCompletedV1,
  type CampaignProgressV1,
  type CampaignReviewedV1,
  type CampaignSubmittedV1,
  type SubmissionSnapshot,
} from '@clipit/contracts';
import { CAMPAIGN_MESSAGES as M } from '@clipit/field-rules';
import { GrpcCallError } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startCampaigns, submissionSnapshot, userSnapshot, type CampaignsHarness } from '../support/campaigns-harness.js';

// CPM campaigns against the real Postgres and NATS: the shared rules, streamers only, keyset pages, the
// admin review (one running campaign per streamer), and delivered views counted from submission and metrics events
// until the campaign completes, each change published once through the outbox (and each 10 % step once).

let h: CampaignsHarness;
beforeAll(async () => {
  h = await startCampaigns();
});
afterAll(async () => {
  await h?.stop();
});

const brief = {
  title: 'Launch week push',
  description: 'Clips of the launch stream, posted on X during launch week.',
  targetViews: '100,000',
  budgetAmount: '500',
};

async function refusal(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GrpcCallError);
  const e = err as GrpcCallError;
  return { code: e.code, message: e.message };
}

const submit = (streamerId: string, change: Record<string, string> = {}) =>
  h.client.submitCampaign({ streamerId, callerRole: 'streamer', ...brief, ...change });
const eventsFor = <T>(type: string, id: string) =>
  h.events
    .filter((e) => e.envelope.type === type && (e.envelope.data as { campaign: { id: string } }).campaign.id === id)
    .map((e) => e.envelope.data as T);
const outboxRows = (type: string, id: string) =>
  h.count(`SELECT count(*) FROM outbox WHERE type = $1 AND envelope::jsonb #>> '{data,campaign,id}' = $2`, [type, id]);

let clock = Date.now();
/** The clipper of the clips below unless a test names another: at the gold points tier (fed in 'delivered views'). */
const GOLD_CLIPPER = randomUUID();
function clip(streamerId: string, patch: Partial<SubmissionSnapshot>): SubmissionSnapshot {
  clock = Math.max(clock + 1, Date.now());
  return submissionSnapshot({
    streamerId,
    userId: GOLD_CLIPPER,
    updatedAt: new Date(clock).toISOString(),
    approvedAt: new Date(clock).toISOString(),
    ...patch,
  });
}
let revision = 0;
/** rewards.standing-changed putting `userId` at `clipperTier`, each with a later revision. */
const standing = (userId: string, clipperTier: 'bronze' | 'silver' | 'gold') =>
  h.feed('rewards.standing-changed', {
    userId,
    clipPoints: clipperTier === 'gold' ? 1600 : 100,
    clipperTier,
    currentTier: 1,
    revision: (revision += 1),
    at: new Date().toISOString(),
  });

describe('SubmitCampaign', () => {
  it('stores a pending campaign with the streamer’s names and publishes campaign.submitted once', async () => {
    const streamer = userSnapshot('streamer', { displayName: 'Sam Streamer' });
    await h.feed('user.registered', { user: streamer, claimedPlaceholderId: null });
    const stored = await submit(streamer.id, { targetViews: '250000', budgetAmount: '1250', contentLink: 'https://x.com/sam/status/1' });
    expect(stored).toMatchObject({
      streamerId: streamer.id,
      status: 'pending',
      targetViews: '250000', // int64 travels as text
      budgetAmount: '1250.00',
      deliveredViews: '0',
      contentLink: 'https://x.com/sam/status/1',
      streamerDisplayName: 'Sam Streamer',
      streamerTwitterUsername: streamer.twitterUsername,
    });
    const received = await waitFor(() => eventsFor<CampaignSubmittedV1>('campaign.submitted', stored.id)[0], 10_000, 'campaign.submitted');
    expect(parseEventData('campaign.submitted', received).campaign).toMatchObject({
      id: stored.id,
      status: 'pending',
      budgetAmount: '1250.00',
      targetViews: 250_000,
    });
    expect(await outboxRows('campaign.submitted', stored.id)).toBe(1);
  });

  it('refuses anyone but a streamer, and stores nothing', async () => {
    const before = await h.count('SELECT count(*) FROM cpm_campaigns');
    for (const callerRole of ['clipper', 'user', 'admin', '']) {
      expect(await refusal(h.client.submitCampaign({ streamerId: randomUUID(), callerRole, ...brief }))).toEqual({
        code: status.PERMISSION_DENIED,
        message: M.streamersOnly,
      });
    }
    expect(await h.count('SELECT count(*) FROM cpm_campaigns')).toBe(before);
  });

  it.each([
    [{ targetViews: '1000' }, M.targetViewsMin],
    [{ targetViews: '100000.5' }, M.targetViewsWhole],
    [{ budgetAmount: '499' }, M.budgetMin],
    [{ targetViews: '200000', budgetAmount: '500' }, M.budgetMismatch(200_000, 1000)],
    [{ title: 'Four' }, M.titleShort],
    [{ description: 'too short' }, M.descriptionShort],
    [{ contentLink: 'not a link' }, M.contentLinkInvalid],
  ])('refuses %j with the shared rule’s words, storing nothing', async (change, message) => {
    const before = await h.count('SELECT count(*) FROM outbox');
    expect(await refusal(submit(randomUUID(), change))).toEqual({ code: status.INVALID_ARGUMENT, message });
    expect(await h.count('SELECT count(*) FROM outbox')).toBe(before);
  });

  it('refuses at the table a budget that is not the views’ price', async () => {
    await expect(
      h.db.query(
        `INSERT INTO cpm_campaigns (id, streamer_id, title, description, target_views, budget_amount) VALUES (gen_random_uuid(), gen_random_uuid(), 'Title ok', $1, 100000, 600)`,
        ['x'.repeat(20)],
      ),
    ).rejects.toThrow(/check constraint/);
  });
});

describe('ListCampaigns', () => {
  it('pages one streamer’s campaigns newest first, filters by status, and refuses an unknown status or cursor', async () => {
    const streamer = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await submit(streamer, { title: `Campaign number ${i}` })).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.client.listCampaigns({ streamerId: streamer, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(Number(page.total)).toBe(5);
      seen.push(...page.campaigns.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());

    expect(Number((await h.client.listCampaigns({ streamerId: randomUUID() })).total)).toBe(0);
    const all = await h.client.listCampaigns({ status: 'pending', limit: 200 });
    expect(all.campaigns.every((c) => c.status === 'pending')).toBe(true);
    expect(Number(all.total)).toBeGreaterThanOrEqual(5);
    expect(await refusal(h.client.listCampaigns({ status: 'running' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: 'Unknown campaign status: running',
    });
    expect(await refusal(h.client.listCampaigns({ cursor: 'nope' }))).toEqual({ code: status.INVALID_ARGUMENT, message: 'Invalid cursor' });
  });
});

describe('ReviewCampaign', () => {
  it('approves one campaign per streamer at a time, rejects with a reason, and refuses a second review', async () => {
    const streamer = randomUUID();
    const first = await submit(streamer);
    const second = await submit(streamer, { title: 'Second push' });
    const third = await submit(streamer, { title: 'Third push' });

    const approved = await h.client.reviewCampaign({ id: first.id, decision: 'approve', reviewedBy: 'admin-token-1' });
    expect(approved).toMatchObject({
      status: 'approved',
      reviewedBy: 'admin-token-1',
      deliveredViews: '0',
      approvedAt: expect.any(String),
    });
    expect(await refusal(h.client.reviewCampaign({ id: first.id, decision: 'approve', reviewedBy: 'a' }))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: 'Only a pending campaign can be reviewed',
    });
    expect(await refusal(h.client.reviewCampaign({ id: second.id, decision: 'approve', reviewedBy: 'a' }))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: 'This streamer already has a running campaign',
    });
    expect(await h.count(`SELECT count(*) FROM cpm_campaigns WHERE id = $1 AND status = 'pending'`, [second.id])).toBe(1);

    const rejected = await h.client.reviewCampaign({
      id: third.id,
      decision: 'reject',
      reason: ' Resubmit once the first completes ',
      reviewedBy: 'a',
    });
    expect(rejected).toMatchObject({ status: 'rejected', rejectedReason: 'Resubmit once the first completes' });
    expect(rejected.approvedAt).toBeUndefined();

    expect(await refusal(h.client.reviewCampaign({ id: randomUUID(), decision: 'reject', reviewedBy: 'a' }))).toEqual({
      code: status.NOT_FOUND,
      message: 'Campaign not found',
    });
    expect(await refusal(h.client.reviewCampaign({ id: second.id, decision: 'pause', reviewedBy: 'a' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: 'Unknown campaign decision: pause',
    });
    expect(await refusal(h.client.reviewCampaign({ id: second.id, decision: 'reject', reason: 'x'.repeat(501), reviewedBy: 'a' }))).toEqual(
      {
        code: status.INVALID_ARGUMENT,
        message: 'Rejection reason must be at most 500 characters',
      },
    );

    const reviewedEvents = await waitFor(
      () => {
        const got = [
          ...eventsFor<CampaignReviewedV1>('campaign.reviewed', first.id),
          ...eventsFor<CampaignReviewedV1>('campaign.reviewed', third.id),
        ];
        return got.length === 2 ? got : undefined;
      },
      10_000,
      'campaign.reviewed',
    );
    expect(reviewedEvents.map((e) => e.decision).sort()).toEqual(['approved', 'rejected']);
    expect(await outboxRows('campaign.reviewed', first.id)).toBe(1);
    expect(await outboxRows('campaign.reviewed', second.id)).toBe(0);
  });

  it('lets only one of two approvals racing for the same streamer through', async () => {
    const streamer = randomUUID();
    const a = await submit(streamer);
    const b = await submit(streamer, { title: 'Other push' });
    const results = await Promise.allSettled(
      [a, b].map((c) => h.client.reviewCampaign({ id: c.id, decision: 'approve', reviewedBy: 'a' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const err = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as GrpcCallError;
    expect({ code: err.code, message: err.message }).toEqual({
      code: status.FAILED_PRECONDITION,
      message: 'This streamer already has a running campaign',
    });
    expect(await h.count(`SELECT count(*) FROM cpm_campaigns WHERE streamer_id = $1 AND status = 'approved'`, [streamer])).toBe(1);
  });
});

describe('delivered views', () => {
  beforeAll(async () => {
    await standing(GOLD_CLIPPER, 'gold');
  });

  it('counts only gold clippers’ clips (spec 02 §6: gold unlocks paid campaigns, ADR 0041), and follows a clipper reaching or leaving gold', async () => {
    const streamer = randomUUID();
    const campaign = await submit(streamer);
    await h.client.reviewCampaign({ id: campaign.id, decision: 'approve', reviewedBy: 'a' });
    const delivered = async () => Number((await h.client.listCampaigns({ streamerId: streamer })).campaigns[0]!.deliveredViews);
    const bronze = randomUUID();
    const silver = randomUUID();
    await standing(bronze, 'bronze');
    await standing(silver, 'silver');

    // A bronze clipper's clip, a silver one's and one whose standing is not known yet add nothing.
    await h.feed('submission.approved', { submission: clip(streamer, { userId: bronze, views: 20_000 }) });
    await h.feed('submission.approved', { submission: clip(streamer, { userId: silver, views: 7_000 }) });
    const unknown = randomUUID();
    await h.feed('submission.approved', { submission: clip(streamer, { userId: unknown, views: 3_000 }) });
    expect(await delivered()).toBe(0);
    // A gold clipper's does.
    await h.feed('submission.approved', { submission: clip(streamer, { views: 5_000 }) });
    expect(await delivered()).toBe(5_000);

    // The bronze clipper reaching gold brings their clip in; a clipper leaving gold takes theirs out.
    await standing(bronze, 'gold');
    expect(await delivered()).toBe(25_000);
    await standing(unknown, 'gold');
    expect(await delivered()).toBe(28_000);
    await standing(bronze, 'silver');
    expect(await delivered()).toBe(8_000);
  });

  it('counts the streamer’s clips approved since the approval, capped at the target, and completes the campaign once', async () => {
    const streamer = randomUUID();
    // Approved before the campaign runs: never counted.
    await h.feed('submission.approved', {
      submission: clip(streamer, { views: 90_000, approvedAt: new Date(Date.now() - 3_600_000).toISOString() }),
    });
    const campaign = await submit(streamer);
    await h.client.reviewCampaign({ id: campaign.id, decision: 'approve', reviewedBy: 'a' });
    const delivered = async () => Number((await h.client.listCampaigns({ streamerId: streamer })).campaigns[0]!.deliveredViews);
    expect(await delivered()).toBe(0);

    // A pending clip does not count; its approval does; another streamer's never does.
    const pending = clip(streamer, { status: 'pending', approvedAt: null, views: 30_000 });
    await h.feed('submission.created', { submission: pending });
    expect(await delivered()).toBe(0);
    const approvedOne = clip(streamer, { id: pending.id, userId: pending.userId, views: 30_000 });
    await h.feed('submission.approved', { submission: approvedOne });
    await h.feed('submission.approved', { submission: clip(randomUUID(), { views: 500_000 }) });
    expect(await delivered()).toBe(30_000);

    // A stale event about the clip changes nothing.
    await h.feed('submission.created', {
      submission: { ...pending, updatedAt: new Date(Date.parse(pending.updatedAt) - 10_000).toISOString() },
    });
    expect(await delivered()).toBe(30_000);

    // Views grow through later events: X's counts (metrics.updated) and any later snapshot; past the
    // target the campaign completes, capped.
    const fetchedAt = new Date((clock = Math.max(clock + 1, Date.now()))).toISOString();
    await h.feed('metrics.updated', {
      submission: { ...approvedOne, views: 45_000, updatedAt: fetchedAt },
      previousViews: 30_000,
      fetchedAt,
    });
    expect(await delivered()).toBe(45_000);
    await h.feed('submission.feed-changed', {
      submission: { ...approvedOne, views: 60_000, updatedAt: new Date((clock = Math.max(clock + 1, Date.now()))).toISOString() },
      addedToFeed: true,
    });
    expect(await delivered()).toBe(60_000);
    await h.feed('submission.approved', { submission: clip(streamer, { views: 75_000 }) });
    const [done] = (await h.client.listCampaigns({ streamerId: streamer })).campaigns;
    expect(done).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    expect(Number(done!.deliveredViews)).toBe(100_000);

    // More views after completion change nothing and publish nothing more.
    await h.feed('submission.approved', { submission: clip(streamer, { views: 10_000 }) });
    expect(Number((await h.client.listCampaigns({ streamerId: streamer })).campaigns[0]!.deliveredViews)).toBe(100_000);
    const completed = await waitFor(
      () => eventsFor<CampaignCompletedV1>('campaign.completed', campaign.id)[0],
      10_000,
      'campaign.completed',
    );
    expect(completed.campaign).toMatchObject({ status: 'completed', deliveredViews: 100_000 });
    expect(await outboxRows('campaign.completed', campaign.id)).toBe(1);

    // With the first completed, the streamer's next campaign can run.
    const next = await submit(streamer, { title: 'Next push' });
    await expect(h.client.reviewCampaign({ id: next.id, decision: 'approve', reviewedBy: 'a' })).resolves.toMatchObject({
      status: 'approved',
      deliveredViews: '0',
    });
  });

  it('publishes campaign.progress once per 10 % step crossed, the highest of a jump, never again after a fall, and not at 100 %', async () => {
    const streamer = randomUUID();
    const campaign = await submit(streamer);
    await h.client.reviewCampaign({ id: campaign.id, decision: 'approve', reviewedBy: 'a' });
    const progressTold = () => eventsFor<CampaignProgressV1>('campaign.progress', campaign.id).map((e) => e.percent);
    const stamp = () => new Date((clock = Math.max(clock + 1, Date.now()))).toISOString();

    // 5 % tells nothing; 15 % tells 10 %; a jump to 37 % tells 30 % only.
    await h.feed('submission.approved', { submission: clip(streamer, { views: 5_000 }) });
    await h.feed('submission.approved', { submission: clip(streamer, { views: 10_000 }) });
    const grower = clip(streamer, { views: 22_000 });
    await h.feed('submission.approved', { submission: grower });
    // X corrects a count down to 17 % and it rises back to 39 %: nothing told twice; 45 % tells 40 %.
    for (const views of [2_000, 24_000, 30_000]) {
      const updatedAt = stamp();
      await h.feed('metrics.updated', { submission: { ...grower, views, updatedAt }, previousViews: 0, fetchedAt: updatedAt });
    }
    await waitFor(() => (progressTold().length === 3 ? true : undefined), 10_000, 'campaign.progress 10, 30, 40');
    // The target: campaign.completed, and no 100 % (nor the 50–90 % skipped on the way).
    await h.feed('submission.approved', { submission: clip(streamer, { views: 80_000 }) });
    await waitFor(() => eventsFor<CampaignCompletedV1>('campaign.completed', campaign.id)[0], 10_000, 'campaign.completed');

    expect(progressTold()).toEqual([10, 30, 40]);
    expect(await outboxRows('campaign.progress', campaign.id)).toBe(3);
    const told = eventsFor<CampaignProgressV1>('campaign.progress', campaign.id).map((e) => parseEventData('campaign.progress', e));
    expect(told.map((e) => [e.percent, e.deliveredViews, e.targetViews, e.campaign.deliveredViews, e.campaign.status])).toEqual([
      [10, 15_000, 100_000, 15_000, 'approved'],
      [30, 37_000, 100_000, 37_000, 'approved'],
      [40, 45_000, 100_000, 45_000, 'approved'],
    ]);
    expect(await h.count('SELECT announced_progress_step FROM cpm_campaigns WHERE id = $1', [campaign.id])).toBe(10);
  });
});

describe('verified views and counted clips (issue 37)', () => {
  const HOLD = { causes: ['reupload' as const], reasons: ['It re-uploads a clip another clipper submitted earlier.'] };
  const RISKY = { score: 80, reasons: ['Views jumped while likes did not move'], underReview: true };

  beforeAll(async () => {
    await standing(GOLD_CLIPPER, 'gold');
  });

  const listed = async (streamerId: string) => (await h.client.listCampaigns({ streamerId })).campaigns[0]!;
  const figures = async (streamerId: string) => {
    const c = await listed(streamerId);
    return { delivered: Number(c.deliveredViews), verified: Number(c.verifiedViews) };
  };

  it('holds out the views of clips under review or flagged, follows a clip cleared, and lists the counted clips a page at a time', async () => {
    const streamer = randomUUID();
    const pending = await submit(streamer);
    expect(await figures(streamer)).toEqual({ delivered: 0, verified: 0 });
    expect(await h.client.listCampaignClips({ campaignId: pending.id, streamerId: streamer })).toEqual({ clips: [] });
    await h.client.reviewCampaign({ id: pending.id, decision: 'approve', reviewedBy: 'a' });
    const bronze = randomUUID();
    await standing(bronze, 'bronze');

    // Approved before the campaign ran, by a bronze clipper, or for another streamer: never counted.
    await h.feed('submission.approved', {
      submission: clip(streamer, { views: 9_000, approvedAt: new Date(Date.now() - 3_600_000).toISOString() }),
    });
    await h.feed('submission.approved', { submission: clip(streamer, { userId: bronze, views: 20_000 }) });
    await h.feed('submission.approved', { submission: clip(randomUUID(), { views: 50_000 }) });
    const clean = clip(streamer, { views: 10_000, url: 'https://x.com/gail/status/101' });
    const risky = clip(streamer, { views: 6_000, url: 'https://x.com/gail/status/102', risk: RISKY });
    const flagged = clip(streamer, { views: 4_000, url: 'https://x.com/gail/status/103', hold: HOLD });
    for (const submission of [clean, risky, flagged]) await h.feed('submission.approved', { submission });
    expect(await figures(streamer)).toEqual({ delivered: 20_000, verified: 10_000 });

    // The latest approval first, two at a time; each says whether it is under review.
    const first = await h.client.listCampaignClips({ campaignId: pending.id, streamerId: streamer.toUpperCase(), limit: 2 });
    expect(first.clips.map((c) => [c.submissionId, c.postUrl, Number(c.views), c.underReview, c.clipperId])).toEqual([
      [flagged.id, 'https://x.com/gail/status/103', 4_000, true, GOLD_CLIPPER],
      [risky.id, 'https://x.com/gail/status/102', 6_000, true, GOLD_CLIPPER],
    ]);
    expect(first.clips[0]!.approvedAt).toBe(flagged.approvedAt);
    const second = await h.client.listCampaignClips({ campaignId: pending.id, streamerId: streamer, limit: 2, cursor: first.nextCursor! });
    expect(second.clips.map((c) => [c.submissionId, c.underReview])).toEqual([[clean.id, false]]);
    expect(second.nextCursor).toBeUndefined();

    // The risk falls under the threshold: its views are verified again.
    const updatedAt = new Date((clock = Math.max(clock + 1, Date.now()))).toISOString();
    await h.feed('metrics.updated', {
      submission: { ...risky, risk: { ...RISKY, score: 20, underReview: false }, updatedAt },
      previousViews: 6_000,
      fetchedAt: updatedAt,
    });
    expect(await figures(streamer)).toEqual({ delivered: 20_000, verified: 16_000 });

    // Only its streamer reads them: another's, an unknown campaign and a cursor it did not write are refused.
    const notFound = { code: status.NOT_FOUND, message: 'Campaign not found' };
    expect(await refusal(h.client.listCampaignClips({ campaignId: pending.id, streamerId: randomUUID() }))).toEqual(notFound);
    expect(await refusal(h.client.listCampaignClips({ campaignId: randomUUID(), streamerId: streamer }))).toEqual(notFound);
    expect(await refusal(h.client.listCampaignClips({ campaignId: pending.id, streamerId: streamer, cursor: 'bm9wZQ' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: 'Invalid cursor',
    });
  });

  it('counts a completed campaign’s clips approved until its completion, never above its delivered views', async () => {
    const streamer = randomUUID();
    const campaign = await submit(streamer);
    await h.client.reviewCampaign({ id: campaign.id, decision: 'approve', reviewedBy: 'a' });
    const held = clip(streamer, { views: 60_000, hold: HOLD });
    const clean = clip(streamer, { views: 50_000 });
    await h.feed('submission.approved', { submission: held });
    await h.feed('submission.approved', { submission: clean });
    expect(await listed(streamer)).toMatchObject({ status: 'completed' });
    expect(await figures(streamer)).toEqual({ delivered: 100_000, verified: 50_000 });

    // Approved after the completion: not one of its clips.
    const late = clip(streamer, { views: 30_000 });
    await h.feed('submission.approved', { submission: late });
    expect(await figures(streamer)).toEqual({ delivered: 100_000, verified: 50_000 });
    const clips = await h.client.listCampaignClips({ campaignId: campaign.id, streamerId: streamer });
    expect(clips.clips.map((c) => c.submissionId)).toEqual([clean.id, held.id]);

    // Its clean clip growing past the target: verified stops at the delivered views.
    const updatedAt = new Date((clock = Math.max(clock + 1, Date.now()))).toISOString();
    await h.feed('metrics.updated', { submission: { ...clean, views: 120_000, updatedAt }, previousViews: 50_000, fetchedAt: updatedAt });
    expect(await figures(streamer)).toEqual({ delivered: 100_000, verified: 100_000 });
  });
});
