import type { AppealSnapshot, SubmissionHoldSnapshot } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { PayoutService } from '../../src/services/payout.service.js';
import { startRewards, type RewardsHarness } from '../support/rewards-harness.js';

// Appeals of held earnings (ADR 0051) against the real Postgres, NATS and Redis: submissions' appeal.decided
// for an overturned hold releases the earning with the admin's reason (paid by the next run), once however
// often it arrives; an earning no longer held, an upheld appeal and a rejection's appeal change nothing.

let h: RewardsHarness;
beforeAll(async () => {
  h = await startRewards();
});
afterAll(async () => {
  await h?.stop();
});

const WEEK = 7 * 24 * 60 * 60 * 1000;
let walletSeq = 0;
const wallet = () => `ApPe${String(++walletSeq).padStart(4, '3')}${'3'.repeat(36)}`.slice(0, 44);
const reupload: SubmissionHoldSnapshot = {
  causes: ['reupload'],
  reasons: ['Its video matches a clip submitted earlier by another clipper.'],
};

const earningOf = async (submissionId: string) =>
  (
    await h.db.query<{ id: string; status: string; decision: string | null; decided_by: string | null; decision_reason: string | null }>(
      'SELECT id, status, decision, decided_by, decision_reason FROM earnings WHERE submission_id = $1',
      [submissionId],
    )
  ).rows[0]!;

const releasedEvents = (earningId: string) =>
  h.events.filter(
    (e) => e.envelope.type === 'rewards.earning-released' && (e.envelope.data as { earningId: string }).earningId === earningId,
  );

function decided(s: { id: string; userId: string }, earningId: string | null, patch: Partial<AppealSnapshot> = {}): AppealSnapshot {
  return {
    appealId: randomUUID(),
    submissionId: s.id,
    userId: s.userId,
    kind: 'hold',
    text: 'A big account shared it',
    status: 'overturned',
    earningId,
    decision: { outcome: 'overturned', reason: 'A large account reposted it', by: 'admin-token-9', at: new Date().toISOString() },
    createdAt: new Date().toISOString(),
    ...patch,
  };
}

/** Publishes appeal.decided under `id` and waits until rewards' consumer has applied (or skipped) it. */
async function publishDecided(appeal: AppealSnapshot, id = randomUUID()): Promise<void> {
  await h.publisher.publish('appeal.decided', { appeal }, { id });
  await waitFor(
    async () => ((await h.count('SELECT count(*) FROM inbox WHERE event_id = $1', [id])) === 1 ? true : undefined),
    10_000,
    'appeal.decided applied',
  );
}

describe('appeals of held earnings', () => {
  it('releases the held earning with the admin’s reason and name, once, and the next run pays it', async () => {
    const clipper = await h.newUser('clipper', { walletAddress: wallet() });
    const s = await h.submission('submission.approved', { userId: clipper.id, hold: reupload });
    const held = await earningOf(s.id);
    expect(held.status).toBe('held');

    const appeal = decided(s, held.id);
    const eventId = randomUUID();
    await publishDecided(appeal, eventId);
    expect(await earningOf(s.id)).toMatchObject({
      status: 'pending',
      decision: 'released',
      decided_by: 'admin-token-9',
      decision_reason: 'A large account reposted it',
    });
    await waitFor(() => (releasedEvents(held.id).length === 1 ? true : undefined), 10_000, 'rewards.earning-released');
    expect(releasedEvents(held.id)[0]!.envelope.data).toMatchObject({
      submissionId: s.id,
      by: 'admin-token-9',
      reason: 'A large account reposted it',
    });

    // Redelivered, and stated again under another id: the earning is no longer held, nothing changes.
    await publishDecided(appeal, eventId);
    await publishDecided(appeal);
    await new Promise((r) => setTimeout(r, 300));
    expect(releasedEvents(held.id)).toHaveLength(1);

    const paid = await h.app.get(PayoutService).run(new Date(Date.now() + WEEK + 24 * 60 * 60 * 1000));
    expect(paid.paid).toBeGreaterThanOrEqual(1);
    expect((await earningOf(s.id)).status).toBe('paid');
  });

  it('leaves a voided earning voided, and changes nothing for an upheld appeal or a rejection’s', async () => {
    const clipper = await h.newUser('clipper', { walletAddress: wallet() });
    const voided = await h.submission('submission.approved', { userId: clipper.id, hold: reupload });
    const v = await earningOf(voided.id);
    await h.client.voidEarning({ earningId: v.id, reason: 'Bought views', actor: 'admin-token-2' });
    await publishDecided(decided(voided, v.id));
    expect(await earningOf(voided.id)).toMatchObject({ status: 'voided', decision: 'voided', decision_reason: 'Bought views' });

    const stillHeld = await h.submission('submission.approved', { userId: clipper.id, hold: reupload });
    const e = await earningOf(stillHeld.id);
    await publishDecided(
      decided(stillHeld, e.id, {
        status: 'upheld',
        decision: { outcome: 'upheld', reason: 'Still a copy', by: 'admin-token-9', at: new Date().toISOString() },
      }),
    );
    await publishDecided(decided(stillHeld, null, { kind: 'rejection' }));
    expect((await earningOf(stillHeld.id)).status).toBe('held');
    expect(releasedEvents(e.id)).toHaveLength(0);
    expect(releasedEvents(v.id)).toHaveLength(0);
  });
});
