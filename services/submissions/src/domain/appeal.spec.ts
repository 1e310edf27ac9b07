import { status } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@clipit/service-kit';
import type { AppealEntity } from '../entities/appeal.entity.js';
import {
  appealText,
  applyEarningHold,
  approvesClip,
  checkDecision,
  decide,
  decodeAdminCursor,
  encodeAdminCursor,
  kindToAppeal,
  newAppeal,
  toAppealSnapshot,
} from './appeal.js';
import { overturnRejection } from './moderation.js';

const OWNER = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const SUBMISSION = '00000000-0000-4000-8000-000000000003';
const EARNING = '00000000-0000-4000-8000-000000000004';
const APPEAL = '00000000-0000-4000-8000-000000000005';
const NOW = new Date('2026-11-29T12:00:00.000Z');

function refusal(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return { code: (err as DomainError).code, message: (err as DomainError).message };
  }
  throw new Error('expected a refusal');
}

const clip = (s: { status: 'pending' | 'approved' | 'rejected'; earningHold?: 'held' | 'released' | 'voided' | null }) => ({
  userId: OWNER,
  status: s.status,
  earningHold: s.earningHold ?? null,
});

describe('filing an appeal (ADR 0051)', () => {
  it('appeals a rejected clip as a rejection and an approved clip whose earning is held as a hold', () => {
    expect(kindToAppeal(clip({ status: 'rejected' }), OWNER, [])).toBe('rejection');
    expect(kindToAppeal(clip({ status: 'approved', earningHold: 'held' }), OWNER, [])).toBe('hold');
    // A rejection appealed and upheld leaves a hold appeal possible, later, for a clip approved otherwise.
    expect(kindToAppeal(clip({ status: 'approved', earningHold: 'held' }), OWNER, ['rejection'])).toBe('hold');
  });

  it("hides another clipper's clip and an unknown one behind the same 404", () => {
    expect(refusal(() => kindToAppeal(clip({ status: 'rejected' }), OTHER, []))).toEqual({
      code: status.NOT_FOUND,
      message: 'Submission not found',
    });
    expect(refusal(() => kindToAppeal(undefined, OWNER, []))).toEqual({ code: status.NOT_FOUND, message: 'Submission not found' });
  });

  it('refuses a second appeal of the same kind (409) and a clip with nothing to appeal (400)', () => {
    expect(refusal(() => kindToAppeal(clip({ status: 'rejected' }), OWNER, ['rejection']))).toEqual({
      code: status.ALREADY_EXISTS,
      message: 'You have already appealed this decision',
    });
    for (const c of [clip({ status: 'pending' }), clip({ status: 'approved' }), clip({ status: 'approved', earningHold: 'released' })]) {
      expect(refusal(() => kindToAppeal(c, OWNER, []))).toEqual({
        code: status.INVALID_ARGUMENT,
        message: 'Only a rejected clip or a clip whose earning is held can be appealed',
      });
    }
    // Once an appeal was decided the clip may have nothing left to appeal: still a second appeal.
    expect(refusal(() => kindToAppeal(clip({ status: 'approved', earningHold: 'released' }), OWNER, ['hold'])).code).toBe(
      status.ALREADY_EXISTS,
    );
  });

  it('keeps the trimmed text and refuses one over 1,000 characters naming the limit', () => {
    expect(appealText('  mine  ')).toBe('mine');
    expect(refusal(() => appealText('x'.repeat(1001)))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: 'An appeal must be at most 1,000 characters',
    });
    expect(refusal(() => appealText('  ')).code).toBe(status.INVALID_ARGUMENT);
  });

  it('keeps what was appealed as it stood: the rejection reason, or the hold and its earning', () => {
    const s = { id: SUBMISSION, userId: OWNER, rejectedReason: 'Not a clip', earningId: EARNING, earningHoldReasons: ['A copy'] };
    expect(newAppeal(APPEAL, s, 'rejection', 'mine', NOW)).toMatchObject({
      kind: 'rejection',
      status: 'pending',
      rejectedReason: 'Not a clip',
      earningId: null,
      holdReasons: null,
    });
    expect(newAppeal(APPEAL, s, 'hold', 'mine', NOW)).toMatchObject({
      kind: 'hold',
      earningId: EARNING,
      holdReasons: ['A copy'],
      rejectedReason: null,
    });
  });
});

