import { status } from '@grpc/grpc-js';
import type { identityV1 } from '@clipit/contracts';
import { CONFIG, DomainError, GrpcCallError, Outbox, TransactionRunner } from '@clipit/service-kit';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { QueryFailedError } from 'typeorm';
import {
  AT,
  clockAt,
  config,
  OTHER_USER_ID,
  runTransactions,
  submission,
  SUBMISSION_ID,
  tx,
  USER_ID,
} from '../../test/support/unit-fixtures.js';
import { IDENTITY_CLIENT, type IdentityPort } from '../ports.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { messages } from '../domain/messages.js';
import { SubmissionsService } from './submissions.service.js';

// Submitting a post with identity's client, the repository and the outbox auto-mocked: what is
// checked before anything is written, and the one insert with its event.

const TOKEN_ID = '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b';
const STREAMER_ID = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
const OTHER_SUBMISSION_ID = '8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e';

function setup() {
  const identity = automock<IdentityPort>('IdentityPort', ['getToken', 'getUser']);
  const { service, mock } = createTestService(SubmissionsService, { [IDENTITY_CLIENT]: identity, [CONFIG]: config });
  const repo = mock(SubmissionRepository);
  const transactions = runTransactions(mock(TransactionRunner));
  return { service, transactions, repo, outbox: mock(Outbox), identity };
}

const request = (patch: Record<string, string> = {}) => ({
  userId: USER_ID,
  name: ' A great clip ',
  url: 'https://x.com/clipper/status/1790000000000000000',
  walletAddress: 'pending',
  ...patch,
});

const notFoundAtIdentity = () => new GrpcCallError(status.NOT_FOUND, 'User not found', 'getUser', true);

