// Accounts and feed clips the e2e specs start from: a sign-up through the real route, and approved clips
// put in the feed as submissions tells of them (the events it publishes on approval, with a processed video,
// as the benchmark's seed does), so a spec needs no admin round trip and no ffmpeg.
import { randomUUID } from 'node:crypto';
import { subjectFor } from '@clipit/contracts';
import { buildEventEnvelope, connectNats, jetstream } from '@clipit/service-kit';
import { submissionSnapshot, testInfra } from '@clipit/testing';
import { expect } from '@jest/globals';
import { asOurPage } from './platform.js';

/** A valid Solana address for sign-ups (any base58 string of the right length passes the format check). */
export const E2E_WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
/** The password every e2e account signs up with. */
export const E2E_PASSWORD = 'a-good-password';

export interface Account {
  id: string;
  handle: string;
  /** `clipit.sid=…`, ready for a Cookie header. */
  cookie: string;
}

let accounts = 0;

/** Signs a new account up through `gatewayUrl` (201 expected); its handle starts with `prefix`. */
export async function signUp(gatewayUrl: string, opts: { prefix?: string; role?: 'clipper' | 'streamer' } = {}): Promise<Account> {
  accounts += 1;
  const handle = `${opts.prefix ?? 'e2e'}_${Date.now().toString(36).slice(-5)}${accounts}`;
  const res = await fetch(
    ...asOurPage(gatewayUrl, '/api/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: E2E_WALLET,
        role: opts.role ?? 'clipper',
        password: E2E_PASSWORD,
      }),
    }),
  );
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { user: { id: string } }).user.id;
  return { id, handle, cookie: /clipit\.sid=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0] };
}

/**
 * Publishes `count` of `owner`'s clips as approved and in the feed, on the platform's stream (the
 * `submission.approved` submissions publishes), newest last; answers their ids. The caller waits for the
 * read models it needs.
 */
export async function publishFeedClips(
  subjectPrefix: string,
  owner: Pick<Account, 'id' | 'handle'>,
  count: number,
  name = 'Clip',
): Promise<string[]> {
  const nc = await connectNats(testInfra().natsUrl, 'e2e-feed-clips');
  const ids: string[] = [];
  try {
    const js = jetstream(nc);
    for (let i = 0; i < count; i += 1) {
      const id = randomUUID();
      const at = new Date(Date.now() - 60_000 + i * 1000).toISOString();
      const externalId = `${Date.now()}${i}`;
      const envelope = buildEventEnvelope('submission.approved', {
        submission: submissionSnapshot({
          id,
          userId: owner.id,
          name: `${name} ${i}`,
          url: `https://x.com/${owner.handle}/status/${externalId}`,
          externalId,
          authorHandle: owner.handle,
          walletAddress: E2E_WALLET,
          approvedAt: at,
          videoState: 'ready',
          hasVideo: true,
          videoUrl: `/media/videos/${id}/video.mp4`,
          videoThumbnailUrl: `/media/videos/${id}/poster.jpg`,
          videoDuration: 12,
          videoAspectRatio: '9:16',
          playbackId: id,
          views: 100 * i,
          publishedAt: at,
          createdAt: at,
          updatedAt: at,
        }),
      });
      await js.publish(subjectFor('submission.approved', subjectPrefix), JSON.stringify(envelope), { msgID: envelope.id });
      ids.push(id);
    }
  } finally {
    await nc.drain();
  }
  return ids;
}
