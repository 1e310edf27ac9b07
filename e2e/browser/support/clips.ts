// Data for the public screens' browser tests, made the way users make it: accounts signed up through the
// gateway's API, clips submitted with a real video (the platform's media worker transcodes it), and an
// admin approving them into the feed. Start the platform with `{ mediaWorker: true }`.
import { synthesizeClip } from '@clipit/media';
import { waitFor } from '@clipit/testing';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asOurPage, E2E_ADMIN_PASSWORD, type Platform } from '../../support/platform.js';
import { newPerson, TEST_WALLET } from './site.js';

export const PASSWORD = 'a-good-password';

export interface Account {
  id: string;
  handle: string;
  displayName: string;
  /** The session id (the clipit.sid cookie's value), for signInBrowser. */
  sid: string;
  /** `clipit.sid=…`, for API calls. */
  cookie: string;
}

export interface ClipSpec {
  name?: string;
  /** A streamer's token id to tag. */
  tokenId?: string | null;
  additionalInfo?: string | null;
  /** Leave out the video (a post without an upload). */
  withoutVideo?: boolean;
}

export interface ClipSeeder {
  /** Signs up through POST /api/auth/signup. */
  signUp(role: 'clipper' | 'streamer', extra?: Record<string, string>): Promise<Account>;
  /** The token a streamer's sign-up created (GET /api/tokens), by the streamer's display name. */
  tokenOf(streamer: Account): Promise<{ id: string; name: string }>;
  /** Submits one post as `clipper` (with the synthesized video unless told otherwise); the submission's id. */
  submit(clipper: Account, spec?: ClipSpec): Promise<string>;
  /** Waits until the feed's read models hold each submission's processed video. */
  waitProcessed(ids: readonly string[], timeoutMs?: number): Promise<void>;
  /** An admin action on a submission ('approve', 'approve-and-add-to-feed', 'reject', 'remove-from-feed', …). */
  moderate(id: string, action: string, body?: Record<string, unknown>): Promise<void>;
  /**
   * `count` clips by `clipper`, each with a processed video, approved into the feed, in submission
   * order (the last one is the newest); resolves once GET /api/feed/clips shows them all.
   */
  publish(clipper: Account, count: number, spec?: ClipSpec): Promise<string[]>;
  /** Calls the gateway as the site would (same-origin), with an optional session cookie. */
  api(path: string, init?: RequestInit & { cookie?: string }): Promise<Response>;
  /** Removes the synthesized video's folder. */
  close(): Promise<void>;
}

/**
 * A seeder over a running platform. The test video is synthesized once (3 s, 360×640 portrait, 10 fps,
 * no audio: small and quick to process; a keyframe every half second, as phones' exports have them, so the
 * media worker's one ffmpeg reads enough of them for the watermark estimate).
 */
