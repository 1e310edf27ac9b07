import { status } from '@grpc/grpc-js';
import { CLIPPER_PROFILE_MESSAGES, HIRE_MESSAGES, HIRE_RATING_MESSAGES } from '@clipit/field-rules';
import { newSecretToken, Outbox, secretTokenHash, TransactionRunner } from '@clipit/service-kit';
import { createTestService, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { AT, CLIENT_ID, CLIPPER_ID, hire, HIRE_ID, profile, refusal, tx } from '../../test/support/unit-fixtures.js';
import { toHireSnapshot } from '../domain/hire.js';
import { MESSAGES } from '../domain/messages.js';
import { HireRepository } from '../repositories/hire.repository.js';
import { ProfileRepository } from '../repositories/profile.repository.js';
import { ClipperProfileEventsService } from './clipper-profile-events.service.js';
import { HiresService } from './hires.service.js';

// Asking to hire a clipper and the clipper's answers, with the repositories and the outbox auto-mocked:
// the hire gate (gold, not oneself, available) under the profile's lock, the state each answer leaves,
// and hire.requested / hire.responded in the same transaction.

function setup() {
  const { service, mock } = createTestService(HiresService);
  const transactions = runTransactionsWith(mock(TransactionRunner), tx);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  const profileEvents = mock(ClipperProfileEventsService);
  profileEvents.changed.mockResolvedValue(undefined);
  return { service, transactions, hires: mock(HireRepository), profiles: mock(ProfileRepository), outbox, profileEvents };
}

const ask = (patch: Record<string, string | undefined> = {}) => ({
  clipperId: CLIPPER_ID.toUpperCase(),
  clientUserId: CLIENT_ID,
  clientName: 'Brand Team',
  clientEmail: 'Team@Brand.example.com',
  projectDescription: 'Speed Pack: 7 clips delivered within 24 hours ($40).',
  budget: '40',
  contactInfo: '@brandteam',
  ...patch,
});

describe('HiresService.request', () => {
  it('stores a pending request for the service its description names, with hire.requested, under the profile lock', async () => {
    const f = setup();
    f.profiles.lock.mockResolvedValue(profile());
    f.profiles.services.mockResolvedValue([
      { id: 'svc-speed', serviceName: 'Speed Pack', description: null, basePrice: '40', deliveryTimeHours: 24, isActive: true },
    ]);
    f.hires.insert.mockResolvedValue(undefined);
    const answer = await f.service.request(ask(), AT);

    expect(f.profiles.lock).toHaveBeenCalledWith(tx, CLIPPER_ID);
    const [insertTx, stored] = f.hires.insert.mock.calls[0]!;
    expect(insertTx).toBe(tx);
    expect(stored).toMatchObject({
      clipperId: CLIPPER_ID,
      clientUserId: CLIENT_ID,
      serviceId: 'svc-speed',
      clientEmail: 'team@brand.example.com',
      budget: '40.00',
      status: 'pending',
      createdAt: AT,
    });
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'hire.requested', { hire: toHireSnapshot(stored), clipperId: CLIPPER_ID });
    expect(answer).toMatchObject({ id: stored.id, status: 'pending', serviceId: 'svc-speed' });
    // The answer carries the rating token; the stored hire only its hash (ADR 0040).
    expect(answer.ratingToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stored.ratingTokenHash).toBe(secretTokenHash(answer.ratingToken!));
    expect(JSON.stringify(f.outbox.append.mock.calls)).not.toContain(answer.ratingToken);
  });

  it('refuses by the hire gate: below gold, oneself, not taking work; and someone with no profile', async () => {
    const f = setup();
    f.profiles.lock.mockResolvedValueOnce(profile({ clipperTier: 'silver' }));
    expect(await refusal(f.service.request(ask()))).toEqual({ code: status.PERMISSION_DENIED, message: HIRE_MESSAGES.notGold });
    f.profiles.lock.mockResolvedValueOnce(profile());
    expect(await refusal(f.service.request(ask({ clientUserId: CLIPPER_ID })))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: HIRE_MESSAGES.self,
    });
    f.profiles.lock.mockResolvedValueOnce(profile({ isAvailable: 'false' }));
    expect(await refusal(f.service.request(ask()))).toEqual({ code: status.FAILED_PRECONDITION, message: HIRE_MESSAGES.unavailable });
    f.profiles.lock.mockResolvedValueOnce(undefined);
    expect(await refusal(f.service.request(ask()))).toEqual({ code: status.NOT_FOUND, message: CLIPPER_PROFILE_MESSAGES.notFound });
    expect(f.hires.insert).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('refuses a bad request before any lock: the rule’s words, a bad client id, a clipper id that is no uuid', async () => {
    const f = setup();
    expect(await refusal(f.service.request(ask({ clientName: 'B' })))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: HIRE_MESSAGES.clientNameShort,
    });
    expect(await refusal(f.service.request(ask({ clientUserId: 'me' })))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.invalidClientId,
    });
    expect(await refusal(f.service.request(ask({ clipperId: 'casey' })))).toEqual({
      code: status.NOT_FOUND,
      message: CLIPPER_PROFILE_MESSAGES.notFound,
    });
    expect(f.transactions.run).not.toHaveBeenCalled();
  });
});

