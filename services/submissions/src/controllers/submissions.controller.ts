import { submissionsV1 } from '@clipit/contracts';
import { GrpcService } from '@clipit/service-kit';
import { AppealsService } from '../services/appeals.service.js';
import { MetricsHistoryService } from '../services/metrics-history.service.js';
import { ModerationService } from '../services/moderation.service.js';
import { SubmissionsService } from '../services/submissions.service.js';
import { VideoUploadService } from '../services/video-upload.service.js';

/** submissions.v1.SubmissionsService: one application service call per method; the rules live in the services. */
@GrpcService()
@submissionsV1.SubmissionsServiceControllerMethods()
export class SubmissionsController implements submissionsV1.SubmissionsServiceController {
  constructor(
    private readonly submissions: SubmissionsService,
    private readonly uploads: VideoUploadService,
    private readonly moderation: ModerationService,
    private readonly metricsHistory: MetricsHistoryService,
    private readonly appeals: AppealsService,
  ) {}

  createSubmission(request: submissionsV1.CreateSubmissionRequest): Promise<submissionsV1.Submission> {
    return this.submissions.create(request);
  }

  listMySubmissions(request: submissionsV1.ListMySubmissionsRequest): Promise<submissionsV1.ListSubmissionsResponse> {
    return this.submissions.listMine(request);
  }

  getSubmission(request: submissionsV1.GetSubmissionRequest): Promise<submissionsV1.Submission> {
    return this.submissions.get(request.id);
  }

  createVideoUpload(request: submissionsV1.CreateVideoUploadRequest): Promise<submissionsV1.VideoUpload> {
    return this.uploads.createVideoUpload(request);
  }

  authorizeVideoUpload(request: submissionsV1.AuthorizeVideoUploadRequest): Promise<submissionsV1.AuthorizedUpload> {
    return this.uploads.authorizeVideoUpload(request);
  }

  finalizeVideoUpload(request: submissionsV1.FinalizeVideoUploadRequest): Promise<submissionsV1.Submission> {
    return this.uploads.finalizeVideoUpload(request);
  }

  abortVideoUpload(request: submissionsV1.AbortVideoUploadRequest): Promise<submissionsV1.AbortVideoUploadResponse> {
    return this.uploads.abortVideoUpload(request);
  }

  approve(request: submissionsV1.ApproveRequest): Promise<submissionsV1.Submission> {
    return this.moderation.moderate(request.submissionId, 'approve');
  }

  approveAndAddToFeed(request: submissionsV1.ApproveAndAddToFeedRequest): Promise<submissionsV1.Submission> {
    return this.moderation.moderate(request.submissionId, 'approve-and-add-to-feed');
  }

  reject(request: submissionsV1.RejectRequest): Promise<submissionsV1.Submission> {
    return this.moderation.moderate(request.submissionId, 'reject', request.reason);
  }

  addToFeed(request: submissionsV1.AddToFeedRequest): Promise<submissionsV1.Submission> {
    return this.moderation.moderate(request.submissionId, 'add-to-feed');
  }

  removeFromFeed(request: submissionsV1.RemoveFromFeedRequest): Promise<submissionsV1.Submission> {
    return this.moderation.moderate(request.submissionId, 'remove-from-feed');
  }

  listSubmissions(request: submissionsV1.ListSubmissionsRequest): Promise<submissionsV1.ListSubmissionsResponse> {
    return this.submissions.listAll(request);
  }

  getMetricsHistory(request: submissionsV1.GetMetricsHistoryRequest): Promise<submissionsV1.GetMetricsHistoryResponse> {
    return this.metricsHistory.get(request);
  }

  getTaggedViewHistories(request: submissionsV1.GetTaggedViewHistoriesRequest): Promise<submissionsV1.TaggedViewHistories> {
    return this.metricsHistory.tagged(request);
  }

  fileAppeal(request: submissionsV1.FileAppealRequest): Promise<submissionsV1.Appeal> {
    return this.appeals.file(request);
  }

  listMyAppeals(request: submissionsV1.ListMyAppealsRequest): Promise<submissionsV1.AppealPage> {
    return this.appeals.listMine(request);
  }

  listAppeals(request: submissionsV1.ListAppealsRequest): Promise<submissionsV1.AppealPage> {
    return this.appeals.listAll(request);
  }

  decideAppeal(request: submissionsV1.DecideAppealRequest): Promise<submissionsV1.Appeal> {
    return this.appeals.decide(request);
  }
}
