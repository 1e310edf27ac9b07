import type { adminV1 } from '@clipit/contracts';
import { currentCorrelationId, decodeCursor, keysetPage, LOGGER, pageSize } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AuditEntryEntity, AuditResult } from '../entities/audit-entry.entity.js';
import { AuditRepository } from '../repositories/audit.repository.js';

export interface AuditRecord {
  action: string;
  target?: string | null;
  result: AuditResult;
  detail?: string | null;
  /** The admin token's id. */
  actor?: string | null;
  clientIp?: string | null;
}

const PAGE_DEFAULT = 50;
const PAGE_MAX = 200;

/** The audit log: every password attempt and admin command, with the request's correlation id. */
@Injectable()
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /**
   * Appends one entry. The command it describes has already happened at its owner, so a failure to
   * write here must not turn that success into an error: it is logged in full instead (the logs are
   * the second copy), and the caller gets its answer.
   */
  async record(record: AuditRecord, now = new Date()): Promise<void> {
    const entry: AuditEntryEntity = {
      id: randomUUID(),
      action: record.action,
      target: record.target ?? null,
      result: record.result,
      detail: record.detail ?? null,
      actor: record.actor ?? null,
      clientIp: record.clientIp || null,
      correlationId: currentCorrelationId() ?? null,
      createdAt: now,
    };
    try {
      await this.repo.insert(entry);
    } catch (err) {
      this.log.error({ err, audit: entry }, 'could not write an audit entry; it is kept in this log line');
    }
  }

  async list(request: { limit?: number | undefined; cursor?: string | undefined }): Promise<adminV1.AuditPage> {
    const size = pageSize(request.limit, PAGE_DEFAULT, PAGE_MAX);
    const rows = await this.repo.listPage(size + 1, request.cursor ? decodeCursor(request.cursor) : undefined);
    const { page, nextCursor } = keysetPage(rows, size);
    return {
      entries: page.map((e) => ({
        id: e.id,
        action: e.action,
        target: e.target ?? undefined,
        result: e.result,
        detail: e.detail ?? undefined,
        actor: e.actor ?? undefined,
        clientIp: e.clientIp ?? undefined,
        correlationId: e.correlationId ?? undefined,
        createdAt: e.createdAt.toISOString(),
      })),
      ...(nextCursor ? { nextCursor } : {}),
    };
  }
}
