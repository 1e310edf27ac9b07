import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ViewHistoryProps } from '@clipit/frontend-contracts';
import { guideChecks, type GuideMeasurements } from '@clipit/field-rules';
import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen, type Reply } from '@clipit/web-testing';
import { dashboardAnswer, mySubmission } from '../testing/fixtures.js';
import { resetSubmissionViewHistory } from './submission-view-history.js';
import { SubmissionsTab } from './submissions-tab.js';

const SUBMISSIONS = [
  ...dashboardAnswer().recentSubmissions,
  {
    id: 's-4',
    name: 'Viral clip',
    platform: 'twitter',
    url: 'https://x.com/adaclips/status/4',
    views: 1_250_000,
    createdAt: '2026-11-23T12:00:00.000Z',
    status: 'approved' as const,
    rejectedReason: null,
  },
];

/** The public remote's chart as the page's federation runtime hands it over. */
function FakeViewHistory({ submissionId, details }: ViewHistoryProps) {
  return <p data-testid="view-history">{`chart of ${submissionId}${details ? ' with details' : ''}`}</p>;
}

function federationWith(loadRemote: (id: string) => Promise<unknown>) {
  globalThis.__FEDERATION__ = {
    __INSTANCES__: [{ options: { remotes: [{ name: 'clipit_public' }, { name: 'clipit_dashboard' }] }, loadRemote: loadRemote as never }],
  };
}

let consoleError: jest.SpiedFunction<typeof console.error>;
beforeEach(() => {
  resetSubmissionViewHistory();
  fakeGateway();
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  globalThis.__FEDERATION__ = undefined;
  Reflect.deleteProperty(window, 'IntersectionObserver');
  consoleError.mockRestore();
});

const row = (name: string) => screen.getByRole('heading', { level: 3, name }).closest('li')!;

describe('the Submissions tab', () => {
  it('shows each approved submission’s views and its view history with details, loaded once from the public remote', async () => {
    const loadRemote = jest.fn(async (id: string) => (id === 'clipit_public/ViewHistory' ? { default: FakeViewHistory } : null));
    federationWith(loadRemote);
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);

    expect(await within(row('Big win clip')).findByText('chart of s-1 with details')).toBeVisible();
    expect(await within(row('Viral clip')).findByText('chart of s-4 with details')).toBeVisible();
    expect(row('Big win clip')).toHaveTextContent('2.5K views');
    expect(row('Viral clip')).toHaveTextContent('1.3M views');
    // Pending and rejected submissions have no history to show.
    expect(within(row('Blurry clip')).queryByTestId('view-history')).toBeNull();
    expect(within(row('Fresh clip')).queryByTestId('view-history')).toBeNull();
    expect(loadRemote).toHaveBeenCalledTimes(1);
  });

  it('downloads the chart only once a row comes near the screen', async () => {
    const observed: { callback: IntersectionObserverCallback; target?: Element }[] = [];
    class FakeObserver {
      constructor(readonly callback: IntersectionObserverCallback) {}
      observe(target: Element) {
        observed.push({ callback: this.callback, target });
      }
      disconnect() {}
    }
    Object.defineProperty(window, 'IntersectionObserver', { value: FakeObserver, configurable: true, writable: true });
    const loadRemote = jest.fn(async () => ({ default: FakeViewHistory }));
    federationWith(loadRemote);
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);

    expect(within(row('Big win clip')).getByTestId('view-history-placeholder')).toBeInTheDocument();
    expect(observed).toHaveLength(2);
    expect(loadRemote).not.toHaveBeenCalled();
    const first = observed.find((o) => row('Big win clip').contains(o.target!))!;
    act(() => first.callback([{ isIntersecting: true, target: first.target } as IntersectionObserverEntry], {} as IntersectionObserver));
    expect(await within(row('Big win clip')).findByText('chart of s-1 with details')).toBeVisible();
    expect(within(row('Viral clip')).queryByTestId('view-history')).toBeNull();
    expect(loadRemote).toHaveBeenCalledTimes(1);
  });

  it('says quietly that the history is unavailable when the public remote cannot give it', async () => {
    federationWith(async () => Promise.reject(new Error('chunk 404')));
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);
    expect(await within(row('Big win clip')).findByText('View history unavailable right now')).toBeVisible();
    expect(row('Big win clip')).toHaveTextContent('2.5K views');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says so when the public remote is not on the page at all', async () => {
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);
    expect(await within(row('Viral clip')).findByText('View history unavailable right now')).toBeVisible();
  });
});

