import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rejected, startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';

// Appeals (ADR 0051) against the real Postgres and NATS: filing once per clip and kind, the admin's
// decision with its effects and events through the outbox, rewards' hold events mirrored through the
// inbox in their own order, and every refusal with its words.

let h: SubmissionsHarness;

beforeAll(async () => {
  h = await startSubmissions({ METRICS_SCHEDULER_INTERVAL_SECONDS: 3600 });
});

afterAll(async () => {
  await h?.stop();
});

const MIN = 60_000;

async function rejectedClip(reason = 'Not a gaming clip') {
  const created = await h.newSubmission();
  await h.client.reject({ submissionId: created.id, reason });
  return created;
}

async function heldClip(reasons = ['Its video matches an earlier clip by another clipper']) {
  const created = await h.newSubmission();
  await h.client.approve({ submissionId: created.id });
  const earningId = randomUUID();
  const at = new Date();
  await rewardsEvent('rewards.earning-held', {
    earningId,
    userId: created.userId,
    submissionId: created.id,
    amount: '10',
    reasons,
    at: at.toISOString(),
  });
  return { ...created, earningId, heldAt: at };
}

async function rewardsEvent(
  type: 'rewards.earning-held' | 'rewards.earning-released' | 'rewards.earning-voided',
  data: Record<string, unknown>,
) {
  const full = type === 'rewards.earning-held' ? data : { by: 'tok-admin', reason: 'decided', ...data };
  const { seq } = await h.mediaWorker.publish(type, full as never);
  await h.consumerPast(seq);
}

const mirror = async (id: string) =>
  (
    await h.rows<{ earning_hold: string | null; earning_id: string | null; earning_hold_reasons: string[] | null }>(
      'SELECT earning_hold, earning_id, earning_hold_reasons FROM submissions WHERE id = $1',
      [id],
    )
  )[0]!;

const events = (type: string, key: string, id: string) =>
  h.rows<{ data: Record<string, unknown> }>(
    `SELECT envelope->'data' AS data FROM outbox WHERE type = $1 AND envelope->'data'->$2->>'${key === 'submission' ? 'id' : 'appealId'}' = $3 ORDER BY seq`,
    [type, key, id],
  );

