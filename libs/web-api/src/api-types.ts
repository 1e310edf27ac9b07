// The gateway's request and answer shapes, under the names the web apps use. Every one is an alias of
// src/generated/gateway-api.ts (generated from the gateway's OpenAPI document by `npm run web-api-types`),
// never a hand-written copy: when the gateway changes a field, these change, and the web apps'
// type-check fails wherever they still read or send the old one.
import type { components, paths } from './generated/gateway-api.js';

type Schemas = components['schemas'];
type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The operation behind `method path`; never when the gateway has no such route. */
type Operation<P extends keyof paths, M extends Method> = Exclude<paths[P][M], undefined>;

type Json<Content> = Content extends { content: { 'application/json': infer Body } } ? Body : never;
type Success<Responses> = Responses extends { 200: infer A } ? A : Responses extends { 201: infer A } ? A : never;

/** The JSON body a route takes; never for a route without one. */
export type ApiRequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: infer Body } ? Json<Exclude<Body, undefined>> : never;

/** The JSON a route answers on success (200 or 201). */
export type ApiAnswer<P extends keyof paths, M extends Method> = Operation<P, M> extends { responses: infer R } ? Json<Success<R>> : never;

/** The signed-in user (GET /api/user/me, /api/auth/user, PATCH /api/user/profile, the auth answers). */
export type CurrentUser = Schemas['CurrentUser'];
export type SignupResponse = Schemas['SignupResponse'];
export type LoginResponse = Schemas['LoginResponse'];
export type ResetPasswordResponse = Schemas['ResetPasswordResponse'];
/** Password reset and e-mail confirmation by mailed link (ADR 0031). */
export type ConfirmPasswordResetResponse = Schemas['ConfirmPasswordResetResponse'];
export type VerifyEmailResponse = Schemas['VerifyEmailResponse'];
export type SendEmailVerificationResponse = Schemas['SendEmailVerificationResponse'];
export type LogoutResponse = Schemas['LogoutResponse'];
/** GET /api/auth/providers: which sign-in providers work here (sign in with X, ADR 0028). */
export type AuthProviders = Schemas['AuthProviders'];
/** A streamer's token a clip can be tagged with (GET /api/tokens). */
export type Token = Schemas['Token'];
/** GET /api/streamers */
export type Streamer = Schemas['Streamer'];
/** A submission as its owner sees it (POST /api/submissions, GET /api/submissions, the video routes). */
export type Submission = Schemas['Submission'];
export type VideoUploadUrl = Schemas['VideoUploadUrl'];

// The admin area (ADR 0020).
export type AdminToken = Schemas['AdminToken'];
export type AdminSubmission = Schemas['AdminSubmission'];
export type AdminSubmissionPage = Schemas['AdminSubmissionPage'];
export type PlaceholderStreamer = Schemas['PlaceholderStreamer'];
export type ClipperApplication = Schemas['ClipperApplication'];
export type ClipperApplicationPage = Schemas['ClipperApplicationPage'];
export type AuditEntry = Schemas['AuditEntry'];
export type AuditPage = Schemas['AuditPage'];
export type SystemMetric = Schemas['SystemMetric'];
export type SystemMetrics = Schemas['SystemMetrics'];
export type VerifyPasswordRequest = ApiRequestBody<'/api/admin/verify-password', 'post'>;
export type RejectSubmissionRequest = ApiRequestBody<'/api/admin/submissions/{id}/reject', 'post'>;
export type CreatePlaceholderStreamerRequest = ApiRequestBody<'/api/admin/placeholder-streamers', 'post'>;
export type SubmitApplicationRequest = ApiRequestBody<'/api/clipper-applications', 'post'>;
export type ApplicationReceived = Schemas['ApplicationReceived'];

export type SignupRequest = ApiRequestBody<'/api/auth/signup', 'post'>;
export type LoginRequest = ApiRequestBody<'/api/auth/login', 'post'>;
export type ResetPasswordRequest = ApiRequestBody<'/api/auth/reset-password', 'post'>;
export type ConfirmPasswordResetRequest = ApiRequestBody<'/api/auth/reset-password/confirm', 'post'>;
export type VerifyEmailRequest = ApiRequestBody<'/api/auth/verify-email', 'post'>;
export type UpdateProfileRequest = ApiRequestBody<'/api/user/profile', 'patch'>;
export type CreateSubmissionRequest = ApiRequestBody<'/api/submissions', 'post'>;
export type VideoUploadUrlRequest = ApiRequestBody<'/api/submissions/video-upload-url', 'post'>;
export type FinalizeVideoUploadRequest = ApiRequestBody<'/api/submissions/finalize-video-upload', 'post'>;

// CPM campaigns, hiring a clipper and streamers' tokens (spec 02 §2.5, §2.7, §3; ADR 0027).
/** A streamer's own token, active or not (GET /api/tokens/mine, POST /api/tokens, PATCH /api/tokens/{id}). */
export type MyToken = Schemas['MyToken'];
export type CreateTokenRequest = ApiRequestBody<'/api/tokens', 'post'>;
export type UpdateTokenRequest = ApiRequestBody<'/api/tokens/{id}', 'patch'>;
/** A streamer's CPM campaign (GET /api/cpm-campaigns). */
export type CpmCampaign = Schemas['CpmCampaign'];
export type CpmCampaignsPage = Schemas['CpmCampaignsPage'];
export type CampaignSubmitted = Schemas['CampaignSubmitted'];
export type SubmitCampaignRequest = ApiRequestBody<'/api/cpm-campaigns', 'post'>;
/** A request to hire a clipper, as the clipper sees it (GET /api/hires, POST /api/hires/{id}/…). */
export type HireRequest = Schemas['HireRequest'];
export type HireRequestsPage = Schemas['HireRequestsPage'];
export type RespondToHireRequest = ApiRequestBody<'/api/hires/{hireId}/accept', 'post'>;
export type SendHireRequest = ApiRequestBody<'/api/clippers/{clipperId}/hire', 'post'>;
export type HireRequestSent = Schemas['HireRequestSent'];
/** The rating page's request and answer (POST /api/clipper-hires/{hireId}/rating, ADR 0040). */
export type RateHireRequest = ApiRequestBody<'/api/clipper-hires/{hireId}/rating', 'post'>;
export type HireRated = Schemas['HireRated'];
/** A tier with its requirements and rate per approved clip (GET /api/tiers; rewards owns the table, ADR 0025). */
export type Tier = Schemas['Tiers'][number];
/** A clipper's hiring profile (GET /api/clippers/{id}/profile, PATCH /api/clipper-profile). */
export type HiringProfile = Schemas['HiringProfile'];
export type HiringService = Schemas['HiringService'];
export type UpdateHiringProfileRequest = ApiRequestBody<'/api/clipper-profile', 'patch'>;
