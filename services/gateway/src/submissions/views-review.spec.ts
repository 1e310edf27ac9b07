import type { adminV1, submissionsV1 } from '@clipit/contracts';
import { describe, expect, it } from '@jest/globals';
import { toViewRiskJson, viewRiskField } from '../admin/view-risk.schemas.js';
import { submissionSchema, toSubmissionJson } from './submissions.schemas.js';

// The view risk (ADR 0049) as the gateway answers it: the whole assessment to moderators, and to the
// clipper only the reasons of a clip under review, never the score.

const REASONS = ['Views jumped from 1,200 to 48,000 between two reads an hour apart while likes and retweets rose by 2.'];

function aSubmission(risk: submissionsV1.ViewRisk | undefined): submissionsV1.Submission {
  return {
    id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
    userId: '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11',
    name: 'A clip',
    url: 'https://x.com/clipper/status/1790000000000000000',
    platform: 'twitter',
    externalId: '1790000000000000000',
    authorHandle: 'clipper',
    walletAddress: '',
    status: 'approved',
    addedToFeed: false,
    videoState: 'none',
    hasVideo: false,
    isProcessing: false,
    views: 48_000,
    likes: 31,
    retweets: 5,
    replies: 3,
    createdAt: '2026-11-29T10:00:00.000Z',
    updatedAt: '2026-11-29T11:00:00.000Z',
    verificationCode: 'CLIP-7KQ2MX',
    guideChecks: [],
    matches: [],
    matchesChecked: false,
    ...(risk ? { risk } : {}),
  };
}

describe("the clipper's viewsReview", () => {
  it('carries the reasons while the clip is under review, and nothing else of the assessment', () => {
    const json = toSubmissionJson(aSubmission({ score: 100, reasons: REASONS, underReview: true }));
    expect(json.viewsReview).toEqual({ reasons: REASONS });
    expect(submissionSchema.parse(json)).not.toHaveProperty('risk');
    expect(JSON.stringify(submissionSchema.parse(json))).not.toContain('"score"');
  });

  it('is null below the threshold and before the post is judged', () => {
    expect(toSubmissionJson(aSubmission({ score: 45, reasons: REASONS, underReview: false })).viewsReview).toBeNull();
    expect(toSubmissionJson(aSubmission(undefined)).viewsReview).toBeNull();
  });
});

describe("the admin list's risk", () => {
  it('is the assessment as submissions judged it, null until judged, [] reasons when gRPC left them out', () => {
    expect(toViewRiskJson({ score: 100, reasons: REASONS, underReview: true })).toEqual({
      score: 100,
      reasons: REASONS,
      underReview: true,
    });
    expect(toViewRiskJson(undefined)).toBeNull();
    expect(toViewRiskJson(null as unknown as adminV1.ViewRisk)).toBeNull();
    expect(toViewRiskJson({ score: 0 } as adminV1.ViewRisk)).toEqual({ score: 0, reasons: [], underReview: false });
    expect(viewRiskField.safeParse({ score: 101, reasons: [], underReview: true }).success).toBe(false);
  });
});