describe('HiresService.respond', () => {
  const respond = (action: string, patch: Record<string, string | undefined> = {}) => ({
    id: HIRE_ID,
    clipperId: CLIPPER_ID.toUpperCase(),
    action,
    ...patch,
  });

  it.each([
    ['accept', 'pending', 'accepted'],
    ['decline', 'pending', 'declined'],
    ['complete', 'accepted', 'completed'],
  ] as const)('%s moves a %s request to %s and publishes hire.responded', async (action, from, to) => {
    const f = setup();
    f.hires.lock.mockResolvedValue(hire({ status: from }));
    f.hires.save.mockResolvedValue(undefined);
    f.profiles.incrementHires.mockResolvedValue(undefined);
    const answer = await f.service.respond(respond(action, { clipperNotes: '  On it  ' }), AT);

    const [, saved] = f.hires.save.mock.calls[0]!;
    expect(saved).toMatchObject({ status: to, clipperNotes: 'On it', updatedAt: AT });
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'hire.responded', { hire: toHireSnapshot(saved), clipperId: CLIPPER_ID, action: to });
    // Only a completed hire counts in the clipper's totalHires.
    expect(f.profiles.incrementHires.mock.calls).toEqual(action === 'complete' ? [[tx, CLIPPER_ID, AT]] : []);
    // …and so the profile's public snapshot changes (clipper-profile.changed).
    expect(f.profileEvents.changed.mock.calls).toEqual(action === 'complete' ? [[tx, CLIPPER_ID]] : []);
    expect(answer.status).toBe(to);
  });

  it('refuses another clipper, a second answer and completing what was not accepted, saving nothing', async () => {
    const f = setup();
    f.hires.lock.mockResolvedValueOnce(hire());
    expect(await refusal(f.service.respond(respond('accept', { clipperId: CLIENT_ID })))).toEqual({
      code: status.PERMISSION_DENIED,
      message: MESSAGES.notYourHire,
    });
    f.hires.lock.mockResolvedValueOnce(hire({ status: 'declined' }));
    expect(await refusal(f.service.respond(respond('accept')))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: MESSAGES.alreadyAnswered,
    });
    f.hires.lock.mockResolvedValueOnce(hire());
    expect(await refusal(f.service.respond(respond('complete')))).toEqual({
      code: status.FAILED_PRECONDITION,
      message: MESSAGES.onlyAcceptedCompletes,
    });
    f.hires.lock.mockResolvedValueOnce(undefined);
    expect(await refusal(f.service.respond(respond('accept')))).toEqual({ code: status.NOT_FOUND, message: MESSAGES.hireNotFound });
    expect(f.hires.save).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('refuses an unknown action, an id that is no uuid and notes that are too long before any lock', async () => {
    const f = setup();
    expect(await refusal(f.service.respond(respond('ignore')))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.unknownHireAction('ignore'),
    });
    expect(await refusal(f.service.respond(respond('accept', { id: 'h1' })))).toEqual({
      code: status.NOT_FOUND,
      message: MESSAGES.hireNotFound,
    });
    expect(await refusal(f.service.respond(respond('accept', { clipperNotes: 'n'.repeat(1001) })))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.notesTooLong,
    });
    expect(f.transactions.run).not.toHaveBeenCalled();
  });
});

