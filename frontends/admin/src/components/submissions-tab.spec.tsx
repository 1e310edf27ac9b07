import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { guideChecks, type GuideMeasurements } from '@clipit/field-rules';
import { renderScreen } from '@clipit/web-testing';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { AdminSubmission } from '@clipit/web-api';
import AdminPage from '../screens/admin-page.js';
import {
  adminRoutes,
  aPage,
  aSubmission,
  deferred,
  fakeAdminGateway,
  restoreFetch,
  seedSession,
  TOKEN,
  type AdminHandler,
  type Reply,
} from '../testing/admin-gateway.js';

beforeEach(() => {
  sessionStorage.clear();
  seedSession();
});
afterEach(() => restoreFetch());

function renderAdmin(handler: AdminHandler) {
  const gateway = fakeAdminGateway(handler);
  const rendered = renderScreen(<AdminPage />, '/admin');
  return { gateway, ...rendered };
}

/** A row of the queue, by its title (`open`: with its details shown, as most tests read them). */
const entry = async (name: string, open = true) => {
  const heading = await screen.findByRole('heading', { name });
  const article = heading.closest('article') as HTMLElement;
  const details = within(article).queryByRole('button', { name: 'Details', expanded: false });
  if (open && details) await userEvent.click(details);
  return article;
};
const toasts = () => screen.getByRole('region', { name: 'Notifications (F8)' });
/** The moderation commands of a row (not its video and details toggles). */
const buttonsOf = (article: HTMLElement) =>
  within(article)
    .queryAllByRole('button')
    .filter((b) => b.closest('[role="group"]') && !['Details', 'Hide details'].includes(b.textContent ?? ''))
    .map((b) => b.textContent);

/** The list, and moderation answered by `moderate` (the new state by default). */
function withModeration(
  list: AdminSubmission[],
  moderate?: (call: { url: string; body: unknown }) => Reply | Promise<Reply>,
): AdminHandler {
  const routes = adminRoutes({ submissions: aPage(list) });
  return (call) => {
    if (call.method === 'POST' && call.url.startsWith('/api/admin/submissions/')) {
      if (moderate) return moderate(call);
      const [, , , , id, action] = call.url.split('/');
      const index = list.findIndex((s) => s.id === id);
      const current = list[index]!;
      const next: Partial<AdminSubmission> =
        action === 'approve'
          ? { status: 'approved' }
          : action === 'approve-and-add-to-feed'
            ? { status: 'approved', addedToFeed: 'true' }
            : action === 'add-to-feed'
              ? { addedToFeed: 'true' }
              : action === 'remove-from-feed'
                ? { addedToFeed: 'false' }
                : { status: 'rejected', rejectedReason: (call.body as { reason?: string }).reason ?? null };
      // Kept, as the server keeps it: the refetch after the command lists the new state.
      list[index] = { ...current, ...next };
      return { json: list[index] };
    }
    return routes(call);
  };
}

