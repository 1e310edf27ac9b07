import { describe, expect, it } from '@jest/globals';
import type { AppealSnapshot } from '@clipit/contracts';
import { releasesHeldEarning } from './earning-hold.js';

const appeal: AppealSnapshot = {
  appealId: '00000000-0000-4000-8000-000000000001',
  submissionId: '00000000-0000-4000-8000-000000000002',
  userId: '00000000-0000-4000-8000-000000000003',
  kind: 'hold',
  text: 'It is my own clip',
  status: 'overturned',
  earningId: '00000000-0000-4000-8000-000000000004',
  decision: { outcome: 'overturned', reason: 'The original is theirs', by: 'tok-1', at: '2026-11-29T12:00:00.000Z' },
  createdAt: '2026-11-29T11:00:00.000Z',
};

describe('the release an appeal asks for (ADR 0051)', () => {
  it("releases the held earning of an overturned hold appeal with the admin's name and words", () => {
    expect(releasesHeldEarning(appeal)).toEqual({
      earningId: appeal.earningId,
      by: 'tok-1',
      reason: 'The original is theirs',
      at: new Date('2026-11-29T12:00:00.000Z'),
    });
  });

  it('asks nothing of an upheld appeal, a rejection appeal, or one without an earning', () => {
    expect(releasesHeldEarning({ ...appeal, status: 'upheld', decision: { ...appeal.decision!, outcome: 'upheld' } })).toBeUndefined();
    expect(releasesHeldEarning({ ...appeal, kind: 'rejection', earningId: null })).toBeUndefined();
    expect(releasesHeldEarning({ ...appeal, earningId: null })).toBeUndefined();
    expect(releasesHeldEarning({ ...appeal, status: 'pending', decision: null })).toBeUndefined();
  });
});
