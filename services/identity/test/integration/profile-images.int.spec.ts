import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { status } from '@grpc/grpc-js';
import type { UserUpdatedV1 } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ImageUploadService } from '../../src/services/image-upload.service.js';
import { newSignUp, PNG_1PX, rejected, startIdentity, type IdentityHarness } from '../support/identity-harness.js';

// Profile pictures and banners by upload (spec 02 §2.6): the real identity over gRPC, Postgres, NATS and
// a storage folder of its own, the bytes written into that folder as the gateway's upload URL would.

let h: IdentityHarness;

beforeAll(async () => {
  h = await startIdentity();
});

afterAll(async () => {
  await h?.stop();
});

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);

/** What the gateway's upload URL does on filesystem storage: the bytes at the upload's key. */
async function storeBytes(uploadId: string, bytes: Buffer, contentType = 'image/png'): Promise<void> {
  const { storageKey } = await h.client.authorizeImageUpload({ uploadId, uploadToken: tokens.get(uploadId)! });
  const file = join(h.storageRoot, storageKey);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, bytes);
  await writeFile(`${file}.meta`, JSON.stringify({ contentType }));
}

const tokens = new Map<string, string>();

async function newUpload(userId: string, kind: 'profile' | 'banner', contentType = 'image/png', size = 100) {
  const upload = await h.client.createImageUpload({ userId, kind, contentType, size });
  tokens.set(upload.uploadId, upload.uploadToken);
  return upload;
}

async function uploaded(userId: string, kind: 'profile' | 'banner', bytes: Buffer = PNG_1PX) {
  const upload = await newUpload(userId, kind);
  await storeBytes(upload.uploadId, bytes);
  return upload;
}

const updatesFor = (userId: string) =>
  h.events
    .filter((e) => e.envelope.type === 'user.updated' && (e.envelope.data as UserUpdatedV1).user.id === userId)
    .map((e) => e.envelope.data as UserUpdatedV1);

const storedUploads = () => h.storedFiles('image-uploads');

