import { status } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@clipit/service-kit';
import { checkRejectReason, nextModerationState, type ModerationCommand, type ModerationState } from './moderation.js';

const pending: ModerationState = { status: 'pending', addedToFeed: false };
const approved: ModerationState = { status: 'approved', addedToFeed: false };
const inFeed: ModerationState = { status: 'approved', addedToFeed: true };
const rejected: ModerationState = { status: 'rejected', addedToFeed: false };

describe('moderation transitions (spec 02 §4)', () => {
  it.each([
    [pending, 'approve', approved],
    [pending, 'approve-and-add-to-feed', inFeed],
    [pending, 'reject', rejected],
    [approved, 'add-to-feed', inFeed],
    [inFeed, 'remove-from-feed', approved],
  ] as Array<[ModerationState, ModerationCommand, ModerationState]>)('%j --%s--> %j', (from, command, to) => {
    expect(nextModerationState(from, command)).toEqual(to);
  });

  it.each([
    [approved, 'approve', 'Only a pending submission can be approved (this one is approved)'],
    [rejected, 'approve', 'Only a pending submission can be approved (this one is rejected)'],
    [rejected, 'approve-and-add-to-feed', 'Only a pending submission can be approved (this one is rejected)'],
    [approved, 'reject', 'Only a pending submission can be rejected (this one is approved)'],
    [rejected, 'reject', 'Only a pending submission can be rejected (this one is rejected)'],
    [pending, 'add-to-feed', 'Only an approved submission can be in the feed (this one is pending)'],
    [rejected, 'add-to-feed', 'Only an approved submission can be in the feed (this one is rejected)'],
    [inFeed, 'add-to-feed', 'This submission is already in the feed'],
    [approved, 'remove-from-feed', 'This submission is not in the feed'],
    [pending, 'remove-from-feed', 'Only an approved submission can be in the feed (this one is pending)'],
  ] as Array<[ModerationState, ModerationCommand, string]>)('refuses %j --%s-->', (from, command, message) => {
    try {
      nextModerationState(from, command);
      throw new Error('expected a refusal');
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe(status.FAILED_PRECONDITION);
      expect((err as DomainError).message).toBe(message);
    }
  });

  it('keeps a trimmed reason of at most 500 characters', () => {
    expect(checkRejectReason('  low quality ')).toBe('low quality');
    expect(checkRejectReason('   ')).toBeNull();
    expect(checkRejectReason(undefined)).toBeNull();
    expect(() => checkRejectReason('x'.repeat(501))).toThrow('Rejection reason must be at most 500 characters');
  });
});
