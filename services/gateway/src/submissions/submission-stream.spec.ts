import { subjectFor } from '@clipit/contracts';
import { describe, expect, it } from '@jest/globals';
import { changeOf, SUBMISSION_CHANGES, submissionEventsSubject } from './submission-stream.js';

const snapshot = { id: 's-1', userId: 'u-1', status: 'pending', videoState: 'processing', name: 'A clip' };

describe('the submission stream', () => {
  it('listens on one subject that holds every submission.* event and nothing else', () => {
    const subject = submissionEventsSubject('run42');
    expect(subject).toBe('run42.submissions.submission.>');
    const stem = subject.slice(0, -1);
    for (const type of SUBMISSION_CHANGES) expect(subjectFor(type, 'run42').startsWith(stem)).toBe(true);
    expect(subjectFor('metrics.updated', 'run42').startsWith(stem)).toBe(false);
  });

  it("frames each change for the submission's owner, with only the submission's id, status and video state", () => {
    for (const type of SUBMISSION_CHANGES) {
      expect(changeOf(type, { submission: snapshot, reason: null })).toEqual({
        userId: 'u-1',
        change: { id: 's-1', change: type, status: 'pending', videoState: 'processing' },
      });
    }
  });

  it('ignores other events and a submission it cannot read', () => {
    expect(changeOf('metrics.updated', { submission: snapshot })).toBeUndefined();
    expect(changeOf('submission.deleted', { submission: snapshot })).toBeUndefined();
    expect(changeOf('submission.approved', {})).toBeUndefined();
    expect(changeOf('submission.approved', null)).toBeUndefined();
    expect(changeOf('submission.approved', { submission: { ...snapshot, userId: 7 } })).toBeUndefined();
  });
});