describe('deciding an appeal', () => {
  const pending: AppealEntity = newAppeal(
    APPEAL,
    { id: SUBMISSION, userId: OWNER, rejectedReason: 'Not a clip', earningId: null, earningHoldReasons: null },
    'rejection',
    'mine',
    NOW,
  );

  it('checks the outcome, the reason and who decides before anything is read', () => {
    expect(checkDecision('overturned', ' fair ', 'tok-1')).toEqual({ outcome: 'overturned', reason: 'fair', by: 'tok-1' });
    expect(refusal(() => checkDecision('maybe', 'fair', 'tok-1'))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: "Outcome must be 'upheld' or 'overturned'",
    });
    expect(refusal(() => checkDecision('upheld', '', 'tok-1'))).toEqual({ code: status.INVALID_ARGUMENT, message: 'A reason is required' });
    expect(refusal(() => checkDecision('upheld', 'x'.repeat(501), 'tok-1')).message).toBe('Reason must be at most 500 characters');
  });

  it('decides a pending appeal once; a decided or unknown one is refused', () => {
    const decided = decide(pending, { outcome: 'overturned', reason: 'fair', by: 'tok-1' }, NOW);
    expect(decided).toMatchObject({ status: 'overturned', decisionReason: 'fair', decidedBy: 'tok-1', decidedAt: NOW });
    expect(refusal(() => decide(decided, { outcome: 'upheld', reason: 'again', by: 'tok-1' }, NOW))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: 'This appeal has already been decided',
    });
    expect(refusal(() => decide(undefined, { outcome: 'upheld', reason: 'x', by: 'tok-1' }, NOW))).toEqual({
      code: status.NOT_FOUND,
      message: 'Appeal not found',
    });
    expect(toAppealSnapshot(decided).decision).toEqual({ outcome: 'overturned', reason: 'fair', by: 'tok-1', at: NOW.toISOString() });
    expect(toAppealSnapshot(pending).decision).toBeNull();
  });

  it('approves the clip only for an overturned rejection', () => {
    expect(approvesClip({ kind: 'rejection', status: 'overturned' })).toBe(true);
    expect(approvesClip({ kind: 'rejection', status: 'upheld' })).toBe(false);
    expect(approvesClip({ kind: 'hold', status: 'overturned' })).toBe(false);
    expect(overturnRejection({ status: 'rejected', addedToFeed: false })).toEqual({ status: 'approved', addedToFeed: false });
    expect(refusal(() => overturnRejection({ status: 'approved', addedToFeed: false })).code).toBe(status.FAILED_PRECONDITION);
  });
});

describe("the mirror of rewards' holds", () => {
  const t = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
  const fresh = () =>
    ({ earningHold: null, earningId: null, earningHoldReasons: null, earningHoldAt: null }) as Parameters<typeof applyEarningHold>[0];

  it('applies events in their own order: a replay or an older event changes nothing', () => {
    const s = fresh();
    expect(applyEarningHold(s, { state: 'held', earningId: EARNING, reasons: ['A copy'], at: t(0) })).toBe(true);
    expect(s).toMatchObject({ earningHold: 'held', earningId: EARNING, earningHoldReasons: ['A copy'] });
    expect(applyEarningHold(s, { state: 'held', earningId: EARNING, reasons: ['A copy'], at: t(0) })).toBe(false);
    expect(applyEarningHold(s, { state: 'released', earningId: EARNING, at: t(5) })).toBe(true);
    expect(s.earningHold).toBe('released');
    // The hold arriving late (redelivered) does not hold it again.
    expect(applyEarningHold(s, { state: 'held', earningId: EARNING, reasons: ['A copy'], at: t(0) })).toBe(false);
    expect(s.earningHold).toBe('released');
    // A new hold later (a new cause) does, with its reasons.
    expect(applyEarningHold(s, { state: 'held', earningId: EARNING, reasons: ['Views'], at: t(10) })).toBe(true);
    expect(s).toMatchObject({ earningHold: 'held', earningHoldReasons: ['Views'] });
  });

  it('lets a decision at the same instant follow the hold, not the reverse', () => {
    const s = fresh();
    applyEarningHold(s, { state: 'held', earningId: EARNING, reasons: ['A copy'], at: t(0) });
    expect(applyEarningHold(s, { state: 'voided', earningId: EARNING, at: t(0) })).toBe(true);
    expect(applyEarningHold(s, { state: 'held', earningId: EARNING, reasons: ['A copy'], at: t(0) })).toBe(false);
    expect(s.earningHold).toBe('voided');
  });
});

describe("the admin list's cursor", () => {
  it('round-trips a position and refuses anything else', () => {
    const p = { rank: 1 as const, createdAt: NOW, id: APPEAL };
    expect(decodeAdminCursor(encodeAdminCursor(p))).toEqual(p);
    expect(refusal(() => decodeAdminCursor('nope'))).toEqual({ code: status.INVALID_ARGUMENT, message: 'Invalid cursor' });
  });
});
