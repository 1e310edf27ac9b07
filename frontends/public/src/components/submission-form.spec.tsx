import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { guideChecks, type GuideMeasurements } from '@clipit/field-rules';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import { videoMetadata } from '../lib/clip-submission.js';
import { SubmissionForm, VIDEO_STATE_FIRST_POLL_MS, VIDEO_STATE_POLL_MS } from './submission-form.js';
import { FakeXhr } from '../testing/fake-xhr.js';

const MB = 1024 * 1024;
const URL_OK = 'https://x.com/clip_king/status/1790000000000000001';
const ME = { id: 'u1', twitterUsername: 'alice', walletAddress: null, role: 'clipper' };
const STREAMERS = [
  { id: 'st-1', displayName: 'Big Streamer', twitterUsername: 'bigstream' },
  { id: 'st-2', displayName: null, twitterUsername: 'quiet_one' },
];
const LIMIT_TEXT = 'Daily limit reached: you can submit 3 videos per day. Try again tomorrow.';

const realXhr = globalThis.XMLHttpRequest;
const storageRequest = async () => {
  await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
  return FakeXhr.instances[0]!;
};

beforeEach(() => {
  FakeXhr.instances = [];
  FakeXhr.around = (event) => act(event);
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
});
afterEach(() => {
  globalThis.XMLHttpRequest = realXhr;
  jest.restoreAllMocks();
});

/** The gateway of a signed-in clipper whose steps all succeed, unless `own` answers a call. */
function gatewayFor(own: (call: Call) => Reply | undefined = () => undefined) {
  return (call: Call): Reply => {
    const mine = own(call);
    if (mine) return mine;
    if (call.url === '/api/user/me') return { json: ME };
    if (call.url === '/api/streamers') return { json: STREAMERS };
    if (call.url === '/api/submissions' && call.method === 'POST') return { status: 201, json: { id: 'sub-1' } };
    if (call.url === '/api/submissions/video-upload-url')
      return { json: { uploadUrl: '/api/submissions/uploads/v1?token=t', videoId: 'v1' } };
    if (call.url === '/api/submissions/finalize-video-upload')
      return { json: { id: 'sub-1', videoState: 'processing', videoRejectedReason: null, guideChecks: null } };
    if (call.url === '/api/submissions')
      return { json: [{ id: 'sub-1', videoState: 'processing', videoRejectedReason: null, guideChecks: null }] };
    return { status: 404, text: 'No such route' };
  };
}

function setup(handler: (call: Call) => Reply = gatewayFor()) {
  const gateway = fakeGateway(handler);
  const rendered = renderScreen(<SubmissionForm />, '/submit');
  const form = screen.getByRole('form', { name: 'Submit Your Clip' });
  return { gateway, form, user: userEvent.setup({ applyAccept: false }), ...rendered };
}

type User = ReturnType<typeof userEvent.setup>;
const field = (form: HTMLElement, name: string) => within(form).getByRole('textbox', { name });
const picker = (form: HTMLElement) => within(form).getByLabelText(/^Video/);

async function fill(user: User, form: HTMLElement, { name = 'Big play', url = URL_OK } = {}) {
  if (name) await user.type(field(form, 'Clip Title'), name);
  if (url) await user.type(field(form, 'Twitter/X Post URL'), url);
}

async function chooseVideo(user: User, form: HTMLElement, file = new File([new Uint8Array(4 * MB)], 'clip.mp4', { type: 'video/mp4' })) {
  jest.spyOn(videoMetadata, 'readDuration').mockResolvedValue(12);
  await user.upload(picker(form), file);
  await within(form).findByText(`${file.name} (${(file.size / MB).toFixed(1)} MB)`);
}

/** What the media worker measured of a clip that follows the guide: portrait 1080x1920, 20 s, with sound and a mark. */
const PHONE_READY: GuideMeasurements = { durationSeconds: 20, width: 1080, height: 1920, hasAudio: true, watermark: 'found' };

/**
 * Sends a clip whose submission GET /api/submissions answers as `video()` says at each poll; resolves with
 * the video's status once the first poll is answered.
 */
