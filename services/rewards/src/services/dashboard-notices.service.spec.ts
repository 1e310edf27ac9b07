import { describe, expect, it } from '@jest/globals';
import type { RewardsConfig } from '../config.js';
import { DashboardNotices } from './dashboard-notices.service.js';

function setup() {
  const sent: Array<{ subject: string; notice: unknown }> = [];
  const nc = { publish: (subject: string, body: string) => sent.push({ subject, notice: JSON.parse(body) }) };
  const notices = new DashboardNotices(
    nc as never,
    { EVENTS_SUBJECT_PREFIX: 'p.events' } as RewardsConfig,
    { warn: () => undefined } as never,
  );
  return { notices, sent };
}

describe('DashboardNotices', () => {
  it("names the submission's clipper after a submission event", () => {
    const { notices, sent } = setup();
    notices.afterEvent({ type: 'submission.approved', data: { submission: { userId: 'clipper-1' } } } as never);
    expect(sent).toEqual([
      { subject: 'notices.p.events.rewards.changed', notice: { userIds: ['clipper-1'], cause: 'submission.approved' } },
    ]);
  });

  it("names the clipper after a snapshot that may hold their earning (the clip's matches stored, ADR 0050)", () => {
    const { notices, sent } = setup();
    notices.afterEvent({ type: 'submission.matches-changed', data: { submission: { userId: 'clipper-2' }, matchCount: 1 } } as never);
    expect(sent[0]!.notice).toEqual({ userIds: ['clipper-2'], cause: 'submission.matches-changed' });
  });

  it("names the user after identity's user events", () => {
    const { notices, sent } = setup();
    notices.afterEvent({ type: 'user.updated', data: { user: { id: 'u-9' } } } as never);
    expect(sent[0]!.notice).toEqual({ userIds: ['u-9'], cause: 'user.updated' });
  });

  it('tells everyone for an event that names no user it knows, and for a job', () => {
    const { notices, sent } = setup();
    notices.afterEvent({ type: 'submission.approved', data: {} } as never);
    notices.afterEvent({ type: 'something.new', data: { userId: 'x' } } as never);
    notices.everyone('weekly-payout');
    expect(sent.map((s) => s.notice)).toEqual([
      { userIds: [], all: true, cause: 'submission.approved' },
      { userIds: [], all: true, cause: 'something.new' },
      { userIds: [], all: true, cause: 'weekly-payout' },
    ]);
  });
});