describe('profile image uploads', () => {
  it('hands out an upload with the gateway URL token, the image URL to come and the kind’s limit', async () => {
    const { user } = await h.client.signUp(newSignUp());
    const upload = await newUpload(user!.id, 'banner', 'image/webp', 2_000_000);
    // int64 travels as text (the loader's longs: String).
    expect(Number(upload.maxBytes)).toBe(10 * 1024 * 1024);
    expect(upload).toMatchObject({ presignedUrl: '', imageUrl: `/media/banner-images/${user!.id}-${upload.uploadId}.webp` });
    expect(upload.uploadToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await h.db.query('SELECT token_hash, status, kind FROM image_uploads WHERE id = $1', [upload.uploadId]);
    expect(row.rows[0]).toMatchObject({ status: 'pending', kind: 'banner' });
    expect(row.rows[0].token_hash).not.toContain(upload.uploadToken);
  });

  it('refuses what the browser declares when it is not an image or over the limit', async () => {
    const { user } = await h.client.signUp(newSignUp());
    const cases = [
      [{ kind: 'profile', contentType: 'application/pdf', size: 10 }, status.INVALID_ARGUMENT, 'Profile picture must be an image file'],
      [
        { kind: 'banner', contentType: 'image/svg+xml', size: 10 },
        status.INVALID_ARGUMENT,
        'Banner image must be a PNG, JPEG, GIF or WebP image',
      ],
      [
        { kind: 'profile', contentType: 'image/png', size: 5 * 1024 * 1024 + 1 },
        status.OUT_OF_RANGE,
        'Profile picture must be 5 MB or smaller',
      ],
      [
        { kind: 'banner', contentType: 'image/png', size: 10 * 1024 * 1024 + 1 },
        status.OUT_OF_RANGE,
        'Banner image must be 10 MB or smaller',
      ],
    ] as const;
    for (const [req, code, message] of cases) {
      const err = await rejected(h.client.createImageUpload({ userId: user!.id, ...req }));
      expect([err.code, err.message]).toEqual([code, message]);
    }
    expect(await h.count('SELECT count(*) FROM image_uploads WHERE user_id = $1', [user!.id])).toBe(0);
  });

  it('sets a picture: the user, one user.updated, the upload used; the next one replaces it and removes the old object', async () => {
    const { user } = await h.client.signUp(newSignUp({ profilePicture: PNG_1PX }));
    const signUpKey = user!.profileImageUrl!.replace('/media/', '');
    expect(await h.storedFiles('profile-images')).toContain(signUpKey);

    const first = await uploaded(user!.id, 'profile');
    const updated = await h.client.setProfileImage({ userId: user!.id, kind: 'profile', imageUrl: first.imageUrl });
    expect(updated.profileImageUrl).toBe(first.imageUrl);
    const firstKey = first.imageUrl.replace('/media/', '');
    const files = await h.storedFiles('profile-images');
    expect(files).toContain(firstKey);
    // The sign-up picture it replaced is gone, and so is the raw upload.
    expect(files).not.toContain(signUpKey);
    expect(await storedUploads()).not.toContain(`image-uploads/${first.uploadId}`);
    expect((await h.db.query('SELECT profile_image_url FROM users WHERE id = $1', [user!.id])).rows[0].profile_image_url).toBe(
      first.imageUrl,
    );
    expect((await h.db.query('SELECT status, used_at FROM image_uploads WHERE id = $1', [first.uploadId])).rows[0]).toMatchObject({
      status: 'used',
      used_at: expect.any(Date),
    });
    const [event] = await waitFor(() => (updatesFor(user!.id).length ? updatesFor(user!.id) : undefined), 10_000, 'user.updated');
    expect(event).toMatchObject({ changed: ['profileImageUrl'], user: { id: user!.id, profileImageUrl: first.imageUrl } });

    // Sent back as the URL the bytes were PUT to (the gateway's upload URL) works too.
    const second = await uploaded(user!.id, 'profile', JPEG);
    const again = await h.client.setProfileImage({
      userId: user!.id,
      kind: 'profile',
      imageUrl: `/api/user/image-uploads/${second.uploadId}?token=${tokens.get(second.uploadId)}`,
    });
    expect(again.profileImageUrl).toBe(second.imageUrl);
    expect((await h.storedFiles('profile-images')).filter((f) => f.includes(user!.id))).toEqual([second.imageUrl.replace('/media/', '')]);
    // Served under the type its bytes are.
    const meta = await import('node:fs/promises').then((fs) =>
      fs.readFile(join(h.storageRoot, `${second.imageUrl.replace('/media/', '')}.meta`), 'utf8'),
    );
    expect(JSON.parse(meta)).toEqual({ contentType: 'image/jpeg' });
    await waitFor(() => (updatesFor(user!.id).length === 2 ? true : undefined), 10_000, 'second user.updated');
  });

  it('sets a banner and leaves the picture alone', async () => {
    const { user } = await h.client.signUp(newSignUp({ profilePicture: PNG_1PX }));
    const banner = await uploaded(user!.id, 'banner');
    const updated = await h.client.setProfileImage({ userId: user!.id, kind: 'banner', imageUrl: banner.imageUrl });
    expect(updated).toMatchObject({ bannerImageUrl: banner.imageUrl, profileImageUrl: user!.profileImageUrl });
    expect(await h.storedFiles('banner-images')).toContain(banner.imageUrl.replace('/media/', ''));
    expect(await h.storedFiles('profile-images')).toContain(user!.profileImageUrl!.replace('/media/', ''));
  });

  it('refuses someone else’s upload, a used one, the wrong kind, an external URL and one not uploaded yet', async () => {
    const { user: owner } = await h.client.signUp(newSignUp());
    const { user: other } = await h.client.signUp(newSignUp());
    const mine = await uploaded(owner!.id, 'profile');

    const stolen = await rejected(h.client.setProfileImage({ userId: other!.id, kind: 'profile', imageUrl: mine.imageUrl }));
    expect([stolen.code, stolen.message]).toEqual([status.PERMISSION_DENIED, 'You can only use an image you uploaded']);
    const wrongKind = await rejected(h.client.setProfileImage({ userId: owner!.id, kind: 'banner', imageUrl: mine.imageUrl }));
    expect([wrongKind.code, wrongKind.message]).toEqual([
      status.INVALID_ARGUMENT,
      'This image was uploaded as a profile picture, not a banner',
    ]);
    for (const imageUrl of ['https://example.com/cat.png', '/media/videos/abc/poster.jpg', `/media/profile-images/${owner!.id}-0123.png`]) {
      const err = await rejected(h.client.setProfileImage({ userId: owner!.id, kind: 'profile', imageUrl }));
      expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, 'You can only use an image you uploaded']);
    }
    const notYet = await newUpload(owner!.id, 'profile');
    const early = await rejected(h.client.setProfileImage({ userId: owner!.id, kind: 'profile', imageUrl: notYet.imageUrl }));
    expect([early.code, early.message]).toEqual([
      status.INVALID_ARGUMENT,
      'The image has not been uploaded yet: PUT the file to the upload URL first',
    ]);

    await h.client.setProfileImage({ userId: owner!.id, kind: 'profile', imageUrl: mine.imageUrl });
    const twice = await rejected(h.client.setProfileImage({ userId: owner!.id, kind: 'profile', imageUrl: mine.imageUrl }));
    expect([twice.code, twice.message]).toEqual([status.ALREADY_EXISTS, 'This image upload was already used; request a new upload URL']);
    // A used upload takes no more bytes either.
    const token = await rejected(h.client.authorizeImageUpload({ uploadId: mine.uploadId, uploadToken: tokens.get(mine.uploadId)! }));
    expect([token.code, token.message]).toEqual([status.NOT_FOUND, 'Image upload not found or expired; request a new upload URL']);
    const wrongToken = await rejected(h.client.authorizeImageUpload({ uploadId: notYet.uploadId, uploadToken: 'x'.repeat(43) }));
    expect(wrongToken.code).toBe(status.NOT_FOUND);
  });

  it('judges the stored bytes: too large or not an image is refused and removed, and the upload cannot be used again', async () => {
    const { user } = await h.client.signUp(newSignUp());
    // Declared small, stored large.
    const big = await uploaded(user!.id, 'profile', Buffer.concat([PNG_1PX, Buffer.alloc(5 * 1024 * 1024)]));
    const tooLarge = await rejected(h.client.setProfileImage({ userId: user!.id, kind: 'profile', imageUrl: big.imageUrl }));
    expect([tooLarge.code, tooLarge.message]).toEqual([status.OUT_OF_RANGE, 'Profile picture must be 5 MB or smaller']);
    // Declared an image, stored HTML.
    const fake = await uploaded(user!.id, 'banner', Buffer.from('<html><script>alert(1)</script></html>'));
    const notImage = await rejected(h.client.setProfileImage({ userId: user!.id, kind: 'banner', imageUrl: fake.imageUrl }));
    expect([notImage.code, notImage.message]).toEqual([status.INVALID_ARGUMENT, 'Banner image must be an image file']);

    for (const upload of [big, fake]) {
      expect(await storedUploads()).not.toContain(`image-uploads/${upload.uploadId}`);
      const retry = await rejected(
        h.client.setProfileImage({ userId: user!.id, kind: upload === big ? 'profile' : 'banner', imageUrl: upload.imageUrl }),
      );
      expect([retry.code, retry.message]).toEqual([status.NOT_FOUND, 'Image upload not found or expired; request a new upload URL']);
    }
    const mine = (files: string[]) => files.filter((f) => f.includes(user!.id));
    expect(mine(await h.storedFiles('profile-images'))).toEqual([]);
    expect(mine(await h.storedFiles('banner-images'))).toEqual([]);
    expect((await h.db.query('SELECT profile_image_url, banner_image_url FROM users WHERE id = $1', [user!.id])).rows[0]).toEqual({
      profile_image_url: null,
      banner_image_url: null,
    });
    expect(updatesFor(user!.id)).toEqual([]);
  });

  it('sweeps uploads that expired unused, with their bytes, and keeps used ones', async () => {
    const { user } = await h.client.signUp(newSignUp());
    const unused = await uploaded(user!.id, 'banner');
    const used = await uploaded(user!.id, 'profile');
    await h.client.setProfileImage({ userId: user!.id, kind: 'profile', imageUrl: used.imageUrl });
    await h.db.query(`UPDATE image_uploads SET expires_at = now() - interval '1 minute' WHERE user_id = $1`, [user!.id]);

    const expired = await rejected(h.client.setProfileImage({ userId: user!.id, kind: 'banner', imageUrl: unused.imageUrl }));
    expect([expired.code, expired.message]).toEqual([status.NOT_FOUND, 'Image upload not found or expired; request a new upload URL']);

    expect(await h.identity.get(ImageUploadService).sweepExpired()).toBeGreaterThanOrEqual(1);
    expect(await storedUploads()).not.toContain(`image-uploads/${unused.uploadId}`);
    expect(await h.count('SELECT count(*) FROM image_uploads WHERE id = $1', [unused.uploadId])).toBe(0);
    expect(await h.count('SELECT count(*) FROM image_uploads WHERE id = $1', [used.uploadId])).toBe(1);
    expect(await h.storedFiles('profile-images')).toContain(used.imageUrl.replace('/media/', ''));
  });

  it('updates the display name with the sign-up form’s rules', async () => {
    const { user } = await h.client.signUp(newSignUp());
    expect((await h.client.updateProfile({ userId: user!.id, displayName: '  New Name ' })).displayName).toBe('New Name');
    for (const [displayName, message] of [
      ['  ', 'Display name is required'],
      ['x'.repeat(101), 'Display name must be at most 100 characters'],
    ] as const) {
      const err = await rejected(h.client.updateProfile({ userId: user!.id, displayName }));
      expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, message]);
    }
  });
});