describe('Post Submissions (spec 02 §2.4, §4, §8)', () => {
  it('shows every field of an entry: name, date, wallet, notes, post link, platform, video, status, feed, clipper', async () => {
    renderAdmin(adminRoutes({ submissions: aPage([aSubmission()]) }));
    const card = await entry('Epic clutch');
    const view = within(card);
    expect(view.getByText('Jan 5, 2025 • 3:07 PM')).toBeVisible();
    expect(view.getByText('7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU')).toBeVisible();
    expect(view.getByText('Watch the last ten seconds')).toBeVisible();
    const link = view.getByRole('link', { name: /View post/ });
    expect(link).toHaveAttribute('href', 'https://x.com/clipper/status/1234567890');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(view.getByText('Twitter/X')).toBeVisible();
    expect(view.getByText('No video')).toBeVisible();
    expect(view.getByText('Pending')).toBeVisible();
    expect(view.getByText('Hidden')).toBeVisible();
    expect(view.getByText('Clip Queen @clipqueen')).toBeVisible();
  });

  it('names each platform and plays the processed video on demand, or says it is still processing', async () => {
    renderAdmin(
      adminRoutes({
        submissions: aPage([
          aSubmission({
            id: 'a',
            name: 'On Instagram',
            platform: 'instagram',
            hasVideo: 'true',
            videoUrl: '/media/videos/v1/video.mp4',
            posterUrl: '/media/videos/v1/poster.jpg',
            videoState: 'ready',
          }),
          aSubmission({ id: 'b', name: 'On TikTok', platform: 'tiktok', hasVideo: 'true', isProcessing: true, videoState: 'processing' }),
          aSubmission({ id: 'c', name: 'Elsewhere', platform: 'other' }),
        ]),
      }),
    );
    const instagram = await entry('On Instagram');
    expect(within(instagram).getByText('Instagram')).toBeVisible();
    expect(within(instagram).getByText('Has video')).toBeVisible();
    // The video is a poster until asked for: no <video> (and nothing fetched) before.
    expect(instagram.querySelector('video')).toBeNull();
    const play = within(instagram).getByRole('button', { name: 'Play the video of On Instagram' });
    expect(play.querySelector('img')).toHaveAttribute('src', '/media/videos/v1/poster.jpg');
    await userEvent.click(play);
    const video = instagram.querySelector('video')!;
    expect(video).toHaveAttribute('src', '/media/videos/v1/video.mp4');
    expect(video).toHaveAttribute('poster', '/media/videos/v1/poster.jpg');
    expect(video).toHaveAttribute('controls');
    await userEvent.click(within(instagram).getByRole('button', { name: 'Hide the video of On Instagram' }));
    expect(instagram.querySelector('video')).toBeNull();
    const tiktok = await entry('On TikTok');
    expect(within(tiktok).getByText('TikTok')).toBeVisible();
    expect(within(tiktok).getByText('The video is still processing.')).toBeVisible();
    expect(tiktok.querySelector('video')).toBeNull();
    expect(within(await entry('Elsewhere')).getByText('Other Platform')).toBeVisible();
  });

  it('shows the guide’s checks of a processed video, warnings first and counted in the header; none before', async () => {
    const phoneReady: GuideMeasurements = { durationSeconds: 20, width: 1080, height: 1920, hasAudio: true, watermark: 'found' };
    const ready = { hasVideo: 'true', videoState: 'ready', videoUrl: '/media/videos/v1/video.mp4' } as const;
    renderAdmin(
      adminRoutes({
        submissions: aPage([
          aSubmission({
            id: 'a',
            name: 'Landscape',
            ...ready,
            guideChecks: guideChecks({ ...phoneReady, width: 1920, height: 1080, hasAudio: false, watermark: 'unsure' }),
          }),
          aSubmission({ id: 'b', name: 'By the guide', ...ready, guideChecks: guideChecks(phoneReady) }),
          aSubmission({ id: 'c', name: 'Still processing', hasVideo: 'true', isProcessing: true, videoState: 'processing' }),
        ]),
      }),
    );
    const landscape = await entry('Landscape');
    expect(within(landscape).getByText('2 guide warnings')).toHaveClass('clip-badge--warning');
    const list = within(landscape).getByRole('list', { name: 'Guide checks of Landscape' });
    expect(within(landscape).getByText('Guide checks', { selector: 'dt' })).toBeVisible();
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '!Warning: The frame is 16:9: the guide asks for portrait 9:16.',
      '!Warning: No sound: the video has no audio track.',
      '?Unsure: The picture changes too little to tell whether the top-right corner has a watermark.',
      "✓Pass: 20 seconds long: at least the guide's 15.",
      '✓Pass: 1920 px wide: at least 720.',
    ]);

    const byTheGuide = await entry('By the guide');
    expect(within(byTheGuide).getAllByRole('listitem')).toHaveLength(5);
    expect(within(byTheGuide).queryByText(/guide warnings?$/)).toBeNull();

    const processing = await entry('Still processing');
    expect(within(processing).queryByRole('list')).toBeNull();
    expect(within(processing).queryByText('Guide checks')).toBeNull();
  });

  it('shows the re-upload check of a video: the earlier clips it matches with their clippers, badged in the header', async () => {
    const ready = { hasVideo: 'true', videoState: 'ready', videoUrl: '/media/videos/v1/video.mp4' } as const;
    renderAdmin(
      adminRoutes({
        submissions: aPage([
          aSubmission({
            id: 'a',
            name: 'Copied clip',
            ...ready,
            matches: [
              {
                submissionId: 'earlier-1',
                clipper: { id: 'u-2', handle: 'firstclipper', displayName: 'First Clipper' },
                videoDistance: 0.031,
                audioMatches: true,
                kind: 'reupload',
              },
              {
                submissionId: 'earlier-2',
                clipper: { id: 'user-1', handle: null, displayName: null },
                videoDistance: 0.1,
                audioMatches: null,
                kind: 'duplicate',
              },
            ],
          }),
          aSubmission({
            id: 'b',
            name: 'Own again',
            ...ready,
            matches: [
              {
                submissionId: 'earlier-3',
                clipper: { id: 'user-1', handle: 'me', displayName: null },
                videoDistance: 0,
                audioMatches: false,
                kind: 'duplicate',
              },
            ],
          }),
          aSubmission({ id: 'c', name: 'Original', ...ready, matches: [] }),
          aSubmission({ id: 'd', name: 'Just processed', ...ready, matches: null }),
        ]),
      }),
    );
    const copied = await entry('Copied clip');
    expect(within(copied).getByText('Possible re-upload')).toHaveClass('clip-badge--destructive');
    expect(
      within(within(copied).getByRole('list', { name: 'Earlier clips Copied clip matches' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      "Re-upload of another clipper's clip by First Clipper @firstclipper: picture distance 0.03, sound matches (submission earlier-1)",
      'Duplicate of their own clip by an unknown clipper: picture distance 0.10, no sound to compare (submission earlier-2)',
    ]);
    const own = await entry('Own again');
    expect(within(own).getByText('Duplicate', { selector: '.clip-badge' })).toHaveClass('clip-badge--warning');
    expect(within(own).getByText(/sound differs/)).toBeVisible();
    expect(within(await entry('Original')).getByText('No earlier clip matches')).toBeVisible();
    expect(within(await entry('Original')).queryByText('Possible re-upload')).toBeNull();
    expect(within(await entry('Just processed')).getByText('Not checked yet')).toBeVisible();
  });

  it('shows the view risk of a clip: a "Risky views" badge when it is under review, the score and each reason', async () => {
    const jump = 'Views jumped from 1,200 to 48,000 between two reads an hour apart while likes and retweets rose by 2.';
    const video = "Only 520 of the post's 48,000 views played the video (1.1%), where most people who see a clip play some of it.";
    const low =
      "Likes, retweets, replies and quotes are 1.0% of views (500 on 50,000), 10 times below the platform's median of 10.0% for clips of 10,000 to 99,999 views.";
    renderAdmin(
      adminRoutes({
        submissions: aPage([
          aSubmission({
            id: 'a',
            name: 'Bought views',
            status: 'approved',
            risk: { score: 100, reasons: [jump, video], underReview: true },
          }),
          aSubmission({ id: 'b', name: 'Dull clip', status: 'approved', risk: { score: 38, reasons: [low], underReview: false } }),
          aSubmission({ id: 'c', name: 'Honest clip', status: 'approved', risk: { score: 0, reasons: [], underReview: false } }),
          aSubmission({ id: 'd', name: 'Read once', status: 'approved', risk: null }),
          aSubmission({ id: 'e', name: 'Waiting clip', status: 'pending', risk: null }),
        ]),
      }),
    );
    const bought = await entry('Bought views');
    expect(within(bought).getByText('Risky views')).toHaveClass('clip-badge--destructive');
    expect(within(bought).getByText('Score 100 of 100: under review')).toBeVisible();
    expect(
      within(within(bought).getByRole('list', { name: 'Why the views of Bought views look inflated' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([jump, video]);

    // Under the threshold: scored with its reason for the moderator, no badge.
    const dull = await entry('Dull clip');
    expect(within(dull).queryByText('Risky views')).toBeNull();
    expect(within(dull).getByText('Score 38 of 100')).toBeVisible();
    expect(within(dull).getByText(low)).toBeVisible();
    expect(within(await entry('Honest clip')).getByText('Score 0 of 100: nothing unusual')).toBeVisible();
    expect(within(await entry('Read once')).getByText('Not judged yet')).toBeVisible();
    expect(within(await entry('Waiting clip')).queryByText('View risk')).toBeNull();
  });

  it('offers the commands of each state: pending, approved and hidden, approved in the feed, rejected (with its reason)', async () => {
    renderAdmin(
      adminRoutes({
        submissions: aPage([
          aSubmission({ id: 'p', name: 'Pending one' }),
          aSubmission({ id: 'h', name: 'Hidden one', status: 'approved', addedToFeed: 'false' }),
          aSubmission({ id: 'f', name: 'Feed one', status: 'approved', addedToFeed: 'true' }),
          aSubmission({ id: 'r', name: 'Rejected one', status: 'rejected', rejectedReason: 'Wrong streamer tagged' }),
        ]),
      }),
    );
    expect(buttonsOf(await entry('Pending one'))).toEqual(['Approve', 'Approve & Add to Feed', 'Reject']);
    expect(buttonsOf(await entry('Hidden one'))).toEqual(['Add to Feed']);
    const feed = await entry('Feed one');
    expect(buttonsOf(feed)).toEqual(['Remove from Feed']);
    expect(within(feed).getByText('In Feed')).toBeVisible();
    const rejected = await entry('Rejected one');
    expect(buttonsOf(rejected)).toEqual([]);
    expect(within(rejected).getByText('Wrong streamer tagged')).toBeVisible();
    expect(within(rejected).getByText('Rejected')).toBeVisible();
  });

  it('Approve & Add to Feed: the POST with the token, every button of the entry disabled while it runs, then the toast and the refreshed lists', async () => {
    const answer = deferred<Reply>();
    const list = [aSubmission()];
    const { gateway, queryClient } = renderAdmin(withModeration(list, () => answer.promise));
    const invalidate = jest.spyOn(queryClient, 'invalidateQueries');
    const card = await entry('Epic clutch');
    await userEvent.click(within(card).getByRole('button', { name: 'Approve & Add to Feed' }));

    const commands = within(within(card).getByRole('group', { name: 'Actions for Epic clutch' })).getAllByRole('button');
    for (const button of commands.filter((b) => b.textContent !== 'Hide details')) expect(button).toBeDisabled();
    const post = gateway.calls.find((c) => c.method === 'POST')!;
    expect(post).toEqual({
      method: 'POST',
      url: '/api/admin/submissions/sub-1/approve-and-add-to-feed',
      body: {},
      authorization: `Bearer ${TOKEN}`,
    });

    list[0] = { ...list[0]!, status: 'approved', addedToFeed: 'true' };
    answer.resolve({ json: list[0] });
    expect(await within(toasts()).findByText('Submission Approved and Added to Feed')).toBeVisible();
    await waitFor(() => expect(buttonsOf(card)).toEqual(['Remove from Feed']));
    expect(within(card).getByText('In Feed')).toBeVisible();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/admin/submissions'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/feed/clips'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/leaderboard/posts'] });
  });

  it.each([
    ['Approve', 'Submission Approved'],
    ['Reject', 'Submission Rejected'],
  ])('%s succeeds with the toast %p', async (button, toast) => {
    const { gateway } = renderAdmin(withModeration([aSubmission()]));
    await userEvent.click(within(await entry('Epic clutch')).getByRole('button', { name: button }));
    if (button === 'Reject') await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reject Submission' }));
    expect(await within(toasts()).findByText(toast)).toBeVisible();
    expect(gateway.writes()).toEqual([`POST /api/admin/submissions/sub-1/${button.toLowerCase()}`]);
  });

  it('Add to Feed and Remove from Feed toast their own titles', async () => {
    renderAdmin(
      withModeration([
        aSubmission({ id: 'h', name: 'Hidden one', status: 'approved' }),
        aSubmission({ id: 'f', name: 'Feed one', status: 'approved', addedToFeed: 'true' }),
      ]),
    );
    await userEvent.click(within(await entry('Hidden one')).getByRole('button', { name: 'Add to Feed' }));
    expect(await within(toasts()).findByText('Added to Feed')).toBeVisible();
    await userEvent.click(within(await entry('Feed one')).getByRole('button', { name: 'Remove from Feed' }));
    expect(await within(toasts()).findByText('Removed from Feed')).toBeVisible();
  });

  it("a refused command toasts the server's text under its title; without one, the spec's sentence", async () => {
    let reply: Reply = { status: 409, text: 'Only a pending submission can be approved' };
    renderAdmin(withModeration([aSubmission()], () => reply));
    const card = await entry('Epic clutch');
    await userEvent.click(within(card).getByRole('button', { name: 'Approve' }));
    expect(await within(toasts()).findByText('Failed to approve')).toBeVisible();
    expect(within(toasts()).getByText('Only a pending submission can be approved')).toBeVisible();
    // The buttons are usable again.
    expect(within(card).getByRole('button', { name: 'Approve' })).toBeEnabled();

    reply = { networkError: true };
    await userEvent.click(within(card).getByRole('button', { name: 'Approve & Add to Feed' }));
    expect(await within(toasts()).findByText('Failed to approve and add submission to feed')).toBeVisible();
  });

  it('Reject asks for an optional reason of at most 500 characters (counted), checked before anything is sent', async () => {
    const { gateway } = renderAdmin(withModeration([aSubmission()]));
    await userEvent.click(within(await entry('Epic clutch')).getByRole('button', { name: 'Reject' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject Submission' });
    const reason = within(dialog).getByLabelText('Reason (optional)');
    expect(within(dialog).getByText('0/500 characters')).toBeVisible();

    await userEvent.click(reason);
    await userEvent.paste('x'.repeat(501));
    expect(within(dialog).getByText('501/500 characters')).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject Submission' }));
    expect(within(dialog).getByText('Rejection reason must be at most 500 characters')).toBeVisible();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(gateway.writes()).toEqual([]);

    await userEvent.clear(reason);
    await userEvent.paste('  Not a clip of a tagged streamer  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject Submission' }));
    expect(await within(toasts()).findByText('Submission Rejected')).toBeVisible();
    const post = gateway.calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ reason: 'Not a clip of a tagged streamer' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const card = await entry('Epic clutch');
    expect(within(card).getByText('Not a clip of a tagged streamer')).toBeVisible();
    expect(buttonsOf(card)).toEqual([]);
  });

  it('shows a held earning with its reasons, badged; Release and Void each ask for a required reason (ADR 0050)', async () => {
    const reasons = ['Its video matches a clip submitted earlier by another clipper.'];
    const hold = (status: 'held' | 'pending' | 'voided', decision: NonNullable<AdminSubmission['hold']>['decision'] = null) => ({
      earningId: 'earn-1',
      amount: 15,
      status,
      reasons,
      heldAt: new Date(2025, 0, 6, 9, 0).toISOString(),
      decision,
    });
    const list = [
      aSubmission({ status: 'approved', hold: hold('held') }),
      aSubmission({ id: 'b', name: 'Clean clip', status: 'approved' }),
    ];
    const routes = adminRoutes({ submissions: aPage(list) });
    const { gateway } = renderAdmin((call) => {
      if (call.method === 'POST' && call.url === '/api/admin/earnings/earn-1/release') {
        const reason = (call.body as { reason: string }).reason;
        return { json: hold('pending', { decision: 'released', reason, by: 'tok-1', at: new Date(2025, 0, 7, 10, 0).toISOString() }) };
      }
      return routes(call);
    });
    const card = await entry('Epic clutch');
    expect(within(card).getByText('Earning held')).toHaveClass('clip-badge--warning');
    expect(
      within(within(card).getByRole('list', { name: 'Why the earning of Epic clutch is held' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(reasons);
    expect(within(card).getByText('15 $CLIP')).toBeVisible();
    expect(within(await entry('Clean clip')).queryByText('Earning')).toBeNull();

    await userEvent.click(within(card).getByRole('button', { name: 'Release' }));
    const dialog = screen.getByRole('dialog', { name: 'Release earning' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Release earning' }));
    expect(within(dialog).getByText('A reason is required')).toBeVisible();
    await userEvent.click(within(dialog).getByLabelText('Reason'));
    await userEvent.paste('x'.repeat(501));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Release earning' }));
    expect(within(dialog).getByText('Reason must be at most 500 characters')).toBeVisible();
    expect(gateway.writes()).toEqual([]);

    await userEvent.clear(within(dialog).getByLabelText('Reason'));
    await userEvent.paste('  Their own earlier edit  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Release earning' }));
    expect(await within(toasts()).findByText('Earning released')).toBeVisible();
    expect(gateway.calls.find((c) => c.method === 'POST')!.body).toEqual({ reason: 'Their own earlier edit' });
    const after = await entry('Epic clutch');
    expect(within(after).queryByText('Earning held')).toBeNull();
    expect(within(after).getByText('Released')).toBeVisible();
    expect(within(after).getByText(/Released by tok-1 on .*: Their own earlier edit/)).toBeVisible();
    expect(within(after).queryByRole('button', { name: 'Void' })).toBeNull();
  });

  it('Void toasts the refusal of an earning no longer held with the server’s text', async () => {
    const held = {
      earningId: 'earn-2',
      amount: 10,
      status: 'held' as const,
      reasons: ['It duplicates a clip you submitted earlier.'],
      heldAt: new Date(2025, 0, 6, 9, 0).toISOString(),
      decision: null,
    };
    const routes = adminRoutes({ submissions: aPage([aSubmission({ status: 'approved', hold: held })]) });
    renderAdmin((call) =>
      call.method === 'POST' && call.url === '/api/admin/earnings/earn-2/void'
        ? { status: 409, text: 'This earning is not held' }
        : routes(call),
    );
    await userEvent.click(within(await entry('Epic clutch')).getByRole('button', { name: 'Void' }));
    const dialog = screen.getByRole('dialog', { name: 'Void earning' });
    await userEvent.click(within(dialog).getByLabelText('Reason'));
    await userEvent.paste('A copy');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Void earning' }));
    expect(await within(toasts()).findByText('Failed to void')).toBeVisible();
    expect(within(toasts()).getByText('This earning is not held')).toBeVisible();
    expect(screen.getByRole('dialog')).toBeVisible();
  });

  it("a failed rejection toasts 'Failed to reject' with the server's text and keeps the dialog open", async () => {
    renderAdmin(withModeration([aSubmission()], () => ({ status: 409, text: 'Only a pending submission can be rejected' })));
    await userEvent.click(within(await entry('Epic clutch')).getByRole('button', { name: 'Reject' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reject Submission' }));
    expect(await within(toasts()).findByText('Failed to reject')).toBeVisible();
    expect(within(toasts()).getByText('Only a pending submission can be rejected')).toBeVisible();
    expect(screen.getByRole('dialog')).toBeVisible();
  });

  it("shows skeletons while loading, then the error state and the 'Failed to fetch submissions' toast when the list fails", async () => {
    const answer = deferred<Reply>();
    renderAdmin((call) => (call.url.startsWith('/api/admin/submissions') ? answer.promise : adminRoutes({})(call)));
    const loading = await screen.findByText('Loading submissions');
    expect(loading.closest('[aria-busy="true"]')!.querySelectorAll('.clip-skeleton').length).toBeGreaterThan(0);
    answer.resolve({ status: 500, text: 'Submissions service unavailable' });
    expect(await screen.findByRole('heading', { name: 'Error Loading Submissions' })).toBeVisible();
    expect(screen.getByText('Unable to fetch submission data. Please try again later.')).toBeVisible();
    expect(within(toasts()).getByText('Failed to fetch submissions')).toBeVisible();
    expect(within(toasts()).getByText('Submissions service unavailable')).toBeVisible();
  });

  it('filters the queue by status, platform and flags, asking the gateway for each filter, and says when none match', async () => {
    const { gateway } = renderAdmin((call) => {
      const query = new URL(call.url, 'http://x').searchParams;
      if (call.url.startsWith('/api/admin/submissions'))
        return {
          json: aPage(query.get('flags') === 'failed-checks' ? [] : [aSubmission({ name: `Status ${query.get('status') ?? 'all'}` })]),
        };
      return adminRoutes({})(call);
    });
    await entry('Status all', false);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Pending');
    await entry('Status pending', false);
    await userEvent.selectOptions(screen.getByLabelText('Platform'), 'TikTok');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Risky views' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Matched an earlier clip' }));
    await waitFor(() =>
      expect(gateway.calls.at(-1)!.url).toBe('/api/admin/submissions?limit=20&status=pending&platform=tiktok&flags=matched%2Crisky'),
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'Risky views' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Matched an earlier clip' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Failed checks' }));
    expect(await screen.findByText('No submissions match these filters.')).toBeVisible();
    // The filters stay to be changed back.
    expect(screen.getByRole('checkbox', { name: 'Failed checks' })).toBeChecked();
  });

  it('takes the queue keys on a focused row: j and k move, a approves, f adds to the feed, r asks for a reason, v plays, o opens', async () => {
    const list = [
      aSubmission({
        id: 'first',
        name: 'First clip',
        videoUrl: '/media/videos/v1/video.mp4',
        posterUrl: '/media/videos/v1/poster.jpg',
        hasVideo: 'true',
      }),
      aSubmission({ id: 'second', name: 'Second clip' }),
      aSubmission({ id: 'third', name: 'Third clip' }),
    ];
    const { gateway } = renderAdmin(withModeration(list));
    const first = await entry('First clip', false);
    const second = await entry('Second clip', false);
    first.focus();
    await userEvent.keyboard('v');
    expect(first.querySelector('video')).toHaveAttribute('src', '/media/videos/v1/video.mp4');
    await userEvent.keyboard('o');
    expect(within(first).getByText('Wallet')).toBeVisible();
    await userEvent.keyboard('j');
    expect(second).toHaveFocus();
    await userEvent.keyboard('a');
    expect(await within(toasts()).findByText('Submission Approved')).toBeVisible();
    await waitFor(() =>
      expect(gateway.calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/api/admin/submissions/second/approve']),
    );
    // Approved and hidden: f adds it to the feed.
    await within(second).findByText('Approved');
    second.focus();
    await userEvent.keyboard('f');
    expect(await within(toasts()).findByText('Added to Feed')).toBeVisible();
    await userEvent.keyboard('k');
    expect(first).toHaveFocus();
    await userEvent.keyboard('r');
    const dialog = screen.getByRole('dialog', { name: 'Reject Submission' });
    // Typing the reason is text, never a command.
    await userEvent.type(within(dialog).getByLabelText('Reason (optional)'), 'a j k');
    expect(gateway.calls.filter((c) => c.method === 'POST')).toHaveLength(2);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject Submission' }));
    expect(await within(toasts()).findByText('Submission Rejected')).toBeVisible();
    expect(gateway.calls.filter((c) => c.method === 'POST').at(-1)).toMatchObject({
      url: '/api/admin/submissions/first/reject',
      body: { reason: 'a j k' },
    });
    expect(screen.getByText(/Keys on a focused row/)).toBeVisible();
  });

  it('says when there is nothing to moderate', async () => {
    renderAdmin(adminRoutes({ submissions: aPage([]) }));
    expect(await screen.findByText('No submissions yet.')).toBeVisible();
  });

  it('pages newest first with Load more (the cursor of the last page), and refetches every 30 s', async () => {
    const { gateway, queryClient } = renderAdmin(
      adminRoutes({
        submissions: [
          aPage([aSubmission({ id: 'n1', name: 'Newest' })], { nextCursor: 'cursor-1', total: 2 }),
          aPage([aSubmission({ id: 'o1', name: 'Older' })], { nextCursor: null, total: 2 }),
        ],
      }),
    );
    await entry('Newest');
    expect(screen.queryByRole('heading', { name: 'Older' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await entry('Older');
    const items = within(screen.getByRole('list', { name: 'Post submissions' })).getAllByRole('heading');
    expect(items.map((h) => h.textContent)).toEqual(['Newest', 'Older']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    const urls = gateway.calls.filter((c) => c.url.startsWith('/api/admin/submissions')).map((c) => c.url);
    expect(urls).toEqual(['/api/admin/submissions?limit=20', '/api/admin/submissions?limit=20&cursor=cursor-1']);
    const query = queryClient.getQueryCache().find({ queryKey: ['/api/admin/submissions', ''] })!;
    expect(query.observers.map((o) => o.options.refetchInterval)).toContain(30_000);
  });
});
