import { describe, expect, it } from '@jest/globals';
import { decideAppealBody, fileAppealBody, toAppealJson } from './appeals.schemas.js';

describe('the appeal bodies (ADR 0051)', () => {
  it("carries the clipper's text as it is, for the owner's rule and words", () => {
    expect(fileAppealBody.parse({ text: '  mine  ' })).toEqual({ text: '  mine  ' });
    // Missing or null: the owner answers 'Please say why the decision should change'.
    expect(fileAppealBody.parse({})).toEqual({ text: '' });
    expect(fileAppealBody.safeParse({ text: 'x', extra: 1 }).error?.issues[0]?.message).toBe('Unknown field: extra');
  });

  it('names the two outcomes when another is sent', () => {
    expect(decideAppealBody.parse({ outcome: 'upheld', reason: 'fair' })).toEqual({ outcome: 'upheld', reason: 'fair' });
    expect(decideAppealBody.safeParse({ outcome: 'maybe', reason: 'fair' }).error?.issues[0]?.message).toBe(
      "Outcome must be 'upheld' or 'overturned'",
    );
    expect(decideAppealBody.safeParse({ reason: 'fair' }).error?.issues[0]?.message).toBe("Outcome must be 'upheld' or 'overturned'");
  });

  it('answers absent optionals as null and never the deciding admin to the clipper', () => {
    const json = toAppealJson({
      id: 'a',
      submissionId: 's',
      kind: 'rejection',
      text: 'mine',
      status: 'pending',
      postUrl: 'https://x.com/a/status/1',
      submissionName: 'Clip',
      holdReasons: [],
      createdAt: '2026-11-29T12:00:00.000Z',
    });
    expect(json).toMatchObject({ rejectedReason: null, decisionReason: null, decidedAt: null });
    expect(json).not.toHaveProperty('decidedBy');
  });
});
