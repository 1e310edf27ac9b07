import { randomUUID } from 'node:crypto';
import type { campaignsV1 } from '@clipit/contracts';
import {
  checkHireRating,
  checkHireRequest,
  CLIPPER_PROFILE_MESSAGES,
  firstHireError,
  firstHireRatingError,
  HIRE_RATING_MESSAGES,
  isHireStatus,
} from '@clipit/field-rules';
import {
  decodeCursor,
  DomainError,
  failedPrecondition,
  forbidden,
  invalid,
  isUuid,
  keysetPage,
  newSecretToken,
  notFound,
  Outbox,
  pageSize,
  TransactionRunner,
} from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import {
  answer,
  hireRefusal,
  isHireAction,
  newHire,
  rate,
  respondedAction,
  serviceFor,
  toHireMessage,
  toHireSnapshot,
  type Refusal,
} from '../domain/hire.js';
import { CLIPPER_NOTES_MAX, MESSAGES } from '../domain/messages.js';
import { HireRepository } from '../repositories/hire.repository.js';
import { ProfileRepository } from '../repositories/profile.repository.js';
import { ClipperProfileEventsService } from './clipper-profile-events.service.js';

const PAGE_DEFAULT = 50;
const PAGE_MAX = 200;

const refused = (r: Refusal): DomainError =>
  r.kind === 'forbidden' ? forbidden(r.message) : r.kind === 'invalid' ? invalid(r.message) : failedPrecondition(r.message);

/** Hiring a gold clipper (spec 02 §2.7, ADR 0027): anyone asks, the clipper answers. */
@Injectable()
export class HiresService {
  constructor(
    private readonly hires: HireRepository,
    private readonly profiles: ProfileRepository,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
    private readonly profileEvents: ClipperProfileEventsService,
  ) {}

  /**
   * Stores a pending request and its hire.requested event, or refuses: the rule's words; NOT_FOUND for
   * someone without a clipper profile; the clipper below gold, oneself, or a clipper not taking work.
   */
  async request(request: campaignsV1.RequestHireRequest, now = new Date()): Promise<campaignsV1.HireRequest> {
    const checked = checkHireRequest(request);
    if (!checked.ok) throw invalid(firstHireError(checked.errors) ?? 'Invalid hire request');
    const clientUserId = request.clientUserId || null;
    if (clientUserId !== null && !isUuid(clientUserId)) throw invalid(MESSAGES.invalidClientId);
    if (!isUuid(request.clipperId)) throw notFound(CLIPPER_PROFILE_MESSAGES.notFound);
    const clipperId = request.clipperId.toLowerCase();
    const rating = newSecretToken();
    const hire = await this.transactions.run(async (tx) => {
      // Locked so an edit to availability or services cannot interleave with the checks.
      const clipper = await this.profiles.lock(tx, clipperId);
      if (!clipper) throw notFound(CLIPPER_PROFILE_MESSAGES.notFound);
      const refusal = hireRefusal(clipper, clientUserId?.toLowerCase() ?? null);
      if (refusal) throw refused(refusal);
      const services = await this.profiles.services(clipperId, tx);
      const stored = newHire(
        randomUUID(),
        clipperId,
        clientUserId?.toLowerCase() ?? null,
        serviceFor(checked.value.projectDescription, services),
        checked.value,
        now,
        rating.hash,
      );
      await this.hires.insert(tx, stored);
      await this.outbox.append(tx, 'hire.requested', { hire: toHireSnapshot(stored), clipperId });
      return stored;
    });
    // The token leaves the service only here, to the client who asked (ADR 0040).
    return { ...toHireMessage(hire), ratingToken: rating.token };
  }

