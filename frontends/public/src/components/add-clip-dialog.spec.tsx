import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { videoMetadata } from '../lib/clip-submission.js';
import { fakeGateway, renderScreen, type Call, type Reply } from '@clipit/web-testing';
import AddClipDialog from './add-clip-dialog.js';

const URL_OK = 'https://x.com/clip_king/status/1790000000000000001';
const TOKENS = [
  { id: 'tok-1', name: 'BIGSTREAMER' },
  { id: 'tok-2', name: 'OTHER' },
];

afterEach(() => {
  jest.restoreAllMocks();
});

function setup(
  handler: (call: Call) => Reply | Promise<Reply> = (call) =>
    call.url === '/api/tokens' ? { json: TOKENS } : { status: 404, text: 'No such route: POST /api/submissions' },
) {
  const gateway = fakeGateway(handler);
  const onOpenChange = jest.fn<(open: boolean) => void>();
  const rendered = renderScreen(<AddClipDialog open onOpenChange={onOpenChange} />);
  const dialog = screen.getByRole('dialog', { name: 'Add a Clip' });
  return { gateway, onOpenChange, dialog, user: userEvent.setup(), ...rendered };
}

describe('the add-clip dialog', () => {
  it('lists the streamers from /api/tokens, "none" first', async () => {
    const { dialog } = setup();
    const select = within(dialog).getByLabelText('Streamer (optional)');
    await within(select).findByRole('option', { name: 'BIGSTREAMER' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => [(o as HTMLOptionElement).value, o.textContent]),
    ).toEqual([
      ['none', 'No streamer'],
      ['tok-1', 'BIGSTREAMER'],
      ['tok-2', 'OTHER'],
    ]);
  });

  it('needs a title and a URL, then a Twitter/X post URL, before calling', async () => {
    const { dialog, user, gateway } = setup();
    await user.click(within(dialog).getByRole('button', { name: 'Submit Clip' }));
    expect(await screen.findByText('Missing Information')).toBeVisible();
    expect(screen.getByText('Please fill in the clip title and Twitter URL.')).toBeVisible();
    await user.type(within(dialog).getByLabelText('Clip Title'), 'Big play');
    await user.type(within(dialog).getByLabelText('Twitter/X Post URL'), 'https://youtube.com/watch?v=1');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Clip' }));
    expect(await screen.findByText('Invalid Twitter URL')).toBeVisible();
    expect(screen.getByText('Please enter a valid Twitter/X post URL.')).toBeVisible();
    expect(gateway.writes()).toEqual([]);
  });

  it('refuses a file that is not a supported video, or one too long, and shows a good one’s name and size', async () => {
    const { dialog } = setup();
    const user = userEvent.setup({ applyAccept: false });
    const picker = within(dialog).getByLabelText('Video (optional)');
    await user.upload(picker, new File(['x'], 'clip.mkv', { type: 'video/x-matroska' }));
    expect(await screen.findByText('Invalid File Type')).toBeVisible();
    expect(screen.getByText('Please upload a video file (MP4, WebM, MOV, or AVI).')).toBeVisible();

    const duration = jest.spyOn(videoMetadata, 'readDuration');
    duration.mockResolvedValueOnce(41.7);
    await user.upload(picker, new File(['x'], 'long.mp4', { type: 'video/mp4' }));
    expect(await screen.findByText('Video Too Long')).toBeVisible();
    expect(screen.getByText('Video must be 40 seconds or less. Your video is 41 seconds.')).toBeVisible();

    duration.mockRejectedValueOnce(new Error('unreadable'));
    await user.upload(picker, new File(['x'], 'broken.mp4', { type: 'video/mp4' }));
    expect(await screen.findByText('Invalid Video')).toBeVisible();
    expect(screen.getByText('Could not read video file. Please try a different file.')).toBeVisible();

    duration.mockResolvedValueOnce(12.2);
    await user.upload(picker, new File([new Uint8Array(1.5 * 1024 * 1024)], 'good.mp4', { type: 'video/mp4' }));
    expect(await within(dialog).findByText('good.mp4 (1.5 MB)')).toBeVisible();
  });

  it('toasts Submission Failed with the gateway’s "status: text" and stays open', async () => {
    const { dialog, user, gateway, onOpenChange } = setup();
    await user.type(within(dialog).getByLabelText('Clip Title'), 'Big play');
    await user.type(within(dialog).getByLabelText('Twitter/X Post URL'), URL_OK);
    await user.click(within(dialog).getByRole('button', { name: 'Submit Clip' }));
    expect(await screen.findByText('Submission Failed')).toBeVisible();
    expect(screen.getByText('404: No such route: POST /api/submissions')).toBeVisible();
    expect(gateway.writes()).toHaveLength(1);
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('submits the payload, uploads the video with the new id, toasts, resets, refetches and closes', async () => {
    let release!: () => void;
    const created = new Promise<void>((resolve) => (release = resolve));
    const { dialog, user, gateway, onOpenChange, queryClient } = setup(async (call) => {
      if (call.url === '/api/tokens') return { json: TOKENS };
      if (call.url === '/api/submissions') {
        await created;
        return { status: 201, json: { id: 'sub-9' } };
      }
      return { json: { ok: true } };
    });
    const invalidate = jest.spyOn(queryClient, 'invalidateQueries');
    jest.spyOn(videoMetadata, 'readDuration').mockResolvedValue(20);
    await within(within(dialog).getByLabelText('Streamer (optional)')).findByRole('option', { name: 'BIGSTREAMER' });
    await user.type(within(dialog).getByLabelText('Clip Title'), 'Big play');
    await user.type(within(dialog).getByLabelText('Twitter/X Post URL'), URL_OK);
    await user.selectOptions(within(dialog).getByLabelText('Streamer (optional)'), 'tok-1');
    await user.upload(within(dialog).getByLabelText('Video (optional)'), new File(['v'], 'clip.mp4', { type: 'video/mp4' }));
    await within(dialog).findByText(/clip\.mp4/);
    await user.click(within(dialog).getByRole('button', { name: 'Submit Clip' }));
    const pending = within(dialog).getByRole('button', { name: /Submitting\.\.\./ });
    expect(pending).toBeDisabled();
    release();

    expect(await screen.findByText('Clip Submitted!')).toBeVisible();
    expect(screen.getByText('Your clip has been submitted and will appear in the feed soon!')).toBeVisible();
    const [submission, upload] = gateway.writes();
    expect(submission).toEqual({
      method: 'POST',
      url: '/api/submissions',
      body: {
        name: 'Big play',
        url: URL_OK,
        externalId: '1790000000000000001',
        authorHandle: 'clip_king',
        walletAddress: 'pending',
        additionalInfo: null,
        tokenId: 'tok-1',
      },
    });
    expect(upload?.url).toBe('/api/submissions/upload-video');
    expect((upload?.body as FormData).get('submissionId')).toBe('sub-9');
    expect(((upload?.body as FormData).get('video') as File).name).toBe('clip.mp4');
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(within(dialog).getByLabelText('Clip Title')).toHaveValue('');
    expect(within(dialog).queryByText(/clip\.mp4/)).toBeNull();
    await waitFor(() => {
      expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/feed/clips'] });
      expect(invalidate).toHaveBeenCalledWith({ queryKey: ['/api/submissions'] });
    });
  });

  it('does not upload when there is no video; Cancel closes', async () => {
    const { dialog, user, gateway, onOpenChange } = setup((call) =>
      call.url === '/api/tokens' ? { json: [] } : { status: 201, json: { id: 'sub-1' } },
    );
    await user.type(within(dialog).getByLabelText('Clip Title'), 'Big play');
    await user.type(within(dialog).getByLabelText('Twitter/X Post URL'), URL_OK);
    await user.click(within(dialog).getByRole('button', { name: 'Submit Clip' }));
    expect(await screen.findByText('Clip Submitted!')).toBeVisible();
    expect(gateway.writes().map((c) => c.url)).toEqual(['/api/submissions']);
    expect((gateway.writes()[0]?.body as { tokenId: unknown }).tokenId).toBeNull();
    onOpenChange.mockClear();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
