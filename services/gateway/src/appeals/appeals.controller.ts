import type { adminV1 } from '@clipit/contracts';
import { Controller, Inject, Param, Query, UseGuards } from '@nestjs/common';
import { AdminBearerGuard, AdminCaller } from '../admin/admin-bearer.guard.js';
import { PAGE_MAX } from '../admin/admin-area.service.js';
import { CurrentSession, SessionGuard, type SessionPrincipal } from '../auth/session.strategy.js';
import { ADMIN_CLIENT, SUBMISSIONS_CLIENT, type AdminClient, type SubmissionsClient } from '../clients.js';
import { Endpoint, ValidBody } from '../http/endpoint.js';
import { pageQuery } from '../http/paging.js';
import { uuidParam } from '../http/path-params.js';
import { appealRoutes } from './appeals.routes.js';
import {
  toAdminAppealJson,
  toAppealJson,
  type AdminAppealJson,
  type AdminAppealPageJson,
  type AppealJson,
  type AppealPageJson,
  type DecideAppealBody,
  type FileAppealBody,
} from './appeals.schemas.js';

/**
 * Appeals (ADR 0051): the clipper's go to submissions, which owns them; the admin's to the admin
 * service, which checks the token, carries the decision to submissions and audits it.
 */
@Controller()
export class AppealsController {
  constructor(
    @Inject(SUBMISSIONS_CLIENT) private readonly submissions: SubmissionsClient,
    @Inject(ADMIN_CLIENT) private readonly admin: AdminClient,
  ) {}

  @Endpoint(appealRoutes.file)
  @UseGuards(SessionGuard)
  async file(@CurrentSession() session: SessionPrincipal, @Param('id') id: string, @ValidBody() body: FileAppealBody): Promise<AppealJson> {
    const submissionId = uuidParam(id, 'Invalid submission id');
    return toAppealJson(await this.submissions.fileAppeal({ submissionId, userId: session.user.id, text: body.text }));
  }

  @Endpoint(appealRoutes.listMine)
  @UseGuards(SessionGuard)
  async listMine(@CurrentSession() session: SessionPrincipal, @Query() query: Record<string, unknown>): Promise<AppealPageJson> {
    const page = await this.submissions.listMyAppeals({ userId: session.user.id, ...pageQuery(query, PAGE_MAX) });
    return { appeals: (page.appeals ?? []).map(toAppealJson), nextCursor: page.nextCursor ?? null };
  }

  @Endpoint(appealRoutes.listForAdmin)
  @UseGuards(AdminBearerGuard)
  async listForAdmin(@AdminCaller() caller: adminV1.AdminCaller, @Query() query: Record<string, unknown>): Promise<AdminAppealPageJson> {
    const page = await this.admin.listAppeals({ caller, ...pageQuery(query, PAGE_MAX) });
    return { appeals: (page.appeals ?? []).map(toAdminAppealJson), nextCursor: page.nextCursor ?? null };
  }

  @Endpoint(appealRoutes.decide)
  @UseGuards(AdminBearerGuard)
  async decide(
    @AdminCaller() caller: adminV1.AdminCaller,
    @Param('id') id: string,
    @ValidBody() body: DecideAppealBody,
  ): Promise<AdminAppealJson> {
    const appealId = uuidParam(id, 'Invalid appeal id');
    return toAdminAppealJson(await this.admin.decideAppeal({ caller, appealId, outcome: body.outcome, reason: body.reason }));
  }
}
