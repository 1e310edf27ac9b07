// The platform on the S3 driver, as compose and Kubernetes run it against MinIO: identity stores a
// sign-up picture in a bucket and the gateway serves it back from there, whole and by range. The S3
// server is @20minutes/s3rver in this process, which checks request signatures.
import S3rver from '@20minutes/s3rver';
import AWSAccount from '@20minutes/s3rver/lib/models/account.js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform, type Platform } from './support/platform.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const ACCESS_KEY = 'clipit-e2e';
const SECRET_KEY = randomBytes(20).toString('hex');

describe('sign-up picture stored in S3 and served by the gateway', () => {
  let tmp: string;
  let server: S3rver;
  let p: Platform;

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'clipit-e2e-s3-'));
    AWSAccount.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
    AWSAccount.DUMMY_ACCOUNT.createKeyPair(ACCESS_KEY, SECRET_KEY);
    server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: tmp });
    const { port } = await server.run();
    // The bucket does not exist yet: identity creates it at boot.
    p = await startPlatform(
      {},
      {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: `clipit-e2e-${randomBytes(3).toString('hex')}`,
        S3_ACCESS_KEY: ACCESS_KEY,
        S3_SECRET_KEY: SECRET_KEY,
        S3_REGION: 'us-east-1',
      },
    );
  });

  afterAll(async () => {
    await p?.stop();
    await server?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('stores the PNG in the bucket and serves it back, whole and by range', async () => {
    const handle = `s3_${randomBytes(4).toString('hex')}`;
    const form = new FormData();
    const fields = {
      email: `${handle}@example.com`,
      twitterHandle: handle,
      walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
      role: 'clipper',
      password: 'first-password',
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('profilePicture', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'me.png');
    const res = await fetch(`${p.url}/api/auth/signup`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const { user } = (await res.json()) as { user: { profileImageUrl: string } };
    expect(user.profileImageUrl).toMatch(/^\/media\/profile-images\/[\w.-]+\.png$/);
    // Nothing on the local folder: the bytes went to the bucket.
    expect(await p.storedFiles('profile-images')).toEqual([]);

    const whole = await fetch(`${p.url}${user.profileImageUrl}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await whole.arrayBuffer()).equals(PNG)).toBe(true);

    const part = await fetch(`${p.url}${user.profileImageUrl}`, { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1-3/${PNG.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(PNG.subarray(1, 4))).toBe(true);

    const missing = await fetch(`${p.url}/media/profile-images/nobody.png`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
  });
});
