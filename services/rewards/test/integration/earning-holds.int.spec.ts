import type { SubmissionHoldSnapshot, SubmissionSnapshot } from '@clipit/contracts';
import { GrpcCallError } from '@clipit/service-kit';
import { waitFor } from '@clipit/testing';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PayoutService } from '../../src/services/payout.service.js';
import { startRewards, submissionSnapshot, type RewardsHarness } from '../support/rewards-harness.js';

// Earnings of flagged clips (ADR 0050) against the real Postgres, NATS and Redis: held when approved while
// flagged or flagged later, never paid by a payout run nor listed in the public ledger while held, paid by
// the next run once released, never once voided, not held again for the causes an admin decided, and the
// same events applied again changing nothing.

let h: RewardsHarness;
beforeAll(async () => {
  h = await startRewards();
});
afterAll(async () => {
  await h?.stop();
});

const WEEK = 7 * 24 * 60 * 60 * 1000;
/** A run `weeks` weeks and a day from now: every earning made so far is before its period's end. */
const runAt = (weeks = 1) => new Date(Date.now() + weeks * WEEK + 24 * 60 * 60 * 1000);
let walletSeq = 0;
const wallet = () => `HoLd${String(++walletSeq).padStart(4, '2')}${'2'.repeat(36)}`.slice(0, 44);

const reupload: SubmissionHoldSnapshot = {
  causes: ['reupload'],
  reasons: ['Its video matches a clip submitted earlier by another clipper.'],
};
const views: SubmissionHoldSnapshot = { causes: ['views'], reasons: ['Views jumped 40× in 2 hours without likes or retweets.'] };

const earningOf = async (submissionId: string) =>
  (
    await h.db.query<{ id: string; status: string; hold_reasons: string[] | null; payout_id: string | null; decision: string | null }>(
      'SELECT id, status, hold_reasons, payout_id, decision FROM earnings WHERE submission_id = $1',
      [submissionId],
    )
  ).rows[0]!;

/** A later snapshot of the clip (its matches stored, or a metrics read), waited for until applied. */
async function later(s: SubmissionSnapshot, hold: SubmissionHoldSnapshot | null, type: 'submission.matches-changed' | 'metrics.updated') {
  const next = { ...s, hold, updatedAt: new Date(Math.max(Date.now(), new Date(s.updatedAt).getTime() + 1)).toISOString() };
  if (type === 'submission.matches-changed') await h.publisher.publish(type, { submission: next, matchCount: hold ? 1 : 0 });
  else await h.publisher.publish(type, { submission: next, previousViews: s.views, fetchedAt: next.updatedAt });
  await waitFor(
    async () =>
      (await h.count('SELECT count(*) FROM submissions WHERE id = $1 AND source_updated_at >= $2', [s.id, next.updatedAt])) === 1
        ? true
        : undefined,
    10_000,
    `${type} applied`,
  );
  return next;
}

const run = (at: Date) => h.app.get(PayoutService).run(at);
const eventsOf = (type: string, earningId: string) =>
  h.events.filter((e) => e.envelope.type === type && (e.envelope.data as { earningId: string }).earningId === earningId);