describe('HiresService.list', () => {
  it('pages a clipper’s requests of one status, and refuses a bad clipper id or an unknown status', async () => {
    const f = setup();
    f.hires.listPage.mockResolvedValue([hire({ status: 'accepted' })]);
    f.hires.count.mockResolvedValue(1);
    const answer = await f.service.list({ clipperId: CLIPPER_ID, status: 'accepted', limit: 10 });
    expect(f.hires.listPage).toHaveBeenCalledWith(CLIPPER_ID, 'accepted', 11, undefined);
    expect(answer).toMatchObject({ hires: [{ id: HIRE_ID, status: 'accepted' }], total: 1 });
    expect(answer.nextCursor).toBeUndefined();

    expect(await refusal(f.service.list({ clipperId: 'casey' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.invalidClipperId,
    });
    expect(await refusal(f.service.list({ clipperId: CLIPPER_ID, status: 'open' }))).toEqual({
      code: status.INVALID_ARGUMENT,
      message: MESSAGES.unknownHireStatus('open'),
    });
  });
});

describe('HiresService.rate', () => {
  const token = newSecretToken();
  const completed = () => hire({ status: 'completed', completedAt: AT, ratingTokenHash: token.hash });
  const rating = (patch: Record<string, unknown> = {}) => ({
    id: HIRE_ID,
    token: token.token,
    rating: 5,
    review: '  Great clips.  ',
    ...patch,
  });

  it('stores the rating, recounts the clipper’s average and count under the profile lock, and publishes hire.rated and the profile', async () => {
    const f = setup();
    f.hires.lock.mockResolvedValue(completed());
    f.hires.saveRating.mockResolvedValue(undefined);
    f.profiles.lock.mockResolvedValue(profile());
    f.hires.ratingOf.mockResolvedValue({ averageRating: '4.50', totalReviews: 2 });
    f.profiles.setRating.mockResolvedValue(undefined);
    const answer = await f.service.rate(rating(), AT);

    const [, saved] = f.hires.saveRating.mock.calls[0]!;
    expect(saved).toMatchObject({ clientRating: 5, clientReview: 'Great clips.', ratedAt: AT });
    expect(f.profiles.lock).toHaveBeenCalledWith(tx, CLIPPER_ID);
    expect(f.hires.saveRating.mock.invocationCallOrder[0]!).toBeLessThan(f.hires.ratingOf.mock.invocationCallOrder[0]!);
    expect(f.profiles.lock.mock.invocationCallOrder[0]!).toBeLessThan(f.hires.ratingOf.mock.invocationCallOrder[0]!);
    expect(f.profiles.setRating).toHaveBeenCalledWith(tx, CLIPPER_ID, '4.50', 2, AT);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'hire.rated', {
      hireId: HIRE_ID,
      clipperId: CLIPPER_ID,
      rating: 5,
      review: 'Great clips.',
      averageRating: 4.5,
      totalReviews: 2,
      at: AT.toISOString(),
    });
    // The feed's clipperProfile carries the average: the profile's snapshot goes out after the new figures.
    expect(f.profileEvents.changed.mock.calls).toEqual([[tx, CLIPPER_ID]]);
    expect(f.profiles.setRating.mock.invocationCallOrder[0]!).toBeLessThan(f.profileEvents.changed.mock.invocationCallOrder[0]!);
    expect(answer).toMatchObject({ hire: { id: HIRE_ID, clientRating: 5 }, averageRating: '4.50', totalReviews: 2 });
  });

  it.each([
    ['a rating out of range', rating({ rating: 6 }), status.INVALID_ARGUMENT, HIRE_RATING_MESSAGES.ratingRange],
    ['a review too long', rating({ review: 'x'.repeat(1001) }), status.INVALID_ARGUMENT, HIRE_RATING_MESSAGES.reviewTooLong],
    ['no token', rating({ token: '' }), status.INVALID_ARGUMENT, HIRE_RATING_MESSAGES.tokenRequired],
    ['a malformed id', rating({ id: 'h1' }), status.NOT_FOUND, MESSAGES.hireNotFound],
  ])('refuses %s before any call', async (_case, request, code, message) => {
    const f = setup();
    expect(await refusal(f.service.rate(request as never))).toEqual({ code, message });
    expect(f.hires.lock).not.toHaveBeenCalled();
  });

  it.each([
    ['an unknown hire', undefined, rating(), status.NOT_FOUND, MESSAGES.hireNotFound],
    ['a wrong token', completed(), rating({ token: newSecretToken().token }), status.PERMISSION_DENIED, HIRE_RATING_MESSAGES.wrongToken],
    [
      'a second rating',
      { ...completed(), clientRating: 3, ratedAt: AT },
      rating(),
      status.FAILED_PRECONDITION,
      HIRE_RATING_MESSAGES.alreadyRated,
    ],
    [
      'a hire not completed',
      hire({ status: 'accepted', ratingTokenHash: token.hash }),
      rating(),
      status.FAILED_PRECONDITION,
      HIRE_RATING_MESSAGES.notCompleted,
    ],
  ])('refuses %s and writes nothing', async (_case, held, request, code, message) => {
    const f = setup();
    f.hires.lock.mockResolvedValue(held);
    expect(await refusal(f.service.rate(request))).toEqual({ code, message });
    expect(f.hires.saveRating).not.toHaveBeenCalled();
    expect(f.profiles.setRating).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });
});