  /** The requests a clipper received, newest first, keyset-paged, optionally of one status. */
  async list(request: campaignsV1.ListHiresRequest): Promise<campaignsV1.ListHiresResponse> {
    if (!isUuid(request.clipperId)) throw invalid(MESSAGES.invalidClipperId);
    const status = request.status || undefined;
    if (status !== undefined && !isHireStatus(status)) throw invalid(MESSAGES.unknownHireStatus(status));
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const before = request.cursor ? decodeCursor(request.cursor) : undefined;
    const [rows, total] = await Promise.all([
      this.hires.listPage(request.clipperId, status, size + 1, before),
      this.hires.count(request.clipperId, status),
    ]);
    const { page, nextCursor } = keysetPage(rows, size);
    return { hires: page.map(toHireMessage), ...(nextCursor ? { nextCursor } : {}), total };
  }

  /** The clipper's answer with its hire.responded event; completing one counts in their totalHires, in the same transaction. */
  async respond(request: campaignsV1.RespondToHireRequest, now = new Date()): Promise<campaignsV1.HireRequest> {
    const action = request.action;
    if (!isHireAction(action)) throw invalid(MESSAGES.unknownHireAction(action));
    if (!isUuid(request.id)) throw notFound(MESSAGES.hireNotFound);
    const notes = request.clipperNotes === undefined ? undefined : request.clipperNotes.trim();
    if (notes !== undefined && notes.length > CLIPPER_NOTES_MAX) throw invalid(MESSAGES.notesTooLong);
    const hire = await this.transactions.run(async (tx) => {
      const current = await this.hires.lock(tx, request.id);
      if (!current) throw notFound(MESSAGES.hireNotFound);
      const result = answer(current, (request.clipperId ?? '').toLowerCase(), action, notes, now);
      if ('refusal' in result) throw refused(result.refusal);
      await this.hires.save(tx, result.hire);
      if (action === 'complete') {
        await this.profiles.incrementHires(tx, result.hire.clipperId, now);
        await this.profileEvents.changed(tx, result.hire.clipperId);
      }
      await this.outbox.append(tx, 'hire.responded', {
        hire: toHireSnapshot(result.hire),
        clipperId: result.hire.clipperId,
        action: respondedAction(action),
      });
      return result.hire;
    });
    return toHireMessage(hire);
  }

  /**
   * The client's rating of a completed hire, once, with the token the request's answer carried (ADR 0040):
   * the hire's rating and review, the clipper's average and count over every rated hire, hire.rated and
   * clipper-profile.changed, in one transaction.
   */
  async rate(request: campaignsV1.RateHireRequest, now = new Date()): Promise<campaignsV1.RateHireResponse> {
    const checked = checkHireRating({ rating: request.rating, review: request.review ?? null });
    if (!checked.ok) throw invalid(firstHireRatingError(checked.errors) ?? HIRE_RATING_MESSAGES.ratingRange);
    if (!request.token) throw invalid(HIRE_RATING_MESSAGES.tokenRequired);
    if (!isUuid(request.id)) throw notFound(MESSAGES.hireNotFound);
    return this.transactions.run(async (tx) => {
      const current = await this.hires.lock(tx, request.id);
      if (!current) throw notFound(MESSAGES.hireNotFound);
      const result = rate(current, request.token, checked.value, now);
      if ('refusal' in result) throw refused(result.refusal);
      await this.hires.saveRating(tx, result.hire);
      // The profile's lock orders ratings of one clipper, so each average is counted over every committed one.
      await this.profiles.lock(tx, result.hire.clipperId);
      const figures = await this.hires.ratingOf(tx, result.hire.clipperId);
      await this.profiles.setRating(tx, result.hire.clipperId, figures.averageRating, figures.totalReviews, now);
      // The public cards' clipperProfile (feed) carries the average: the whole profile goes out again.
      await this.profileEvents.changed(tx, result.hire.clipperId);
      await this.outbox.append(tx, 'hire.rated', {
        hireId: result.hire.id,
        clipperId: result.hire.clipperId,
        rating: checked.value.rating,
        review: checked.value.review,
        averageRating: Number(figures.averageRating),
        totalReviews: figures.totalReviews,
        at: now.toISOString(),
      });
      return { hire: toHireMessage(result.hire), ...figures };
    });
  }
}
