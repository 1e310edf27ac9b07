import { POST_MESSAGES, VIDEO_MESSAGES } from '@clipit/field-rules';
import type { EndpointDef } from '../http/endpoint.js';
import { limitExample } from '../http/limits.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN } from '../http/messages.js';
import {
  createSubmissionBody,
  finalizeVideoUploadBody,
  metricsHistorySchema,
  submissionListSchema,
  submissionSchema,
  uploadVideoFields,
  videoUploadUrlBody,
  videoUploadUrlSchema,
} from './submissions.schemas.js';
import { VIDEO_FIELD } from './video-upload.js';

const common = [
  { status: 401, description: `'${NOT_SIGNED_IN}'` },
  { status: 403, description: CROSS_SITE_REFUSED },
  { status: 503, description: 'Service temporarily unavailable' },
] as const;

const videoRefusals = [
  { status: 400, description: `'${VIDEO_MESSAGES.invalidType}'` },
  { status: 413, description: `'${VIDEO_MESSAGES.tooLarge}'` },
  { status: 429, description: "'Daily limit reached: you can submit 3 videos per day. Try again tomorrow.'" },
] as const;

export const submissionsRoutes = {
  create: {
    method: 'POST',
    path: '/api/submissions',
    limit: 'submissions',
    tag: 'submissions',
    summary: 'Submit an X/Twitter post (the add-clip dialog or the submission form); answers the submission, id included',
    session: true,
    status: 201,
    body: createSubmissionBody,
    response: submissionSchema,
    errors: [
      {
        status: 400,
        description: `'${POST_MESSAGES.missingInformation}', '${POST_MESSAGES.invalidUrl}', 'Additional info must be 150 characters or less', …`,
      },
      { status: 404, description: "'Streamer not found', 'Streamer token not found'" },
      { status: 409, description: "'This post has already been submitted'" },
      {
        status: 429,
        description: `'${limitExample('submissions')}', or the same for the client's address: too many submissions today (SUBMISSION_LIMIT_PER_USER, SUBMISSION_LIMIT_PER_IP per UTC day); Retry-After gives the seconds until 00:00 UTC`,
      },
      ...common,
    ],
  },
  listMine: {
    method: 'GET',
    path: '/api/submissions',
    tag: 'submissions',
    summary: "The signed-in user's own submissions, newest first",
    session: true,
    response: submissionListSchema,
    errors: [{ status: 401, description: `'${NOT_SIGNED_IN}'` }],
  },
  stream: {
    method: 'GET',
    path: '/api/submissions/stream',
    tag: 'submissions',
    summary: "Server-sent events: the signed-in user's own submissions changing, as it happens",
    session: true,
    successContentType: 'text/event-stream',
    successDescription:
      '`submission` (data: `{"id", "change", "status", "videoState"}`, `change` one of submission.created, submission.video-changed, ' +
      'submission.approved, submission.rejected, submission.feed-changed) once the change is committed: GET /api/submissions then shows it. ' +
      'No ids and no replay: a page that (re)connects reads GET /api/submissions again. A comment line every LIVE_HEARTBEAT_SECONDS; ' +
      'the server ends the stream after LIVE_STREAM_MAX_SECONDS and `retry` tells the browser when to come back.',
    errors: [
      { status: 401, description: `'${NOT_SIGNED_IN}'` },
      { status: 429, description: "'Too many open submission streams for this account; close a tab and try again'" },
    ],
  },
  videoUploadUrl: {
    method: 'POST',
    path: '/api/submissions/video-upload-url',
    tag: 'submissions',
    summary: 'An upload URL for the video of one of your submissions: PUT the raw file there with its content type, then finalize',
    session: true,
    body: videoUploadUrlBody,
    response: videoUploadUrlSchema,
    errors: [
      { status: 403, description: "'You can only add a video to your own submission'" },
      { status: 404, description: "'Submission not found'" },
      { status: 409, description: "'This submission already has a video', …" },
      { status: 429, description: "'Daily limit reached: you can submit 3 videos per day. Try again tomorrow.'" },
      ...common,
    ],
  },
  putUpload: {
    method: 'PUT',
    path: '/api/submissions/uploads/:videoId',
    tag: 'submissions',
    summary:
      'The upload URL on filesystem storage (on S3 the upload URL is a presigned PUT to the bucket): the raw video, with its content type, at most 150 MB',
    params: { videoId: 'the video id from POST /api/submissions/video-upload-url (the URL also carries its token)' },
    // Its token authenticates it, not the cookie: uploaders without an Origin (scripts, apps) keep working.
    cookieless: true,
    successDescription: 'Stored; finalize next',
    errors: [
      { status: 400, description: `'${VIDEO_MESSAGES.invalidType}'` },
      { status: 403, description: CROSS_SITE_REFUSED },
      { status: 404, description: "'Video upload not found or expired; request a new upload URL'" },
      { status: 413, description: `'${VIDEO_MESSAGES.tooLarge}'` },
    ],
  },
  finalize: {
    method: 'POST',
    path: '/api/submissions/finalize-video-upload',
    tag: 'submissions',
    summary: 'The video is uploaded: check it and start processing (the submission answers with isProcessing)',
    session: true,
    body: finalizeVideoUploadBody,
    response: submissionSchema,
    errors: [
      ...videoRefusals,
      { status: 404, description: "'Video upload not found or expired; request a new upload URL'" },
      { status: 409, description: "'This video upload was already finalized'" },
      ...common,
    ],
  },
  uploadVideo: {
    method: 'POST',
    path: '/api/submissions/upload-video',
    tag: 'submissions',
    summary: 'Attach a video to one of your submissions in one request (multipart: video, submissionId); processing starts at once',
    session: true,
    body: uploadVideoFields,
    multipartFile: { field: VIDEO_FIELD, description: 'MP4, WebM, MOV or AVI, at most 150 MB and 40 s', mediaType: 'video/*' },
    response: submissionSchema,
    errors: [
      ...videoRefusals,
      { status: 403, description: "'You can only add a video to your own submission'" },
      { status: 404, description: "'Submission not found'" },
      ...common,
    ],
  },
  metricsHistory: {
    method: 'GET',
    path: '/api/submissions/:id/metrics-history',
    tag: 'submissions',
    summary:
      "One of your submissions' post metrics as X gives them, its verification code and state, and the views chart: the latest reads (at most 500), oldest first (ADR 0029). Admins may read any submission's.",
    params: { id: 'The submission id (uuid)' },
    session: true,
    response: metricsHistorySchema,
    errors: [
      { status: 400, description: "'Invalid submission id'" },
      { status: 401, description: `'${NOT_SIGNED_IN}'` },
      { status: 404, description: "'Submission not found': unknown, or not yours (its existence is not revealed)" },
      { status: 503, description: 'Service temporarily unavailable' },
    ],
  },
} satisfies Record<string, EndpointDef>;
