import { status } from '@grpc/grpc-js';
import type { identityV1 } from '@clipit/contracts';
import { DomainError, GrpcCallError, Outbox } from '@clipit/service-kit';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { QueryFailedError } from 'typeorm';
import { AT, clockAt, runTransactions, submission, tx, USER_ID } from '../../test/support/unit-fixtures.js';
import { IDENTITY_CLIENT, type IdentityPort } from '../ports.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { messages } from '../domain/messages.js';
import { SubmissionsService } from './submissions.service.js';

// Submitting a post with identity's client, the repository and the outbox auto-mocked: what is
// checked before anything is written, and the one insert with its event.

const TOKEN_ID = '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b';
const STREAMER_ID = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';

function setup() {
  const identity = automock<IdentityPort>('IdentityPort', ['getToken', 'getUser']);
  const { service, mock } = createTestService(SubmissionsService, { [IDENTITY_CLIENT]: identity });
  const repo = mock(SubmissionRepository);
  runTransactions(repo);
  return { service, repo, outbox: mock(Outbox), identity };
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
      expect(inserted).toMatchObject({ userId: USER_ID, name: 'A great clip', externalId: '1790000000000000000', authorHandle: 'clipper', status: 'pending', videoState: 'none', createdAt: AT });
      expect(f.outbox.append).toHaveBeenCalledWith(tx, 'submission.created', { submission: expect.objectContaining({ id: inserted.id, status: 'pending' }) });
      expect(answer).toMatchObject({ id: inserted.id, hasVideo: false, isProcessing: false });
    });

    it('refuses bad input before asking identity or writing', async () => {
      const err = await rejectedWith(f.service.create(request({ url: 'https://example.com/not-a-post' })), DomainError);
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect((await rejectedWith(f.service.create(request({ userId: 'someone' })), DomainError)).message).toBe('userId must be a user id');
      expect(f.repo.transaction).not.toHaveBeenCalled();
    });

    it('answers 404 for a tagged token or streamer identity does not know, or a user who is not a streamer', async () => {
      f.identity.getToken.mockRejectedValueOnce(new GrpcCallError(status.NOT_FOUND, 'Token not found', 'getToken', true));
      expect((await rejectedWith(f.service.create(request({ tokenId: TOKEN_ID })), DomainError)).message).toBe('Streamer token not found');
      f.identity.getUser.mockRejectedValueOnce(notFoundAtIdentity());
      expect((await rejectedWith(f.service.create(request({ streamerId: STREAMER_ID })), DomainError)).message).toBe('Streamer not found');
      f.identity.getUser.mockResolvedValueOnce({ id: STREAMER_ID, role: 'clipper' } as identityV1.User);
      const clipper = await rejectedWith(f.service.create(request({ streamerId: STREAMER_ID })), DomainError);
      expect([clipper.code, clipper.message]).toEqual([status.NOT_FOUND, 'Streamer not found']);
      expect(f.repo.transaction).not.toHaveBeenCalled();
    });

    it("answers identity's outage as UNAVAILABLE in its own words, before writing anything (ADR 0014)", async () => {
      f.identity.getToken.mockRejectedValueOnce(new GrpcCallError(status.UNAVAILABLE, 'connect ECONNREFUSED', 'getToken'));
      await expect(f.service.create(request({ tokenId: TOKEN_ID }))).rejects.toMatchObject({ code: status.UNAVAILABLE, message: messages.identityUnavailable });
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
      const duplicate = new QueryFailedError('INSERT INTO submissions ...', [], Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'submissions_platform_external_id_key' }));
      f.repo.insert.mockRejectedValue(duplicate);
      const err = await rejectedWith(f.service.create(request()), DomainError);
      expect([err.code, err.message]).toEqual([status.ALREADY_EXISTS, 'This post has already been submitted']);
    });
  });

  describe('reads', () => {
    it('lists at most 1000, 500 unless asked', async () => {
      f.repo.listAll.mockResolvedValue([submission()]);
      expect((await f.service.listAll(undefined)).submissions).toHaveLength(1);
      await f.service.listAll(5000);
      await f.service.listAll(-3);
      await f.service.listAll(20);
      expect(f.repo.listAll.mock.calls).toEqual([[500], [1000], [500], [20]]);
    });

    it("answers a person's own and one by id, 404 for none", async () => {
      f.repo.listByUser.mockResolvedValue([submission()]);
      expect((await f.service.listMine(USER_ID)).submissions.map((s) => s.userId)).toEqual([USER_ID]);
      f.repo.findById.mockResolvedValueOnce(undefined);
      expect((await rejectedWith(f.service.get('nope'), DomainError)).code).toBe(status.NOT_FOUND);
    });
  });
});
