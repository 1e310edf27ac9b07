// Earning holds over real servers (ADR 0050): gateway → submissions (a clip's video fingerprinted by the
// media worker matches another clipper's earlier clip, submission.matches-changed) → admin approves it →
// rewards holds its earning → the weekly payout run leaves it out and the public ledger never lists it →
// the admin releases it with a reason (audited) → the next run pays it; another held earning voided is
// never paid; and the refusals of the two routes as text.
import { synthesizeClip } from '@clipit/media';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUp, type Account } from './support/accounts.js';
import { expectText, json } from './support/http.js';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';

const TIMEOUT_MS = 180_000;
const DAY = 24 * 60 * 60 * 1000;
const REUPLOAD = 'Its video matches a clip submitted earlier by another clipper.';

interface HoldJson {
  earningId: string;
  amount: number;
  status: 'held' | 'pending' | 'paid' | 'voided';
  reasons: string[];
  decision: { decision: 'released' | 'voided'; reason: string; by: string; at: string } | null;
}
interface AdminItem {
  id: string;
  matches: unknown[] | null;
  hold: HoldJson | null;
}
interface EarningJson {
  id: string;
  submissionId: string;
  amount: number;
  status: string;
  holdReasons: string[];
  decision: { decision: string; reason: string } | null;
}

