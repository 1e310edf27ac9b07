import { POST_MESSAGES, REJECT_REASON_MESSAGES, VIDEO_MESSAGES, WALLET_MESSAGES } from '@clipit/field-rules';

/**
 * Every text submissions answers a person with. The gateway passes them on as they are; wording the
 * product specification fixes (spec 01 §5, §8) is copied from it exactly, as "Title: description"
 * where the interface shows a toast with both. The texts the web apps show too are @clipit/field-rules'.
 */
export const messages = {
  missingInformation: POST_MESSAGES.missingInformation,
  invalidTwitterUrl: POST_MESSAGES.invalidUrl,
  nameTooLong: 'Clip title must be at most 200 characters',
  urlTooLong: 'Post URL must be at most 500 characters',
  additionalInfoTooLong: 'Additional info must be 150 characters or less',
  externalIdMismatch: 'externalId does not match the post URL',
  authorHandleMismatch: 'authorHandle does not match the post URL',
  walletInvalid: WALLET_MESSAGES.invalid,
  tokenAndStreamer: 'Tag either a streamer or a token, not both',
  tokenNotFound: 'Streamer token not found',
  streamerNotFound: 'Streamer not found',
  identityUnavailable: 'Streamer tags cannot be checked right now; please try again in a minute',
  duplicatePost: 'This post has already been submitted',
  submissionNotFound: 'Submission not found',
  notRejected: (status: string) => `Only a rejected submission can be approved on appeal (this one is ${status})`,
  notYourSubmission: 'You can only add a video to your own submission',
  submissionRejected: 'This submission was rejected; a video can no longer be added',
  alreadyHasVideo: 'This submission already has a video',
  videoInProgress: 'A video for this submission is already being processed',
  dailyLimit: (limit: number) => `Daily limit reached: you can submit ${limit} videos per day. Try again tomorrow.`,
  uploadNotFound: 'Video upload not found or expired; request a new upload URL',
  uploadNotReceived: 'No video was received for this upload; upload the file before finalizing',
  uploadWrongSubmission: 'This video upload belongs to another submission',
  uploadNotPending: 'This video upload was already finalized',
  queueUnavailable: 'Video processing is unavailable right now; please try again in a minute',
  invalidFileType: VIDEO_MESSAGES.invalidType,
  fileTooLarge: VIDEO_MESSAGES.tooLarge,
  invalidVideo: VIDEO_MESSAGES.invalid,
  notPending: (action: string, status: string) => `Only a pending submission can be ${action} (this one is ${status})`,
  notApprovedForFeed: (status: string) => `Only an approved submission can be in the feed (this one is ${status})`,
  alreadyInFeed: 'This submission is already in the feed',
  notInFeed: 'This submission is not in the feed',
  reasonTooLong: REJECT_REASON_MESSAGES.tooLong,
  invalidStreamerId: 'Invalid streamer id',
  tooManySubmissionIds: (max: number) => `At most ${max} submissions at once`,
} as const;
