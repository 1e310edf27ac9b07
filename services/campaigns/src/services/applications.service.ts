import { randomUUID } from 'node:crypto';
import type { campaignsV1 } from '@clipit/contracts';
import { CLIPPER_APPLICATION_MESSAGES, checkClipperApplication, firstApplicationError } from '@clipit/field-rules';
import { conflict, decodeCursor, invalid, keysetPage, Outbox, pageSize, uniqueViolation, TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import type { ClipperApplicationEntity } from '../entities/clipper-application.entity.js';
import { toApplicationMessage, toApplicationSnapshot } from '../domain/application.mapper.js';
import { ApplicationRepository } from '../repositories/application.repository.js';

const PAGE_DEFAULT = 50;
const PAGE_MAX = 200;
const PENDING_EMAIL_INDEX = 'clipper_applications_pending_email_idx';

/** Clipper job applications (spec 02 §3, §5): anyone applies; admins read them. */
@Injectable()
export class ApplicationsService {
  constructor(
    private readonly repo: ApplicationRepository,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * Stores the application and its application.submitted event in one transaction, or neither: a
   * refused rule is INVALID_ARGUMENT with its message, a second pending application for the same email
   * ALREADY_EXISTS (the unique index decides, so two at once cannot both pass).
   */
  async submit(request: campaignsV1.SubmitApplicationRequest, now = new Date()): Promise<campaignsV1.ClipperApplication> {
    const checked = checkClipperApplication(request);
    if (!checked.ok) throw invalid(firstApplicationError(checked.errors) ?? 'Invalid application');
    const application: ClipperApplicationEntity = {
      id: randomUUID(),
      ...checked.value,
      status: 'pending',
      notes: null,
      reviewedBy: null,
      reviewedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.transactions.run(async (tx) => {
        await this.repo.insert(tx, application);
        await this.outbox.append(tx, 'application.submitted', { application: toApplicationSnapshot(application) });
      });
    } catch (err) {
      if (uniqueViolation(err) === PENDING_EMAIL_INDEX) throw conflict(CLIPPER_APPLICATION_MESSAGES.alreadyPending);
      throw err;
    }
    return toApplicationMessage(application);
  }

  /** Newest first, keyset-paged, with the total for the tab's count. */
  async list(request: campaignsV1.ListApplicationsRequest): Promise<campaignsV1.ListApplicationsResponse> {
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const before = request.cursor ? decodeCursor(request.cursor) : undefined;
    const [rows, total] = await Promise.all([this.repo.listPage(size + 1, before), this.repo.count()]);
    const { page, nextCursor } = keysetPage(rows, size);
    return { applications: page.map(toApplicationMessage), ...(nextCursor ? { nextCursor } : {}), total };
  }
}
