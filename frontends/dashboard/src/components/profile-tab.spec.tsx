import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { act, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { fakeGateway, renderScreen } from '@clipit/web-testing';
import { currentUser, dashboardAnswer } from '../testing/fixtures.js';
import { FakeXhr } from '../testing/fake-xhr.js';
import { ProfileTab } from './profile-tab.js';

const user = dashboardAnswer().user;
const realXhr = globalThis.XMLHttpRequest;

beforeEach(() => {
  FakeXhr.instances = [];
  FakeXhr.around = (event) => act(event);
  globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
});
afterEach(() => {
  globalThis.XMLHttpRequest = realXhr;
});

const png = (name = 'me.png', bytes = 2048) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

const uploadUrl = (kind: string) => ({
  uploadURL: `https://storage.test/${kind}/up-1?sig=x`,
  uploadId: 'up-1',
  imageUrl: `/media/${kind}/up-1.png`,
  maxBytes: 10 * 1024 * 1024,
});

describe('the Profile tab (spec 02 §2.6)', () => {
  it('shows the display name to edit and the handle and email read-only', () => {
    fakeGateway();
    renderScreen(<ProfileTab user={user} />);
    expect(screen.getByRole('textbox', { name: 'Display Name' })).toHaveValue('Ada Clips');
    expect(screen.getByRole('textbox', { name: 'Twitter Handle' })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: 'Twitter Handle' })).toHaveValue('@adaclips');
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly');
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Profile Picture')).toHaveAttribute('accept', expect.stringContaining('image/png'));
    expect(screen.getByLabelText('Banner Image')).toHaveAccessibleDescription('Recommended 1500x500 px, max 10 MB');
  });

  it('sends the display name only when it changed, then refreshes the dashboard and the user', async () => {
    const gateway = fakeGateway(({ url }) =>
      url === '/api/user/update-profile' ? { json: { ...currentUser, displayName: 'Ada the Clipper' } } : { json: {} },
    );
    const { queryClient } = renderScreen(<ProfileTab user={user} />);
    queryClient.setQueryData(['/api/dashboard'], dashboardAnswer());
    queryClient.setQueryData(['/api/user/me'], currentUser);
    const name = screen.getByRole('textbox', { name: 'Display Name' });
    const save = screen.getByRole('button', { name: 'Save Profile' });

    // Unchanged (also after typing it back): nothing to send.
    expect(save).toBeDisabled();
    await userEvent.type(name, '{Enter}');
    await userEvent.clear(name);
    await userEvent.type(name, 'Ada Clips {Enter}');
    expect(gateway.writes()).toEqual([]);

    await userEvent.clear(name);
    await userEvent.type(name, 'Ada the Clipper');
    await userEvent.click(save);
    expect(await screen.findByText('Profile updated!')).toBeVisible();
    expect(gateway.writes()).toEqual([{ method: 'POST', url: '/api/user/update-profile', body: { displayName: 'Ada the Clipper' } }]);
    await waitFor(() => expect(queryClient.getQueryState(['/api/dashboard'])?.isInvalidated).toBe(true));
    expect(queryClient.getQueryState(['/api/user/me'])?.isInvalidated).toBe(true);
  });

  it('toasts a failed profile update with the server text', async () => {
    fakeGateway(() => ({ status: 400, text: 'Display name is too long' }));
    renderScreen(<ProfileTab user={user} />);
    const name = screen.getByRole('textbox', { name: 'Display Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Someone else');
    await userEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    expect(await screen.findByText('Failed to update profile')).toBeVisible();
    expect(screen.getByText('400: Display name is too long')).toBeVisible();
  });

  it('says "No banner image selected" when the banner is uploaded without a file', async () => {
    const gateway = fakeGateway();
    renderScreen(<ProfileTab user={user} />);
    await userEvent.click(screen.getByRole('button', { name: 'Upload Banner' }));
    expect(await screen.findByText('No banner image selected')).toBeVisible();
    expect(gateway.calls).toEqual([]);
  });

  it('uploads a banner: upload URL, the file PUT with its type and progress, then the banner saved', async () => {
    const gateway = fakeGateway(({ url }) => {
      if (url === '/api/user/banner/upload-url') return { json: uploadUrl('banner') };
      if (url === '/api/user/banner') return { json: { ...currentUser, bannerImageUrl: '/media/banner/up-1.png' } };
      return { status: 404, text: 'No such route' };
    });
    renderScreen(<ProfileTab user={user} />);
    const file = png('banner.png', 4000);
    await userEvent.upload(screen.getByLabelText('Banner Image'), file);
    await userEvent.click(screen.getByRole('button', { name: 'Upload Banner' }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    const xhr = FakeXhr.last();
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe('https://storage.test/banner/up-1?sig=x');
    expect(xhr.headers['Content-Type']).toBe('image/png');
    expect(xhr.body).toBe(file);
    xhr.progress(1000, 4000);
    const bar = screen.getByRole('progressbar', { name: 'Uploading banner' });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText('25%')).toBeVisible();
    xhr.respond(200);
    expect(await screen.findByText('Banner updated!')).toBeVisible();
    expect(gateway.writes()).toEqual([
      { method: 'POST', url: '/api/user/banner/upload-url', body: { contentType: 'image/png', size: 4000 } },
      { method: 'PUT', url: '/api/user/banner', body: { bannerImageUrl: '/media/banner/up-1.png' } },
    ]);
    expect(screen.queryByRole('progressbar', { name: 'Uploading banner' })).toBeNull();
  });

  it('toasts a failed storage upload of the banner, and a failed save as "Failed to update banner"', async () => {
    let saveFails = false;
    fakeGateway(({ url }) => {
      if (url === '/api/user/banner/upload-url') return { json: uploadUrl('banner') };
      if (url === '/api/user/banner')
        return saveFails ? { status: 409, text: 'This image upload was already used' } : { json: currentUser };
      return { status: 404, text: 'No such route' };
    });
    renderScreen(<ProfileTab user={user} />);
    await userEvent.upload(screen.getByLabelText('Banner Image'), png('banner.png'));
    await userEvent.click(screen.getByRole('button', { name: 'Upload Banner' }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    FakeXhr.last().respond(403, 'SignatureDoesNotMatch');
    expect(await screen.findByText('Failed to upload banner image')).toBeVisible();
    expect(screen.getByText('403: SignatureDoesNotMatch')).toBeVisible();

    saveFails = true;
    await userEvent.click(screen.getByRole('button', { name: 'Upload Banner' }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(2));
    FakeXhr.last().respond(200);
    expect(await screen.findByText('Failed to update banner')).toBeVisible();
  });

  it('uploads a chosen profile picture at once, and toasts a failure', async () => {
    const gateway = fakeGateway(({ url }) => {
      if (url === '/api/user/profile-picture/upload-url') return { json: uploadUrl('profile') };
      if (url === '/api/user/profile-picture') return { json: { ...currentUser, profileImageUrl: '/media/profile/up-1.png' } };
      return { status: 404, text: 'No such route' };
    });
    renderScreen(<ProfileTab user={user} />);
    await userEvent.upload(screen.getByLabelText('Profile Picture'), png());
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(1));
    FakeXhr.last().respond(200);
    expect(await screen.findByText('Profile updated!')).toBeVisible();
    expect(gateway.writes().at(-1)).toEqual({
      method: 'PUT',
      url: '/api/user/profile-picture',
      body: { profileImageUrl: '/media/profile/up-1.png' },
    });

    await userEvent.upload(screen.getByLabelText('Profile Picture'), png('again.png'));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(2));
    FakeXhr.last().fail();
    expect(await screen.findByText('Failed to upload profile picture')).toBeVisible();
    expect(screen.getByText('network error')).toBeVisible();
  });

  it('refuses a file that is not an image before sending anything', async () => {
    const gateway = fakeGateway();
    renderScreen(<ProfileTab user={user} />);
    await userEvent.upload(screen.getByLabelText('Profile Picture'), new File(['x'], 'notes.txt', { type: 'text/plain' }), {
      applyAccept: false,
    });
    expect(await screen.findByText('Failed to upload profile picture')).toBeVisible();
    expect(screen.getByText('Profile picture must be an image file')).toBeVisible();
    expect(gateway.calls).toEqual([]);
  });
});