export async function clipSeeder(platform: Platform): Promise<ClipSeeder> {
  const dir = await mkdtemp(join(tmpdir(), 'clipit-browser-clips-'));
  const videoPath = join(dir, 'clip.mp4');
  await synthesizeClip({ path: videoPath, durationSeconds: 3, width: 360, height: 640, withAudio: false, fps: 10, keyframeSeconds: 0.5 });
  const video = new Uint8Array(await readFile(videoPath));
  let adminToken: string | undefined;
  let posts = 0;

  const api: ClipSeeder['api'] = (path, init = {}) => {
    const { cookie, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (cookie) headers.set('cookie', cookie);
    return fetch(...asOurPage(platform.url, path, { ...rest, headers }));
  };
  const json = (method: string, body: unknown, cookie?: string): RequestInit & { cookie?: string } => ({
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(cookie ? { cookie } : {}),
  });
  const expectStatus = async (res: Response, status: number, what: string) => {
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  };
  const feedIds = async (): Promise<Set<string>> => {
    const ids = new Set<string>();
    let cursor: string | null = null;
    do {
      const res = await api(`/api/feed/clips?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      const page = (await res.json()) as { submissions: Array<{ id: string }>; nextCursor: string | null };
      for (const clip of page.submissions) ids.add(clip.id);
      cursor = page.nextCursor;
    } while (cursor);
    return ids;
  };

  const seeder: ClipSeeder = {
    api,
    async signUp(role, extra = {}) {
      const person = newPerson(role === 'streamer' ? 'st' : 'cl');
      const displayName = `Name ${person.handle}`;
      const res = await api(
        '/api/auth/signup',
        json('POST', {
          email: person.email,
          twitterHandle: person.handle,
          walletAddress: TEST_WALLET,
          role,
          password: PASSWORD,
          displayName,
          tokenLink: '',
          claimCode: '',
          ...extra,
        }),
      );
      await expectStatus(res, 201, 'sign-up');
      const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
      if (!sid) throw new Error('sign-up set no session cookie');
      const id = ((await res.json()) as { user: { id: string } }).user.id;
      return { id, handle: person.handle, displayName: extra['displayName'] ?? displayName, sid, cookie: `clipit.sid=${sid}` };
    },
    async tokenOf(streamer) {
      const tokens = (await (await api('/api/tokens')).json()) as Array<{ id: string; name: string }>;
      const token = tokens.find((t) => t.name === streamer.displayName);
      if (!token) throw new Error(`no token for ${streamer.handle}`);
      return token;
    },
    async submit(clipper, spec = {}) {
      posts += 1;
      const url = `https://x.com/${clipper.handle}/status/${Date.now()}${posts}`;
      const created = await api(
        '/api/submissions',
        json(
          'POST',
          {
            name: spec.name ?? `Clip ${posts}`,
            url,
            walletAddress: '',
            additionalInfo: spec.additionalInfo ?? null,
            streamerId: null,
            tokenId: spec.tokenId ?? null,
          },
          clipper.cookie,
        ),
      );
      await expectStatus(created, 201, 'create submission');
      const id = ((await created.json()) as { id: string }).id;
      if (!spec.withoutVideo) {
        const form = new FormData();
        form.append('video', new Blob([video], { type: 'video/mp4' }), 'clip.mp4');
        form.append('submissionId', id);
        await expectStatus(
          await api('/api/submissions/upload-video', { method: 'POST', body: form, cookie: clipper.cookie }),
          200,
          'upload video',
        );
      }
      return id;
    },
    async waitProcessed(ids, timeoutMs = 120_000) {
      await waitFor(
        async () => {
          const { rows } = await platform.feedDb.query<{ n: string }>(
            `SELECT count(*) AS n FROM rm.clips WHERE id = ANY($1::uuid[]) AND video_state = 'ready'`,
            [ids],
          );
          return Number(rows[0]!.n) === ids.length ? true : undefined;
        },
        timeoutMs,
        `${ids.length} processed videos`,
      );
    },
    async moderate(id, action, body = {}) {
      if (!adminToken) {
        const res = await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }));
        await expectStatus(res, 200, 'admin password');
        adminToken = ((await res.json()) as { token: string }).token;
      }
      const res = await api(`/api/admin/submissions/${id}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: JSON.stringify(body),
      });
      await expectStatus(res, 200, `${action} ${id}`);
    },
    async publish(clipper, count, spec = {}) {
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1)
        ids.push(await seeder.submit(clipper, { ...spec, name: spec.name ? `${spec.name} ${i + 1}` : undefined }));
      if (!spec.withoutVideo) await seeder.waitProcessed(ids);
      for (const id of ids) await seeder.moderate(id, 'approve-and-add-to-feed');
      await waitFor(
        async () => {
          const inFeed = await feedIds();
          return ids.every((id) => inFeed.has(id)) ? true : undefined;
        },
        // The feed applies the approvals in order behind everything else the platform states about these clips
        // (each one's fingerprint, matches and held earning: the same video every time); under a CI run's load
        // that has taken over 15 s for 50 clips. A wait, not a bound: it answers as soon as they are in.
        60_000,
        `${count} clips in the feed`,
      );
      return ids;
    },
    async close() {
      await rm(dir, { recursive: true, force: true });
    },
  };
  return seeder;
}
