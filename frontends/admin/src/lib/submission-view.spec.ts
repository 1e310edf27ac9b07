import { describe, expect, it } from '@jest/globals';
import { checkRejectReason, REJECT_REASON_MESSAGES } from '@clipit/field-rules';
import { actionsFor, platformLabel } from './submission-view.js';

describe('the moderation rules the list applies (spec 02 §2.4, §4)', () => {
  it('names each platform', () => {
    expect(platformLabel('twitter')).toBe('Twitter/X');
    expect(platformLabel('instagram')).toBe('Instagram');
    expect(platformLabel('tiktok')).toBe('TikTok');
    expect(platformLabel('other')).toBe('Other Platform');
  });

  it('offers the transitions of each state and none for a rejected one', () => {
    expect(actionsFor({ status: 'pending', addedToFeed: 'false' })).toEqual(['approve', 'approve-and-add-to-feed', 'reject']);
    expect(actionsFor({ status: 'approved', addedToFeed: 'false' })).toEqual(['add-to-feed']);
    expect(actionsFor({ status: 'approved', addedToFeed: 'true' })).toEqual(['remove-from-feed']);
    expect(actionsFor({ status: 'rejected', addedToFeed: 'false' })).toEqual([]);
  });

  it('checks a rejection reason as the gateway does: trimmed, at most 500, empty means none', () => {
    expect(checkRejectReason('')).toEqual({});
    expect(checkRejectReason('   ')).toEqual({});
    expect(checkRejectReason(' why ')).toEqual({ reason: 'why' });
    expect(checkRejectReason('x'.repeat(500))).toEqual({ reason: 'x'.repeat(500) });
    expect(checkRejectReason(`  ${'x'.repeat(500)}  `)).toEqual({ reason: 'x'.repeat(500) });
    expect(checkRejectReason('x'.repeat(501))).toEqual({ error: REJECT_REASON_MESSAGES.tooLong });
  });
});