describe('an appeal of a rejection', () => {
  it('is filed once with the rejection it appeals, and an overturn approves the clip through moderation', async () => {
    const clip = await rejectedClip();
    const appeal = await h.client.fileAppeal({
      submissionId: clip.id,
      userId: clip.userId,
      text: '  It is a gaming clip: the game is on screen  ',
    });
    expect(appeal).toMatchObject({
      submissionId: clip.id,
      kind: 'rejection',
      status: 'pending',
      text: 'It is a gaming clip: the game is on screen',
      rejectedReason: 'Not a gaming clip',
      postUrl: clip.url,
    });
    expect((await events('appeal.filed', 'appeal', appeal.id))[0]?.data).toMatchObject({
      appeal: { appealId: appeal.id, status: 'pending', decision: null },
    });

    const second = await rejected(h.client.fileAppeal({ submissionId: clip.id, userId: clip.userId, text: 'again' }));
    expect([second.code, second.message]).toEqual([status.ALREADY_EXISTS, 'You have already appealed this decision']);

    const decided = await h.client.decideAppeal({
      appealId: appeal.id,
      outcome: 'overturned',
      reason: 'The game is on screen',
      decidedBy: 'tok-1',
    });
    expect(decided).toMatchObject({ status: 'overturned', decisionReason: 'The game is on screen', decidedBy: 'tok-1' });
    const now = await h.client.getSubmission({ id: clip.id });
    expect(now.status).toBe('approved');
    expect(now.rejectedReason).toBeUndefined();
    expect(now.approvedAt).toBeDefined();
    // The usual consequences of an approval follow from its own event, in the decision's transaction.
    expect(await events('submission.approved', 'submission', clip.id)).toHaveLength(1);
    expect((await events('appeal.decided', 'appeal', appeal.id))[0]?.data).toMatchObject({
      appeal: { status: 'overturned', decision: { outcome: 'overturned', reason: 'The game is on screen', by: 'tok-1' } },
    });
    const again = await rejected(h.client.decideAppeal({ appealId: appeal.id, outcome: 'upheld', reason: 'no', decidedBy: 'tok-1' }));
    expect([again.code, again.message]).toEqual([status.FAILED_PRECONDITION, 'This appeal has already been decided']);
    // Approved with nothing held: nothing left to appeal, and the rejection was appealed already.
    const after = await rejected(h.client.fileAppeal({ submissionId: clip.id, userId: clip.userId, text: 'more' }));
    expect(after.code).toBe(status.ALREADY_EXISTS);
  });

  it('upheld changes nothing but the appeal', async () => {
    const clip = await rejectedClip();
    const appeal = await h.client.fileAppeal({ submissionId: clip.id, userId: clip.userId, text: 'Please look again' });
    const decided = await h.client.decideAppeal({
      appealId: appeal.id,
      outcome: 'upheld',
      reason: 'Still not a gaming clip',
      decidedBy: 'tok-1',
    });
    expect(decided.status).toBe('upheld');
    expect((await h.client.getSubmission({ id: clip.id })).status).toBe('rejected');
    expect(await events('submission.approved', 'submission', clip.id)).toHaveLength(0);
  });

  it('takes two filings at once as one: the other is a conflict', async () => {
    const clip = await rejectedClip();
    const results = await Promise.allSettled([
      h.client.fileAppeal({ submissionId: clip.id, userId: clip.userId, text: 'one' }),
      h.client.fileAppeal({ submissionId: clip.id, userId: clip.userId, text: 'two' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await h.count('SELECT count(*) FROM appeals WHERE submission_id = $1', [clip.id])).toBe(1);
  });
});

describe('an appeal of a held earning', () => {
  it("mirrors rewards' hold through the inbox and appeals it with its reasons; an overturn asks rewards to release it", async () => {
    const clip = await heldClip();
    expect(await mirror(clip.id)).toEqual({
      earning_hold: 'held',
      earning_id: clip.earningId,
      earning_hold_reasons: ['Its video matches an earlier clip by another clipper'],
    });
    const appeal = await h.client.fileAppeal({ submissionId: clip.id, userId: clip.userId, text: 'I made both clips' });
    expect(appeal).toMatchObject({
      kind: 'hold',
      earningId: clip.earningId,
      holdReasons: ['Its video matches an earlier clip by another clipper'],
    });
    await h.client.decideAppeal({ appealId: appeal.id, outcome: 'overturned', reason: 'Both are theirs', decidedBy: 'tok-1' });
    expect((await events('appeal.decided', 'appeal', appeal.id))[0]?.data).toMatchObject({
      appeal: { kind: 'hold', earningId: clip.earningId, status: 'overturned', decision: { reason: 'Both are theirs' } },
    });
    // The clip itself is not touched: rewards releases the earning and says so.
    expect((await h.client.getSubmission({ id: clip.id })).status).toBe('approved');
    expect(await events('submission.approved', 'submission', clip.id)).toHaveLength(1);
  });

  it('applies the hold events in their order: a late hold after a release changes nothing; a replay neither', async () => {
    const clip = await heldClip();
    await rewardsEvent('rewards.earning-released', {
      earningId: clip.earningId,
      userId: clip.userId,
      submissionId: clip.id,
      amount: '10',
      at: new Date(clip.heldAt.getTime() + 5 * MIN).toISOString(),
    });
    expect((await mirror(clip.id)).earning_hold).toBe('released');
    await rewardsEvent('rewards.earning-held', {
      earningId: clip.earningId,
      userId: clip.userId,
      submissionId: clip.id,
      amount: '10',
      reasons: ['old'],
      at: clip.heldAt.toISOString(),
    });
    expect((await mirror(clip.id)).earning_hold).toBe('released');
    // Released: nothing to appeal.
    const refused = await rejected(h.client.fileAppeal({ submissionId: clip.id, userId: clip.userId, text: 'why' }));
    expect([refused.code, refused.message]).toEqual([
      status.INVALID_ARGUMENT,
      'Only a rejected clip or a clip whose earning is held can be appealed',
    ]);
    // An event about a clip this service does not know is acknowledged and changes nothing.
    await rewardsEvent('rewards.earning-voided', {
      earningId: randomUUID(),
      userId: randomUUID(),
      submissionId: randomUUID(),
      amount: '1',
      at: new Date().toISOString(),
    });
    expect(await h.deadLetters()).toBe(0);
  });
});

describe('refusals', () => {
  it("answers another's clip and an unknown one alike, a pending clip and a long text with the words to show", async () => {
    const clip = await rejectedClip();
    const others = await rejected(h.client.fileAppeal({ submissionId: clip.id, userId: randomUUID(), text: 'mine' }));
    expect([others.code, others.message]).toEqual([status.NOT_FOUND, 'Submission not found']);
    const unknown = await rejected(h.client.fileAppeal({ submissionId: randomUUID(), userId: clip.userId, text: 'mine' }));
    expect([unknown.code, unknown.message]).toEqual([status.NOT_FOUND, 'Submission not found']);
    const tooLong = await rejected(h.client.fileAppeal({ submissionId: clip.id, userId: clip.userId, text: 'x'.repeat(1001) }));
    expect([tooLong.code, tooLong.message]).toEqual([status.INVALID_ARGUMENT, 'An appeal must be at most 1,000 characters']);
    const pending = await h.newSubmission();
    const notYet = await rejected(h.client.fileAppeal({ submissionId: pending.id, userId: pending.userId, text: 'mine' }));
    expect(notYet.code).toBe(status.INVALID_ARGUMENT);
    expect(await h.count('SELECT count(*) FROM appeals WHERE submission_id = ANY($1)', [[clip.id, pending.id]])).toBe(0);
  });

  it('refuses a decision on an unknown appeal, with an unknown outcome or without a reason', async () => {
    const none = await rejected(h.client.decideAppeal({ appealId: randomUUID(), outcome: 'upheld', reason: 'x', decidedBy: 'tok-1' }));
    expect([none.code, none.message]).toEqual([status.NOT_FOUND, 'Appeal not found']);
    const clip = await rejectedClip();
    const appeal = await h.client.fileAppeal({ submissionId: clip.id, userId: clip.userId, text: 'mine' });
    const bad = await rejected(h.client.decideAppeal({ appealId: appeal.id, outcome: 'maybe', reason: 'x', decidedBy: 'tok-1' }));
    expect([bad.code, bad.message]).toEqual([status.INVALID_ARGUMENT, "Outcome must be 'upheld' or 'overturned'"]);
    const blank = await rejected(h.client.decideAppeal({ appealId: appeal.id, outcome: 'upheld', reason: ' ', decidedBy: 'tok-1' }));
    expect([blank.code, blank.message]).toEqual([status.INVALID_ARGUMENT, 'A reason is required']);
  });
});

describe('the lists', () => {
  it("pages a clipper's own appeals newest first, and the admin's pending first then oldest first", async () => {
    const userId = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const created = await h.newSubmission(userId);
      await h.client.reject({ submissionId: created.id, reason: `r${i}` });
      ids.push((await h.client.fileAppeal({ submissionId: created.id, userId, text: `appeal ${i}` })).id);
    }
    const first = await h.client.listMyAppeals({ userId, limit: 2 });
    expect(first.appeals.map((a) => a.id)).toEqual([ids[2], ids[1]]);
    const second = await h.client.listMyAppeals({ userId, limit: 2, cursor: first.nextCursor });
    expect(second.appeals.map((a) => a.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeUndefined();

    await h.client.decideAppeal({ appealId: ids[0]!, outcome: 'upheld', reason: 'no', decidedBy: 'tok-1' });
    const all: string[] = [];
    const statuses: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.client.listAppeals({ limit: 2, ...(cursor ? { cursor } : {}) });
      all.push(...page.appeals.map((a) => a.id));
      statuses.push(...page.appeals.map((a) => a.status));
      cursor = page.nextCursor;
    } while (cursor);
    // Every appeal once, pending ones before decided ones, each group oldest first.
    expect(new Set(all).size).toBe(all.length);
    const firstDecided = statuses.findIndex((s) => s !== 'pending');
    expect(statuses.slice(firstDecided).every((s) => s !== 'pending')).toBe(true);
    expect(all.indexOf(ids[1]!)).toBeLessThan(all.indexOf(ids[2]!));
    expect(all.indexOf(ids[0]!)).toBeGreaterThan(all.indexOf(ids[2]!));
    const bad = await rejected(h.client.listAppeals({ cursor: 'nope' }));
    expect([bad.code, bad.message]).toEqual([status.INVALID_ARGUMENT, 'Invalid cursor']);
  });
});