describe('SubmissionsService', () => {
  clockAt();
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  describe('create', () => {
    it('inserts the submission the factory built and its submission.created event in one transaction', async () => {
      f.repo.insert.mockResolvedValue(undefined);
      f.outbox.append.mockResolvedValue(undefined as never);
      const answer = await f.service.create(request());

      const [insertTx, inserted] = f.repo.insert.mock.calls[0]!;
      expect(insertTx).toBe(tx);
      expect(inserted).toMatchObject({
        userId: USER_ID,
        name: 'A great clip',
        externalId: '1790000000000000000',
        authorHandle: 'clipper',
        status: 'pending',
        videoState: 'none',
        createdAt: AT,
      });
      expect(f.outbox.append).toHaveBeenCalledWith(tx, 'submission.created', {
        submission: expect.objectContaining({ id: inserted.id, status: 'pending' }),
      });
      expect(answer).toMatchObject({ id: inserted.id, hasVideo: false, isProcessing: false });
    });

    it('refuses bad input before asking identity or writing', async () => {
      const err = await rejectedWith(f.service.create(request({ url: 'https://example.com/not-a-post' })), DomainError);
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect((await rejectedWith(f.service.create(request({ userId: 'someone' })), DomainError)).message).toBe('userId must be a user id');
      expect(f.transactions.run).not.toHaveBeenCalled();
    });

    it('answers 404 for a tagged token or streamer identity does not know, or a user who is not a streamer', async () => {
      f.identity.getToken.mockRejectedValueOnce(new GrpcCallError(status.NOT_FOUND, 'Token not found', 'getToken', true));
      expect((await rejectedWith(f.service.create(request({ tokenId: TOKEN_ID })), DomainError)).message).toBe('Streamer token not found');
      f.identity.getUser.mockRejectedValueOnce(notFoundAtIdentity());
      expect((await rejectedWith(f.service.create(request({ streamerId: STREAMER_ID })), DomainError)).message).toBe('Streamer not found');
      f.identity.getUser.mockResolvedValueOnce({ id: STREAMER_ID, role: 'clipper' } as identityV1.User);
      const clipper = await rejectedWith(f.service.create(request({ streamerId: STREAMER_ID })), DomainError);
      expect([clipper.code, clipper.message]).toEqual([status.NOT_FOUND, 'Streamer not found']);
      expect(f.transactions.run).not.toHaveBeenCalled();
    });

    it("answers identity's outage as UNAVAILABLE in its own words, before writing anything (ADR 0014)", async () => {
      f.identity.getToken.mockRejectedValueOnce(new GrpcCallError(status.UNAVAILABLE, 'connect ECONNREFUSED', 'getToken'));
      await expect(f.service.create(request({ tokenId: TOKEN_ID }))).rejects.toMatchObject({
        code: status.UNAVAILABLE,
        message: messages.identityUnavailable,
      });
      expect(f.repo.insert).not.toHaveBeenCalled();
    });

    it('stores a tagged streamer that exists', async () => {
      f.identity.getUser.mockResolvedValueOnce({ id: STREAMER_ID, role: 'streamer' } as identityV1.User);
      f.repo.insert.mockResolvedValue(undefined);
      f.outbox.append.mockResolvedValue(undefined as never);
      expect(await f.service.create(request({ streamerId: STREAMER_ID }))).toMatchObject({ streamerId: STREAMER_ID });
      expect(f.identity.getUser).toHaveBeenCalledWith({ id: STREAMER_ID });
    });

    it('answers 409 when the post was submitted already (the unique index decides a race)', async () => {
      const duplicate = new QueryFailedError(
        'INSERT INTO submissions ...',
        [],
        Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'submissions_platform_external_id_key' }),
      );
      f.repo.insert.mockRejectedValue(duplicate);
      const err = await rejectedWith(f.service.create(request()), DomainError);
      expect([err.code, err.message]).toEqual([status.ALREADY_EXISTS, 'This post has already been submitted']);
    });
  });

  describe('reads', () => {
    it('pages the admin list 50 at a time unless asked, at most 200, asking for one row more to know whether a page follows', async () => {
      f.repo.listQueue.mockResolvedValue([submission()]);
      f.repo.counts.mockResolvedValue({ total: 12, createdSince: 3 });
      const now = new Date('2026-11-24T12:00:00Z');
      expect(await f.service.listAll({}, now)).toMatchObject({ total: 12, createdPastWeek: 3 });
      expect((await f.service.listAll({}, now)).nextCursor).toBeUndefined();
      await f.service.listAll({ limit: 5000 }, now);
      await f.service.listAll({ limit: -3 }, now);
      await f.service.listAll({ limit: 20 }, now);
      expect(f.repo.listQueue.mock.calls.map(([, , limit]) => limit)).toEqual([51, 51, 201, 51, 21]);
      expect(f.repo.counts).toHaveBeenCalledWith(new Date('2026-11-17T12:00:00Z'));
    });

    it('passes the checked filter and the risk threshold to the queue, and answers a cursor that keeps its place in the order read', async () => {
      const rows = [submission({ status: 'approved' }), submission({ status: 'approved' })];
      f.repo.listQueue.mockResolvedValue(rows);
      f.repo.counts.mockResolvedValue({ total: 2, createdSince: 0 });
      const page = await f.service.listAll({ limit: 1, platform: 'twitter', flags: ['risky', 'matched', 'risky'] });
      const [filter, threshold, , after] = f.repo.listQueue.mock.calls[0]!;
      expect([filter, threshold, after]).toEqual([{ platform: 'twitter', flags: ['risky', 'matched'] }, 60, undefined]);
      // No status picked: an approved row ranks after the pending ones, and the cursor says so.
      expect(page.nextCursor).toMatch(/^1\./);
      await f.service.listAll({ cursor: page.nextCursor });
      expect(f.repo.listQueue.mock.calls[1]![3]).toEqual({ rank: 1, createdAt: rows[0]!.createdAt, id: rows[0]!.id });
    });

    it.each([
      [{ status: 'held' }, 'status must be one of: pending, approved, rejected'],
      [{ platform: 'youtube' }, 'platform must be one of: twitter, instagram, tiktok, other'],
      [{ flags: ['matched', 'suspicious'] }, 'flags must be among: matched, risky, failed-checks'],
      [{ cursor: 'MS5hYmM' }, 'Invalid cursor'],
    ])('refuses the filter %j: %s', async (request, message) => {
      const err = await rejectedWith(f.service.listAll(request), DomainError);
      expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, message]);
    });

    it('refuses a cursor it did not write', async () => {
      const err = await rejectedWith(f.service.listAll({ cursor: 'garbage' }), DomainError);
      expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, 'Invalid cursor']);
    });

    it("answers a person's own and one by id, 404 for none", async () => {
      f.repo.listByUser.mockResolvedValue([submission()]);
      expect(await f.service.listMine({ userId: USER_ID })).toEqual({ submissions: [expect.objectContaining({ userId: USER_ID })] });
      expect(f.repo.listByUser).toHaveBeenCalledWith(USER_ID);
      f.repo.findById.mockResolvedValueOnce(undefined);
      expect((await rejectedWith(f.service.get('nope'), DomainError)).code).toBe(status.NOT_FOUND);
    });

    it('pages a person’s own newest first when asked for a limit or a cursor, by the last one’s creation and id', async () => {
      const newer = submission({ id: 'a0000000-0000-4000-8000-000000000002', createdAt: AT });
      const older = submission({ id: 'a0000000-0000-4000-8000-000000000001', createdAt: new Date(AT.getTime() - 1000) });
      f.repo.listByUser.mockResolvedValue([newer, older]);
      const page = await f.service.listMine({ userId: USER_ID, limit: 1 });
      expect(f.repo.listByUser).toHaveBeenLastCalledWith(USER_ID, { limit: 2, before: undefined });
      expect(page.submissions.map((s) => s.id)).toEqual([newer.id]);
      expect(page.nextCursor).toEqual(expect.any(String));

      f.repo.listByUser.mockResolvedValue([older]);
      const next = await f.service.listMine({ userId: USER_ID, cursor: page.nextCursor! });
      expect(f.repo.listByUser).toHaveBeenLastCalledWith(USER_ID, { limit: 51, before: { createdAt: AT, id: newer.id } });
      expect(next).toEqual({ submissions: [expect.objectContaining({ id: older.id })] });

      await f.service.listMine({ userId: USER_ID, limit: 5000 });
      expect(f.repo.listByUser).toHaveBeenLastCalledWith(USER_ID, { limit: 201, before: undefined });
      const err = await rejectedWith(f.service.listMine({ userId: USER_ID, cursor: 'garbage' }), DomainError);
      expect([err.code, err.message]).toEqual([status.INVALID_ARGUMENT, 'Invalid cursor']);
    });

    it('carries a flagged clip’s hold, in the clipper’s words, and none for a clip not flagged', async () => {
      const matched = submission({
        videoMatches: [
          { submissionId: OTHER_SUBMISSION_ID, userId: OTHER_USER_ID, videoDistance: 0.05, audioMatches: true, kind: 'reupload' },
        ],
      });
      f.repo.findById.mockResolvedValueOnce(matched);
      const hold = (await f.service.get(matched.id)).hold;
      expect(hold).toEqual({ causes: ['reupload'], reasons: [expect.any(String)] });
      expect(hold!.reasons[0]).not.toContain(OTHER_USER_ID);
      f.repo.findById.mockResolvedValueOnce(submission());
      expect((await f.service.get(SUBMISSION_ID)).hold).toBeUndefined();
    });
  });
});