describe('earning holds (gateway + submissions + media worker + admin + rewards, real servers)', () => {
  let p: Platform;
  let dir: string;
  let clip: Buffer;
  let adminToken = '';
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const asAdmin = (method: string, path: string, body?: unknown) =>
    api(path, json(method, body, { authorization: `Bearer ${adminToken}` }));
  const asUser = (who: Account, path: string) => api(path, { headers: { cookie: who.cookie } });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clipit-e2e-holds-'));
    const file = join(dir, 'clip.mp4');
    // Few frames keep the transcode quick; every clipper below uploads these same pictures.
    await synthesizeClip({ path: file, durationSeconds: 6, width: 720, height: 1280, withAudio: true, fps: 10 });
    clip = await readFile(file);
    p = await startPlatform({}, {}, { mediaWorker: true });
    const verified = await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }));
    adminToken = ((await verified.json()) as { token: string }).token;
  }, 120_000);

  afterAll(async () => {
    await p?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A clipper's submission with the clip uploaded, once the media worker's verdict is in. */
  async function clipBy(who: Account): Promise<string> {
    const url = `https://x.com/${who.handle}/status/${Date.now()}${randomBytes(2).readUInt16BE()}`;
    const created = await api(
      '/api/submissions',
      json(
        'POST',
        { name: `Clip of ${who.handle}`, url, walletAddress: 'pending', additionalInfo: null, tokenId: null },
        { cookie: who.cookie },
      ),
    );
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    const upload = await api('/api/submissions/video-upload-url', json('POST', { submissionId: id }, { cookie: who.cookie }));
    const { uploadUrl, videoId } = (await upload.json()) as { uploadUrl: string; videoId: string };
    expect((await api(uploadUrl, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: clip })).status).toBe(200);
    const fin = await api('/api/submissions/finalize-video-upload', json('POST', { submissionId: id, videoId }, { cookie: who.cookie }));
    expect(fin.status).toBe(200);
    return id;
  }

  /** The admin list's item, once `ready` says it is as the test needs it. */
  const adminItem = (id: string, ready: (item: AdminItem) => boolean, what: string) =>
    waitFor(
      async () => {
        const page = (await (await asAdmin('GET', '/api/admin/submissions?limit=200')).json()) as { submissions: AdminItem[] };
        const found = page.submissions.find((s) => s.id === id);
        return found && ready(found) ? found : undefined;
      },
      90_000,
      what,
    );

  const approve = async (id: string) => expect((await asAdmin('POST', `/api/admin/submissions/${id}/approve`, {})).status).toBe(200);
  const earningsOf = async (who: Account) => ((await (await asUser(who, '/api/earnings')).json()) as { earnings: EarningJson[] }).earnings;
  const summaryOf = async (who: Account) =>
    ((await (await asUser(who, '/api/dashboard')).json()) as { earningsSummary: Record<string, number> }).earningsSummary;
  const ledger = async () =>
    ((await (await api('/api/payouts')).json()) as { payouts: { amount: number; earningsCount: number }[] }).payouts;

  it(
    'holds the earning of a re-upload approved while flagged, leaves it out of a payout run, and pays it the run after an admin releases it',
    async () => {
      const first = await signUp(p.url, { prefix: 'hold_a' });
      const second = await signUp(p.url, { prefix: 'hold_b' });
      const original = await clipBy(first);
      await adminItem(original, (s) => s.matches !== null, 'the original fingerprinted');
      const copy = await clipBy(second);
      await adminItem(copy, (s) => (s.matches ?? []).length > 0, 'the copy matched to the original');

      await approve(original);
      await approve(copy);
      const held = (await adminItem(copy, (s) => s.hold?.status === 'held', 'the copy’s earning held')).hold!;
      expect(held).toMatchObject({ status: 'held', reasons: [REUPLOAD], decision: null });
      expect((await adminItem(original, (s) => s.hold === null, 'the original unheld')).hold).toBeNull();
      await waitFor(async () => ((await earningsOf(second)).length === 1 ? true : undefined), 10_000, 'the copy’s earning listed');
      expect((await earningsOf(second))[0]).toMatchObject({ id: held.earningId, status: 'held', holdReasons: [REUPLOAD] });
      expect(await summaryOf(second)).toMatchObject({ pending: 0, held: held.amount });

      // The Friday run pays the original's earning and leaves the held one out; the ledger never lists it.
      const run = await p.runPayouts(new Date(Date.now() + 8 * DAY));
      expect(run).toMatchObject({ paid: 1 });
      expect((await earningsOf(second))[0]!.status).toBe('held');
      expect((await earningsOf(first))[0]!.status).toBe('paid');
      expect(await ledger()).toHaveLength(1);

      // The refusals, as text: no reason, too long a reason, an unknown earning, one not held.
      await expectText(await asAdmin('POST', `/api/admin/earnings/${held.earningId}/release`, {}), 400, 'A reason is required');
      await expectText(
        await asAdmin('POST', `/api/admin/earnings/${held.earningId}/release`, { reason: '   ' }),
        400,
        'A reason is required',
      );
      await expectText(
        await asAdmin('POST', `/api/admin/earnings/${held.earningId}/void`, { reason: 'x'.repeat(501) }),
        400,
        'Reason must be at most 500 characters',
      );
      await expectText(await asAdmin('POST', `/api/admin/earnings/${randomUUID()}/release`, { reason: 'ok' }), 404, 'Earning not found');
      const paidEarning = (await earningsOf(first))[0]!;
      await expectText(
        await asAdmin('POST', `/api/admin/earnings/${paidEarning.id}/void`, { reason: 'ok' }),
        409,
        'This earning is not held',
      );

      const released = await asAdmin('POST', `/api/admin/earnings/${held.earningId}/release`, { reason: '  Their own edit, checked  ' });
      expect(released.status).toBe(200);
      expect(await released.json()).toMatchObject({
        earningId: held.earningId,
        status: 'pending',
        decision: { decision: 'released', reason: 'Their own edit, checked', by: expect.any(String) },
      });
      await expectText(
        await asAdmin('POST', `/api/admin/earnings/${held.earningId}/release`, { reason: 'again' }),
        409,
        'This earning is not held',
      );
      expect(await summaryOf(second)).toMatchObject({ pending: held.amount, held: 0 });
      const audit = (await (await asAdmin('GET', '/api/admin/audit')).json()) as {
        entries: { action: string; target: string; result: string }[];
      };
      expect(audit.entries).toContainEqual(
        expect.objectContaining({ action: 'release-earning', target: `earning ${held.earningId}`, result: 'ok' }),
      );

      expect(await p.runPayouts(new Date(Date.now() + 15 * DAY))).toMatchObject({ paid: 1 });
      expect((await earningsOf(second))[0]!.status).toBe('paid');
      expect((await ledger()).map((x) => x.amount).sort()).toEqual([held.amount, (await earningsOf(first))[0]!.amount].sort());
    },
    TIMEOUT_MS,
  );

  it(
    'voids a held earning with the reason the clipper reads: no run ever pays it',
    async () => {
      const first = await signUp(p.url, { prefix: 'void_a' });
      const third = await signUp(p.url, { prefix: 'void_c' });
      const original = await clipBy(first);
      await adminItem(original, (s) => s.matches !== null, 'the original fingerprinted');
      const copy = await clipBy(third);
      await adminItem(copy, (s) => (s.matches ?? []).length > 0, 'the copy matched');
      await approve(copy);
      const held = (await adminItem(copy, (s) => s.hold?.status === 'held', 'the copy’s earning held')).hold!;

      const voided = await asAdmin('POST', `/api/admin/earnings/${held.earningId}/void`, { reason: 'A copy of another clipper’s clip' });
      expect(voided.status).toBe(200);
      expect(await voided.json()).toMatchObject({ status: 'voided', decision: { decision: 'voided' } });
      const before = await ledger();
      await p.runPayouts(new Date(Date.now() + 22 * DAY));
      await p.runPayouts(new Date(Date.now() + 29 * DAY));
      expect(await ledger()).toEqual(before);
      expect((await earningsOf(third))[0]).toMatchObject({
        status: 'voided',
        decision: { decision: 'voided', reason: 'A copy of another clipper’s clip' },
      });
      expect(await summaryOf(third)).toMatchObject({ paid: 0, pending: 0, held: 0, total: 0 });
      expect((await adminItem(copy, (s) => s.hold?.status === 'voided', 'the void on the list')).hold!.decision!.reason).toBe(
        'A copy of another clipper’s clip',
      );
    },
    TIMEOUT_MS,
  );
});
