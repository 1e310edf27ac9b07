import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rejected, startSubmissions, type SubmissionsHarness } from '../support/submissions-harness.js';

// The moderation queue (issue 36) against the real Postgres: the filters (status, platform, flags) read
// in SQL, pending submissions first when no status is asked for, and keyset pages that neither skip nor
// repeat a submission, also when one is approved while the moderator pages through.

let h: SubmissionsHarness;
/** Every submission this file made, created in this order (oldest first). */
const made: Array<{ id: string; label: string }> = [];

beforeAll(async () => {
  h = await startSubmissions({ METRICS_SCHEDULER_INTERVAL_SECONDS: 3600, RISK_HOLD_THRESHOLD: 60 });
  // Six submissions, a millisecond apart so their order is known, each set up as its label says.
  const set = async (label: string, sql: string, params: unknown[] = []) => {
    const created = await h.newSubmission();
    if (sql) await h.rows(`UPDATE submissions SET ${sql} WHERE id = $1`, [created.id, ...params]);
    made.push({ id: created.id, label });
    await new Promise((resolve) => setTimeout(resolve, 5));
  };
  await set('pending plain', '');
  await set('approved matched', `status = 'approved', approved_at = now(), video_matches = $2::jsonb`, [
    JSON.stringify([{ submissionId: made[0]!.id, userId: made[0]!.id, videoDistance: 0.03, audioMatches: true, kind: 'reupload' }]),
  ]);
  await set('rejected instagram', `status = 'rejected', rejected_reason = 'Off topic', platform = 'instagram'`);
  await set('pending risky', `risk_score = 80, risk_reasons = '["Views jumped"]'::jsonb`);
  await set('approved below the threshold', `status = 'approved', approved_at = now(), risk_score = 59, risk_reasons = '[]'::jsonb`);
  await set('pending warned', `guide_checks = $2::jsonb`, [
    JSON.stringify([
      { rule: 'duration', verdict: 'pass', message: 'ok' },
      { rule: 'portrait', verdict: 'warning', message: 'Landscape' },
    ]),
  ]);
});

afterAll(async () => {
  await h?.stop();
});

const labels = (ids: string[]) => ids.map((id) => made.find((m) => m.id === id)?.label).filter(Boolean);

async function walk(request: { status?: string; platform?: string; flags?: string[] }, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await h.client.listSubmissions({ limit, flags: [], ...request, ...(cursor ? { cursor } : {}) });
    ids.push(...page.submissions.map((s) => s.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

describe('the moderation queue', () => {
  it('lists pending submissions first, then the others, newest first within each, the same one page or many', async () => {
    const expected = [
      'pending warned',
      'pending risky',
      'pending plain',
      'approved below the threshold',
      'rejected instagram',
      'approved matched',
    ];
    expect(labels(await walk({}, 200))).toEqual(expected);
    expect(labels(await walk({}, 2))).toEqual(expected);
  });

  it('filters by status and by platform', async () => {
    expect(labels(await walk({ status: 'approved' }, 1))).toEqual(['approved below the threshold', 'approved matched']);
    expect(labels(await walk({ status: 'rejected' }, 50))).toEqual(['rejected instagram']);
    expect(labels(await walk({ platform: 'instagram' }, 50))).toEqual(['rejected instagram']);
    expect(labels(await walk({ status: 'pending', platform: 'instagram' }, 50))).toEqual([]);
  });

  it('filters by flags: matched, risky from the threshold, failed checks; several flags take any of them', async () => {
    expect(labels(await walk({ flags: ['matched'] }, 50))).toEqual(['approved matched']);
    expect(labels(await walk({ flags: ['risky'] }, 50))).toEqual(['pending risky']);
    expect(labels(await walk({ flags: ['failed-checks'] }, 50))).toEqual(['pending warned']);
    expect(labels(await walk({ flags: ['matched', 'risky'] }, 1))).toEqual(['pending risky', 'approved matched']);
    expect(labels(await walk({ status: 'pending', flags: ['matched', 'risky', 'failed-checks'] }, 50))).toEqual([
      'pending warned',
      'pending risky',
    ]);
  });

  it('keeps its place when a pending submission is approved between two pages: nothing skipped, nothing twice', async () => {
    const first = await h.client.listSubmissions({ limit: 2, flags: [] });
    expect(labels(first.submissions.map((s) => s.id))).toEqual(['pending warned', 'pending risky']);
    // The moderator approves the first row; the next page still starts after the second.
    await h.client.approve({ submissionId: made.find((m) => m.label === 'pending warned')!.id });
    const rest = await h.client.listSubmissions({ limit: 200, flags: [], cursor: first.nextCursor! });
    expect(labels(rest.submissions.map((s) => s.id))).toEqual([
      'pending plain',
      'pending warned',
      'approved below the threshold',
      'rejected instagram',
      'approved matched',
    ]);
  });

  it.each([
    [{ status: 'held' }, 'status must be one of: pending, approved, rejected'],
    [{ platform: 'youtube' }, 'platform must be one of: twitter, instagram, tiktok, other'],
    [{ flags: ['hot'] }, 'flags must be among: matched, risky, failed-checks'],
    [{ cursor: 'not-a-cursor' }, 'Invalid cursor'],
  ])('refuses %j: %s', async (request, message) => {
    const err = await rejected(h.client.listSubmissions({ flags: [], ...request }));
    expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, message]);
  });
});

describe('a clipper’s own list, paged (the versioned read API, issue 37)', () => {
  it('pages one user’s submissions newest first, neither skipping nor repeating one, and answers all without a limit or cursor', async () => {
    const userId = '3f0e2d1c-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
    const mine: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      mine.unshift((await h.newSubmission(userId)).id);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const walked: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await h.client.listMySubmissions({ userId, limit: 2, ...(cursor ? { cursor } : {}) });
      walked.push(...page.submissions.map((s) => s.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(walked).toEqual(mine);
    expect(pages).toBe(3);
    const all = await h.client.listMySubmissions({ userId });
    expect(all.submissions.map((s) => s.id)).toEqual(mine);
    expect(all.nextCursor).toBeUndefined();
    const err = await rejected(h.client.listMySubmissions({ userId, cursor: 'bm9wZQ' }));
    expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, 'Invalid cursor']);
  });

  it('carries a flagged clip’s hold in the clipper’s words (never the other clipper), none for a clip not flagged', async () => {
    const matched = made.find((m) => m.label === 'approved matched')!;
    const answer = await h.client.getSubmission({ id: matched.id });
    expect(answer.hold).toEqual({ causes: ['reupload'], reasons: ['Its video matches a clip submitted earlier by another clipper.'] });
    expect((await h.client.getSubmission({ id: made[0]!.id })).hold).toBeUndefined();
  });
});