async function submitFollowing(video: () => Record<string, unknown>) {
  let polls = 0;
  const { form, user } = setup(
    gatewayFor((call) => {
      if (call.url !== '/api/submissions' || call.method !== 'GET') return undefined;
      polls += 1;
      return { json: [{ id: 'sub-1', videoRejectedReason: null, ...video() }] };
    }),
  );
  await fill(user, form);
  await chooseVideo(user, form);
  await user.click(within(form).getByRole('button', { name: 'Submit Clip' }));
  (await storageRequest()).respond(200);
  const status = await screen.findByRole('status', { name: 'Video status' });
  await waitFor(() => expect(polls).toBeGreaterThan(0));
  return status;
}

const guideRows = () =>
  within(screen.getByRole('list', { name: 'Guide checks' }))
    .getAllByRole('listitem')
    .map((row) => row.textContent);

async function expectToast(title: string, description: string) {
  const region = await screen.findByRole('region', { name: 'Notifications (F8)' });
  expect(await within(region).findByText(title)).toBeVisible();
  expect(within(region).getByText(description)).toBeVisible();
}

describe('the submission form', () => {
  it('lists the streamers of /api/streamers after "No streamer", and states the daily limit', async () => {
    const { form } = setup();
    const select = within(form).getByRole('combobox', { name: 'Streamer (optional)' });
    await within(select).findByRole('option', { name: 'Big Streamer' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => [(o as HTMLOptionElement).value, o.textContent]),
    ).toEqual([
      ['none', 'No streamer'],
      ['st-1', 'Big Streamer'],
      ['st-2', '@quiet_one'],
    ]);
    expect(select).toHaveValue('none');
    expect(screen.getByText(/Daily limit: 3 video submissions per day\./)).toBeVisible();
    expect(await screen.findByText('@alice')).toBeVisible();
  });

  it('checks the fields, the post link and the video, with the spec’s words, before any call', async () => {
    const { form, user, gateway } = setup();
    const submit = within(form).getByRole('button', { name: 'Submit Clip' });
    await screen.findByText('@alice');

    await user.click(submit);
    await expectToast('Missing Information', 'Please fill in all required fields.');
    await fill(user, form, { url: 'https://www.youtube.com/watch?v=42' });
    await user.click(submit);
    await expectToast('Invalid Twitter URL', 'Please enter a valid Twitter/X post URL.');
    await user.clear(field(form, 'Twitter/X Post URL'));
    await user.type(field(form, 'Twitter/X Post URL'), URL_OK);
    await user.click(submit);
    await expectToast('Video Required', "Please upload a video. Your clip won't appear in the feed without a video.");

    await user.upload(picker(form), new File(['notes'], 'notes.txt', { type: 'text/plain' }));
    await expectToast('Invalid File Type', 'Please upload a video file (MP4, WebM, MOV, or AVI).');
    jest.spyOn(videoMetadata, 'readDuration').mockResolvedValueOnce(41.2);
    await user.upload(picker(form), new File(['v'], 'long.mp4', { type: 'video/mp4' }));
    await expectToast('Video Too Long', 'Video must be 40 seconds or less. Your video is 41 seconds.');
    expect((picker(form) as HTMLInputElement).files).toHaveLength(0);

    const info = field(form, 'Additional Info (optional)');
    await user.type(info, 'x'.repeat(149));
    expect(within(form).getByText('149/150')).toBeVisible();
    await user.type(info, 'yz');
    expect(info).toHaveValue(`${'x'.repeat(149)}y`);
    expect(within(form).getByText('150/150')).toBeVisible();

    expect(gateway.writes()).toEqual([]);
  });

  it('signed out: says to log in, links to /login, and sends nothing', async () => {
    const { form, user, gateway } = setup(
      gatewayFor((call) => (call.url === '/api/user/me' ? { status: 401, text: 'Not signed in' } : undefined)),
    );
    const login = await screen.findByRole('link', { name: 'Log in' });
    expect(login).toHaveAttribute('href', '/login');
    expect(screen.getByText('Log in to submit')).toBeVisible();
    await fill(user, form);
    await user.click(within(form).getByRole('button', { name: 'Submit Clip' }));
    await expectToast('Log in to submit', 'You need to be logged in to submit a clip.');
    expect(login).toHaveFocus();
    expect(gateway.writes()).toEqual([]);
  });

  it('creates, uploads with a real progress bar, finalizes, resets and follows the video every 2 s until it is ready', async () => {
    let polls = 0;
    const { form, user, gateway } = setup(
      gatewayFor((call) => {
        if (call.url !== '/api/submissions' || call.method !== 'GET') return undefined;
        polls += 1;
        return {
          json: [
            { id: 'other', videoState: 'processing' },
            { id: 'sub-1', videoState: polls < 2 ? 'processing' : 'ready', videoRejectedReason: null },
          ],
        };
      }),
    );
    await within(form).findByRole('option', { name: 'Big Streamer' });
    await fill(user, form);
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Streamer (optional)' }), 'st-1');
    await user.type(field(form, 'Additional Info (optional)'), 'Watch the end');
    await chooseVideo(user, form);
    await user.click(within(form).getByRole('button', { name: 'Submit Clip' }));
    expect(within(form).getByRole('button', { name: /Submitting\.\.\./ })).toHaveAttribute('aria-busy', 'true');

    const xhr = await storageRequest();
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe('/api/submissions/uploads/v1?token=t');
    expect((xhr.body as File).name).toBe('clip.mp4');
    const bar = within(form).getByRole('progressbar', { name: 'Video upload' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    xhr.progress(1.5 * MB, 4 * MB);
    expect(bar).toHaveAttribute('aria-valuenow', '37');
    expect(within(form).getByText('1.5 MB of 4.0 MB (37%)')).toBeVisible();
    xhr.progress(4 * MB, 4 * MB);
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    xhr.respond(200);

    expect(await screen.findByRole('heading', { name: 'Submission Received!' })).toHaveFocus();
    await expectToast('Submission Successful!', 'Your clip with video has been submitted for review!');
    expect(gateway.writes()).toEqual([
      {
        method: 'POST',
        url: '/api/submissions',
        body: {
          name: 'Big play',
          url: URL_OK,
          externalId: '1790000000000000001',
          authorHandle: 'clip_king',
          walletAddress: '',
          additionalInfo: 'Watch the end',
          streamerId: 'st-1',
        },
      },
      { method: 'POST', url: '/api/submissions/video-upload-url', body: { submissionId: 'sub-1' } },
      { method: 'POST', url: '/api/submissions/finalize-video-upload', body: { submissionId: 'sub-1', videoId: 'v1' } },
    ]);
    const status = screen.getByRole('status', { name: 'Video status' });
    expect(status).toHaveTextContent('Processing your video');
    // Asked again within a second, not after the 2 s of later polls: a phone-ready upload is ready that soon.
    await waitFor(() => expect(status).toHaveTextContent('Video ready'), { timeout: VIDEO_STATE_FIRST_POLL_MS * 3 });
    expect(status).toHaveTextContent('Your video is processed and waiting for review.');
    // Ready is final: no more polls.
    const settled = polls;
    await new Promise((resolve) => setTimeout(resolve, VIDEO_STATE_POLL_MS + 500));
    expect(polls).toBe(settled);

    await user.click(screen.getByRole('button', { name: 'Submit Another Clip' }));
    const again = screen.getByRole('form', { name: 'Submit Your Clip' });
    expect(field(again, 'Clip Title')).toHaveValue('');
    expect(field(again, 'Additional Info (optional)')).toHaveValue('');
    expect(within(again).getByRole('combobox', { name: 'Streamer (optional)' })).toHaveValue('none');
    expect(within(again).queryByText(/clip\.mp4/)).toBeNull();
  }, 20_000);

  it('shows the worker’s refusal with its reason', async () => {
    let polls = 0;
    const reason = 'Invalid Video: Could not read video file. Please try a different file.';
    const { form, user } = setup(
      gatewayFor((call) => {
        if (call.url !== '/api/submissions' || call.method !== 'GET') return undefined;
        polls += 1;
        return {
          json: [{ id: 'sub-1', videoState: polls < 2 ? 'processing' : 'rejected', videoRejectedReason: polls < 2 ? null : reason }],
        };
      }),
    );
    await fill(user, form);
    await chooseVideo(user, form);
    await user.click(within(form).getByRole('button', { name: 'Submit Clip' }));
    (await storageRequest()).respond(200);
    const status = await screen.findByRole('status', { name: 'Video status' });
    await waitFor(() => expect(status).toHaveTextContent('Video refused'), { timeout: VIDEO_STATE_POLL_MS * 2 });
    expect(within(status).getByText(reason)).toBeVisible();
  }, 15_000);

  it('once the video is ready, shows the guide’s checks under its status, each verdict in words, and how many warn', async () => {
    let video: Record<string, unknown> = { videoState: 'processing', guideChecks: null };
    const status = await submitFollowing(() => video);
    expect(status).toHaveTextContent('Processing your video');
    // Nothing to say about the guide while the worker has the video.
    expect(screen.queryByRole('list', { name: 'Guide checks' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Guide checks' })).toBeNull();

    video = {
      videoState: 'ready',
      guideChecks: guideChecks({ ...PHONE_READY, durationSeconds: 12.4, width: 1920, height: 1080, watermark: 'unsure' }),
    };
    await waitFor(() => expect(status).toHaveTextContent('Video ready'), { timeout: VIDEO_STATE_POLL_MS * 2 });
    expect(screen.getByRole('heading', { level: 3, name: 'Guide checks' })).toBeVisible();
    expect(guideRows()).toEqual([
      '!Warning: 12 seconds long: the guide asks for at least 15 seconds.',
      '!Warning: The frame is 16:9: the guide asks for portrait 9:16.',
      '✓Pass: 1920 px wide: at least 720.',
      '✓Pass: Has sound.',
      '?Unsure: The picture changes too little to tell whether the top-right corner has a watermark.',
    ]);
    // The unsure watermark is not a warning.
    expect(screen.getByText('2 warnings: you can still wait for review, or submit again with a better cut.')).toBeVisible();
    // The checks are beside the status, not read out again on every change of it.
    expect(within(status).queryByRole('list')).toBeNull();
  }, 15_000);

  it('one warning says so in the singular', async () => {
    const status = await submitFollowing(() => ({ videoState: 'ready', guideChecks: guideChecks({ ...PHONE_READY, hasAudio: false }) }));
    await waitFor(() => expect(status).toHaveTextContent('Video ready'));
    expect(await screen.findByText('1 warning: you can still wait for review, or submit again with a better cut.')).toBeVisible();
    expect(guideRows()).toContain('!Warning: No sound: the video has no audio track.');
  });

  it('checks that all pass are listed without a summary', async () => {
    const status = await submitFollowing(() => ({ videoState: 'ready', guideChecks: guideChecks(PHONE_READY) }));
    await waitFor(() => expect(status).toHaveTextContent('Video ready'));
    expect(await screen.findByRole('list', { name: 'Guide checks' })).toBeVisible();
    expect(guideRows()).toHaveLength(5);
    expect(guideRows().every((row) => row?.startsWith('✓Pass: '))).toBe(true);
    expect(screen.queryByText(/warnings?:/)).toBeNull();
  });

  it('a ready video without checks (processed before they existed) shows none', async () => {
    const status = await submitFollowing(() => ({ videoState: 'ready', guideChecks: null }));
    await waitFor(() => expect(status).toHaveTextContent('Video ready'));
    expect(screen.queryByRole('list', { name: 'Guide checks' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Guide checks' })).toBeNull();
  });

  it('toasts Submission Failed with the step and the server’s words, keeping what was typed', async () => {
    const { form, user } = setup(
      gatewayFor((call) => (call.url === '/api/submissions/finalize-video-upload' ? { status: 429, text: LIMIT_TEXT } : undefined)),
    );
    await fill(user, form);
    await chooseVideo(user, form);
    await user.click(within(form).getByRole('button', { name: 'Submit Clip' }));
    (await storageRequest()).respond(200);
    await expectToast('Submission Failed', `Failed to finalize video upload: ${LIMIT_TEXT}`);
    expect(field(form, 'Clip Title')).toHaveValue('Big play');
    expect(within(form).getByRole('button', { name: 'Submit Clip' })).not.toHaveAttribute('aria-busy');
    expect(within(form).queryByRole('progressbar')).toBeNull();
  });

  it('a storage refusal and an ended session say so; the latter brings back the log-in prompt', async () => {
    let signedIn = true;
    const { form, user } = setup(
      gatewayFor((call) => {
        if (call.url === '/api/user/me' && !signedIn) return { status: 401, text: 'Not signed in' };
        if (call.url === '/api/submissions' && call.method === 'POST' && !signedIn) return { status: 401, text: 'Not signed in' };
        return undefined;
      }),
    );
    await fill(user, form);
    await chooseVideo(user, form);
    await user.click(within(form).getByRole('button', { name: 'Submit Clip' }));
    (await storageRequest()).respond(403);
    await expectToast('Submission Failed', 'Failed to upload video to storage');

    signedIn = false;
    await user.click(within(form).getByRole('button', { name: 'Submit Clip' }));
    await expectToast('Submission Failed', 'Failed to create submission: Not signed in');
    expect(await screen.findByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });
});