describe('the Submissions tab’s guide checks', () => {
  const PHONE_READY: GuideMeasurements = { durationSeconds: 20, width: 1080, height: 1920, hasAudio: true, watermark: 'found' };
  const MINE = [
    mySubmission({ id: 's-1', guideChecks: guideChecks({ ...PHONE_READY, hasAudio: false, watermark: 'not-found' }) }),
    mySubmission({ id: 's-2', name: 'Blurry clip', status: 'rejected', videoState: 'processing', guideChecks: null }),
    mySubmission({ id: 's-4', name: 'Viral clip', guideChecks: guideChecks({ ...PHONE_READY, watermark: 'unsure' }) }),
    // Older than the recent ones the dashboard lists: not shown.
    mySubmission({ id: 's-0', name: 'Old clip', guideChecks: guideChecks({ ...PHONE_READY, width: 360, height: 640 }) }),
  ];
  const guideOf = (name: string) => within(row(name)).queryByText('Guide checks', { exact: false, selector: 'summary' });

  it('folds each processed video’s checks under how many warn, from the clipper’s own submissions', async () => {
    const gateway = fakeGateway((call) => (call.url === '/api/submissions' ? { json: MINE } : { status: 404, text: 'No such route' }));
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);

    const summary = await within(row('Big win clip')).findByText('Guide checks', { exact: false, selector: 'summary' });
    expect(summary).toHaveTextContent('Guide checks 2 warnings');
    expect(within(summary).getByText('2 warnings')).toHaveClass('clip-badge--warning');
    const list = within(row('Big win clip')).getByRole('list', { name: 'Guide checks' });
    expect(list).not.toBeVisible();
    await userEvent.setup().click(summary);
    expect(list).toBeVisible();
    expect(within(list).getByText('No sound: the video has no audio track.')).toBeVisible();
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => [item.getAttribute('data-rule'), item.getAttribute('data-verdict')]),
    ).toEqual([
      ['duration', 'pass'],
      ['portrait', 'pass'],
      ['width', 'pass'],
      ['audio', 'warning'],
      ['watermark', 'warning'],
    ]);
    expect(list).toHaveTextContent('Warning: No still mark was seen in the top-right corner');

    // The unsure watermark is not a warning.
    expect(guideOf('Viral clip')).toHaveTextContent('Guide checks No warnings');
    // Still processing, or not in the clipper's list at all: nothing extra.
    expect(guideOf('Blurry clip')).toBeNull();
    expect(guideOf('Fresh clip')).toBeNull();
    expect(screen.queryByText('Old clip')).toBeNull();
    expect(gateway.calls.filter((c) => c.url === '/api/submissions')).toHaveLength(1);
  });

  it('lists the rows at once while /api/submissions is pending, and still without checks when it fails', async () => {
    let answer!: (reply: Reply) => void;
    const gateway = fakeGateway((call) =>
      call.url === '/api/submissions' ? new Promise<Reply>((resolve) => (answer = resolve)) : { status: 404, text: 'No such route' },
    );
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);
    expect(row('Big win clip')).toHaveTextContent('2.5K views');
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(4);
    expect(guideOf('Big win clip')).toBeNull();

    await waitFor(() => expect(gateway.calls.map((c) => c.url)).toContain('/api/submissions'));
    await act(async () => answer({ status: 500, text: 'Internal Server Error' }));
    expect(row('Big win clip')).toHaveTextContent('2.5K views');
    expect(screen.queryByText('Guide checks', { exact: false, selector: 'summary' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks for nothing when there are no submissions yet', () => {
    const gateway = fakeGateway();
    renderScreen(<SubmissionsTab submissions={[]} onSubmitClip={() => undefined} />);
    expect(screen.getByRole('heading', { name: 'No submissions yet' })).toBeVisible();
    expect(gateway.calls).toEqual([]);
  });
});

describe('the Submissions tab’s views review (issue 36)', () => {
  const JUMP = 'Views jumped from 1,200 to 48,000 between two reads an hour apart while likes and retweets rose by 2.';
  const VIDEO = "Only 520 of the post's 48,000 views played the video (1.1%), where most people who see a clip play some of it.";
  const MINE = [
    mySubmission({ id: 's-1', viewsReview: { reasons: [JUMP, VIDEO] } }),
    mySubmission({ id: 's-4', name: 'Viral clip', viewsReview: null }),
  ];

  it('marks a clip under review with a badge and tells the clipper why, reason by reason, without a score', async () => {
    fakeGateway((call) => (call.url === '/api/submissions' ? { json: MINE } : { status: 404, text: 'No such route' }));
    renderScreen(<SubmissionsTab submissions={SUBMISSIONS} onSubmitClip={() => undefined} />);

    const note = await within(row('Big win clip')).findByRole('note', { name: 'Why Big win clip is under review' });
    expect(within(row('Big win clip')).getByText('Under review', { selector: '.clip-badge' })).toHaveClass('clip-badge--warning');
    expect(note).toHaveTextContent("Under review: this clip's views look unusual, so moderators are checking them");
    expect(
      within(note)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([JUMP, VIDEO]);
    expect(note).not.toHaveTextContent(/score/i);
    // Its approval stands beside it.
    expect(within(row('Big win clip')).getByText('Approved')).toBeVisible();

    // A clip not under review, or not in the clipper's list: nothing said.
    expect(within(row('Viral clip')).queryByText('Under review')).toBeNull();
    expect(within(row('Fresh clip')).queryByRole('note')).toBeNull();
  });
});