describe('earning holds', () => {
  it('holds the earning of a clip approved while flagged; a payout run leaves it out; released, the next run pays it', async () => {
    const clipper = await h.newUser('clipper', { walletAddress: wallet() });
    const clean = await h.submission('submission.approved', { userId: clipper.id });
    const flagged = await h.submission('submission.approved', { userId: clipper.id, hold: reupload });
    const held = await earningOf(flagged.id);
    expect(held).toMatchObject({ status: 'held', hold_reasons: reupload.reasons, payout_id: null });
    await waitFor(() => (eventsOf('rewards.earning-held', held.id).length === 1 ? true : undefined));

    const dashboard = await h.client.getDashboard({ userId: clipper.id });
    expect(dashboard.earningsSummary).toEqual({ paid: '0', pending: '10', held: '10', total: '20' });
    const listed = await h.client.listEarnings({ userId: clipper.id, limit: 10 });
    expect(listed.earnings.find((e) => e.id === held.id)).toMatchObject({ status: 'held', holdReasons: reupload.reasons });

    expect(await run(runAt(1))).toMatchObject({ paid: 1, amount: '10' });
    expect((await earningOf(clean.id)).status).toBe('paid');
    expect(await earningOf(flagged.id)).toMatchObject({ status: 'held', payout_id: null });
    // The public ledger lists what was paid: the clean clip's 10, never the held 10.
    const ledger = await h.client.listPayouts({ limit: 10, userId: clipper.id });
    expect(ledger.payouts.map((p) => [p.amount, p.earningsCount])).toEqual([['10', 1]]);

    const released = await h.client.releaseEarning({ earningId: held.id, reason: '  The original is theirs  ', actor: 'admin-token-1' });
    expect(released).toMatchObject({
      earningId: held.id,
      status: 'pending',
      reasons: reupload.reasons,
      decision: { decision: 'released', reason: 'The original is theirs', by: 'admin-token-1' },
    });
    const [releasedEvent] = await waitFor(() => {
      const seen = eventsOf('rewards.earning-released', held.id);
      return seen.length === 1 ? seen : undefined;
    });
    expect(releasedEvent!.envelope.data).toMatchObject({
      userId: clipper.id,
      amount: '10',
      by: 'admin-token-1',
      reason: 'The original is theirs',
    });

    expect(await run(runAt(2))).toMatchObject({ paid: 1, amount: '10' });
    expect((await earningOf(flagged.id)).status).toBe('paid');
    const after = await h.client.listPayouts({ limit: 10, userId: clipper.id });
    expect(after.payouts.map((p) => p.amount)).toEqual(['10', '10']);
    expect((await h.client.getDashboard({ userId: clipper.id })).earningsSummary).toEqual({
      paid: '20',
      pending: '0',
      held: '0',
      total: '20',
    });
  });

  it('holds a pending earning when a later snapshot flags its clip; voided, no run ever pays it', async () => {
    const clipper = await h.newUser('clipper', { walletAddress: wallet() });
    const s = await h.submission('submission.approved', { userId: clipper.id });
    expect((await earningOf(s.id)).status).toBe('pending');
    await later(s, views, 'metrics.updated');
    const held = await earningOf(s.id);
    expect(held).toMatchObject({ status: 'held', hold_reasons: views.reasons });

    const voided = await h.client.voidEarning({ earningId: held.id, reason: 'Bought views', actor: 'admin-token-2' });
    expect(voided).toMatchObject({ status: 'voided', decision: { decision: 'voided', reason: 'Bought views' } });
    await waitFor(() => (eventsOf('rewards.earning-voided', held.id).length === 1 ? true : undefined));
    const listed = await h.client.listEarnings({ userId: clipper.id, limit: 10 });
    expect(listed.earnings[0]).toMatchObject({ status: 'voided', decision: { decision: 'voided', reason: 'Bought views' } });
    expect(listed.earnings[0]!.decision!.by).toBeUndefined();

    await run(runAt(3));
    await run(runAt(4));
    expect(await earningOf(s.id)).toMatchObject({ status: 'voided', payout_id: null });
    expect((await h.client.listPayouts({ limit: 10, userId: clipper.id })).payouts).toEqual([]);
    expect((await h.client.getDashboard({ userId: clipper.id })).earningsSummary).toEqual({
      paid: '0',
      pending: '0',
      held: '0',
      total: '0',
    });
  });

  it('does not hold again for the causes an admin decided, but does for a new one; repeated events change nothing', async () => {
    const clipper = await h.newUser('clipper', { walletAddress: wallet() });
    const s = await h.submission('submission.approved', { userId: clipper.id, hold: reupload });
    const held = await earningOf(s.id);
    await h.client.releaseEarning({ earningId: held.id, reason: 'Checked: their own edit', actor: 'admin-token-1' });

    // The same flag again (the clip's matches stored again, a metrics read carrying it): it stays released.
    const again = await later(s, reupload, 'submission.matches-changed');
    await later(again, reupload, 'metrics.updated');
    expect(await earningOf(s.id)).toMatchObject({ status: 'pending', decision: 'released' });

    // The same event delivered twice is applied once.
    const flaggedAgain = {
      ...again,
      hold: { causes: ['reupload', 'views'], reasons: [...reupload.reasons, ...views.reasons] } as SubmissionHoldSnapshot,
    };
    const event = { submission: { ...flaggedAgain, updatedAt: new Date(Date.now() + 1000).toISOString() }, matchCount: 1 };
    // Twice, as two events (a snapshot stated again), and one of them redelivered.
    const eventId = '3e0f6b0a-2a47-4d1f-9f7e-5b1c2d3e4f50';
    await h.publisher.publish('submission.matches-changed', event, { id: eventId });
    await h.publisher.publish('submission.matches-changed', event, { id: eventId });
    await h.publisher.publish('submission.matches-changed', event);
    await waitFor(async () => ((await earningOf(s.id)).status === 'held' ? true : undefined), 10_000, 'held for the new cause');
    await waitFor(() => (eventsOf('rewards.earning-held', held.id).length === 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    expect(eventsOf('rewards.earning-held', held.id)).toHaveLength(2);
    expect((await earningOf(s.id)).hold_reasons).toEqual([...reupload.reasons, ...views.reasons]);
  });

  it('refuses a decision on an unknown earning, one not held, and one without a reason', async () => {
    const clipper = await h.newUser('clipper', { walletAddress: wallet() });
    const s = await h.submission('submission.approved', { userId: clipper.id });
    const pending = await earningOf(s.id);
    const refusal = async (call: Promise<unknown>) => {
      const err = await call.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(GrpcCallError);
      return [(err as GrpcCallError).code, (err as GrpcCallError).message];
    };
    expect(await refusal(h.client.releaseEarning({ earningId: '00000000-0000-4000-8000-000000000000', reason: 'x', actor: 'a' }))).toEqual([
      status.NOT_FOUND,
      'Earning not found',
    ]);
    expect(await refusal(h.client.voidEarning({ earningId: pending.id, reason: 'x', actor: 'a' }))).toEqual([
      status.FAILED_PRECONDITION,
      'This earning is not held',
    ]);
    expect(await refusal(h.client.voidEarning({ earningId: pending.id, reason: ' ', actor: 'a' }))).toEqual([
      status.INVALID_ARGUMENT,
      'A reason is required',
    ]);
  });

  it('reads the holds of a page of submissions at once for the admin list', async () => {
    const clipper = await h.newUser('clipper', { walletAddress: wallet() });
    const flagged = await h.submission('submission.approved', { userId: clipper.id, hold: reupload });
    const clean = await h.submission('submission.approved', { userId: clipper.id });
    const { holds } = await h.client.listHolds({ submissionIds: [flagged.id, clean.id, submissionSnapshot().id] });
    expect(holds).toEqual([
      expect.objectContaining({ submissionId: flagged.id, userId: clipper.id, amount: '10', status: 'held', reasons: reupload.reasons }),
    ]);
  });
});
