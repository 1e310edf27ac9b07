// Profile editing over real HTTP (spec 02 §2.6, §5, §7): the gateway's upload URL on filesystem
// storage, identity owning the uploads and judging the stored bytes, /media serving the result.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asOurPage, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(40, 7)]);

let seq = 0;

interface Account {
  id: string;
  cookie: string;
}

interface UploadUrl {
  uploadURL: string;
  uploadId: string;
  imageUrl: string;
  maxBytes: number;
}

describe('profile editing (gateway + identity, real servers)', () => {
  let p: Platform;
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const as = (who: Account, method: string, path: string, body?: unknown) => api(path, json(method, body, { cookie: who.cookie }));

  async function signUp(): Promise<Account> {
    seq += 1;
    const handle = `pe_${Date.now().toString(36).slice(-6)}${seq}`.slice(0, 15);
    const res = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role: 'clipper',
        password: 'a-good-password',
        displayName: 'Before',
      }),
    );
    expect(res.status).toBe(201);
    const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    return { id: ((await res.json()) as { user: { id: string } }).user.id, cookie: `clipit.sid=${sid}` };
  }

  async function uploadUrl(who: Account, kind: 'profile-picture' | 'banner', contentType: string, size: number): Promise<UploadUrl> {
    const res = await as(who, 'POST', `/api/user/${kind}/upload-url`, { contentType, size });
    expect(res.status).toBe(200);
    return (await res.json()) as UploadUrl;
  }

  /** The browser's PUT of the raw file: no cookie, no Origin needed (the URL's token authorizes it). */
  const putBytes = (uploadURL: string, bytes: Buffer, contentType: string) =>
    fetch(`${p.url}${uploadURL}`, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });

  let alice: Account;
  let bob: Account;

  beforeAll(async () => {
    p = await startPlatform({ RATE_LIMIT_MAX_PER_IP: 1000 });
    [alice, bob] = [await signUp(), await signUp()];
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('uploads a picture, sets it, serves it, and removes the old one when replaced', async () => {
    const first = await uploadUrl(alice, 'profile-picture', 'image/png', PNG_1PX.length);
    expect(first).toEqual({
      uploadURL: expect.stringMatching(new RegExp(`^/api/user/image-uploads/${first.uploadId}\\?token=[A-Za-z0-9_-]{43}$`)),
      uploadId: expect.any(String),
      imageUrl: `/media/profile-images/${alice.id}-${first.uploadId}.png`,
      maxBytes: 5 * 1024 * 1024,
    });
    const put = await putBytes(first.uploadURL, PNG_1PX, 'image/png');
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ uploadId: first.uploadId, size: PNG_1PX.length });
    // Not public until it is checked and set.
    expect((await fetch(`${p.url}${first.imageUrl}`)).status).toBe(404);

    const set = await as(alice, 'PUT', '/api/user/profile-picture', { profileImageUrl: first.imageUrl });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ id: alice.id, profileImageUrl: first.imageUrl });
    expect(await (await as(alice, 'GET', '/api/user/me')).json()).toMatchObject({ profileImageUrl: first.imageUrl });
    const served = await fetch(`${p.url}${first.imageUrl}`);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG_1PX);
    const firstFile = first.imageUrl.split('/').at(-1)!;
    expect(await p.storedFiles('profile-images')).toContain(firstFile);

    // The second one, sent back as the URL it was PUT to (what some clients send).
    const second = await uploadUrl(alice, 'profile-picture', 'image/gif', GIF.length);
    expect((await putBytes(second.uploadURL, GIF, 'image/gif')).status).toBe(200);
    const replaced = await as(alice, 'PUT', '/api/user/profile-picture', { profileImageUrl: second.uploadURL });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ profileImageUrl: second.imageUrl });
    const files = await p.storedFiles('profile-images');
    expect(files).toContain(second.imageUrl.split('/').at(-1)!);
    expect(files).not.toContain(firstFile);
    expect((await fetch(`${p.url}${first.imageUrl}`)).status).toBe(404);
    expect(await p.storedFiles('image-uploads')).toEqual([]);

    // An upload serves once.
    await expectText(
      await as(alice, 'PUT', '/api/user/profile-picture', { profileImageUrl: second.imageUrl }),
      409,
      'This image upload was already used; request a new upload URL',
    );
  });

  it('refuses a banner over 10 MB, declared or sent, with text, and keeps nothing', async () => {
    const size = Math.round(10.1 * 1024 * 1024);
    await expectText(
      await as(bob, 'POST', '/api/user/banner/upload-url', { contentType: 'image/jpeg', size }),
      413,
      'Banner image must be 10 MB or smaller',
    );

    // Declared small, sent large: cut off while it streams.
    const upload = await uploadUrl(bob, 'banner', 'image/jpeg', 1000);
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size - 4, 1)]);
    await expectText(await putBytes(upload.uploadURL, big, 'image/jpeg'), 413, 'Banner image must be 10 MB or smaller');
    expect(await p.storedFiles('image-uploads')).toEqual([]);
    expect(await p.storedFiles('banner-images')).toEqual([]);
    // Sent without a length (chunked): cut off at the limit while it streams, the partial file removed.
    const chunked = await uploadUrl(bob, 'banner', 'image/jpeg', 1000);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < big.length; at += 1024 * 1024) controller.enqueue(big.subarray(at, at + 1024 * 1024));
        controller.close();
      },
    });
    const streamed = await fetch(`${p.url}${chunked.uploadURL}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg' },
      body,
      duplex: 'half',
    } as RequestInit);
    await expectText(streamed, 413, 'Banner image must be 10 MB or smaller');
    expect(await p.storedFiles('image-uploads')).toEqual([]);
    // The refused upload is done with.
    await expectText(
      await putBytes(upload.uploadURL, PNG_1PX, 'image/png'),
      404,
      'Image upload not found or expired; request a new upload URL',
    );
    await expectText(
      await as(bob, 'PUT', '/api/user/banner', { bannerImageUrl: upload.imageUrl }),
      404,
      'Image upload not found or expired; request a new upload URL',
    );
  });

  it('refuses what is not an image: declared, or by its bytes', async () => {
    await expectText(
      await as(bob, 'POST', '/api/user/profile-picture/upload-url', { contentType: 'text/html', size: 10 }),
      400,
      'Profile picture must be an image file',
    );
    await expectText(
      await as(bob, 'POST', '/api/user/banner/upload-url', { contentType: 'image/svg+xml', size: 10 }),
      400,
      'Banner image must be a PNG, JPEG, GIF or WebP image',
    );
    const upload = await uploadUrl(bob, 'banner', 'image/png', 40);
    await expectText(
      await putBytes(upload.uploadURL, Buffer.from('<html><script>alert(1)</script></html>'), 'image/png'),
      400,
      'Banner image must be an image file',
    );
    expect(await p.storedFiles('image-uploads')).toEqual([]);
    await expectText(await as(bob, 'PUT', '/api/user/banner', {}), 400, 'No banner image selected');
  });

  it("refuses someone else's upload and images that are no upload of one's own", async () => {
    const alices = await uploadUrl(alice, 'banner', 'image/png', PNG_1PX.length);
    expect((await putBytes(alices.uploadURL, PNG_1PX, 'image/png')).status).toBe(200);
    await expectText(
      await as(bob, 'PUT', '/api/user/banner', { bannerImageUrl: alices.imageUrl }),
      403,
      'You can only use an image you uploaded',
    );
    await expectText(
      await as(bob, 'PUT', '/api/user/banner', { bannerImageUrl: 'https://example.com/banner.png' }),
      400,
      'You can only use an image you uploaded',
    );
    // Hers still works for her.
    const set = await as(alice, 'PUT', '/api/user/banner', { bannerImageUrl: alices.imageUrl });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ bannerImageUrl: alices.imageUrl });
    // The upload URL without its token, or with another, takes nothing.
    const bobs = await uploadUrl(bob, 'profile-picture', 'image/png', PNG_1PX.length);
    await expectText(
      await putBytes(bobs.uploadURL.replace(/token=.*/, 'token=nope'), PNG_1PX, 'image/png'),
      404,
      'Image upload not found or expired; request a new upload URL',
    );
    // Signed out, nothing is handed out.
    await expectText(await api('/api/user/banner/upload-url', json('POST', { contentType: 'image/png', size: 1 })), 401, 'Not signed in');
  });

  it('changes the display name, with the sign-up form’s rules', async () => {
    const res = await as(alice, 'POST', '/api/user/update-profile', { displayName: '  Alice Clips ' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: alice.id, displayName: 'Alice Clips' });
    expect(await (await as(alice, 'GET', '/api/user/me')).json()).toMatchObject({ displayName: 'Alice Clips' });
    await expectText(await as(alice, 'POST', '/api/user/update-profile', { displayName: '   ' }), 400, 'Display name is required');
    await expectText(await as(alice, 'POST', '/api/user/update-profile', {}), 400, 'Display name is required');
    await expectText(
      await as(alice, 'POST', '/api/user/update-profile', { displayName: 'x'.repeat(101) }),
      400,
      'Display name must be at most 100 characters',
    );
    // A write from another site is refused before anything changes.
    await expectText(
      await api(
        '/api/user/update-profile',
        json('POST', { displayName: 'Hijacked' }, { cookie: alice.cookie, origin: 'https://evil.example' }),
      ),
      403,
      'Cross-site request refused',
    );
  });
});
