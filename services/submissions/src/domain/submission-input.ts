import { isSolanaWallet, normalizeHandle, parsePostUrl } from '@clipit/field-rules';
import { invalid, isUuid } from '@clipit/service-kit';
import { messages } from './messages.js';
import { platformOf, type Platform } from './post-url.js';

export const NAME_MAX = 200;
export const URL_MAX = 500;
export const ADDITIONAL_INFO_MAX = 150;

/** What a client sends (spec 01 §3): the add-clip dialog's shape or the submission form's. */
export interface SubmissionInput {
  name: string;
  url: string;
  externalId?: string | undefined;
  authorHandle?: string | undefined;
  walletAddress?: string | undefined;
  additionalInfo?: string | undefined;
  tokenId?: string | undefined;
  streamerId?: string | undefined;
  /** The submitter's wallet on their profile, when they have one. */
  userWalletAddress?: string | undefined;
}

export interface CheckedSubmission {
  name: string;
  url: string;
  platform: Platform;
  externalId: string;
  authorHandle: string;
  walletAddress: string;
  additionalInfo: string | null;
  tokenId: string | null;
  streamerId: string | null;
}

const blankToNull = (value: string | undefined): string | null => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/**
 * Every rule of a new submission that needs no database: required fields, the post link (from which
 * externalId and authorHandle are derived; a client's own copy must agree), lengths, the wallet. The
 * wallet stored is the submitter's own when their profile has one (the dialog sends the literal
 * `pending`, the form an empty string); otherwise a valid wallet the client sent, or `pending`.
 */
export function checkSubmission(input: SubmissionInput): CheckedSubmission {
  const name = input.name.trim();
  const url = input.url.trim();
  if (name === '' || url === '') throw invalid(messages.missingInformation);
  if (name.length > NAME_MAX) throw invalid(messages.nameTooLong);
  if (url.length > URL_MAX) throw invalid(messages.urlTooLong);
  const post = parsePostUrl(url);
  if (!post) throw invalid(messages.invalidTwitterUrl);
  const externalId = blankToNull(input.externalId);
  if (externalId !== null && externalId !== post.externalId) throw invalid(messages.externalIdMismatch);
  const authorHandle = blankToNull(input.authorHandle);
  if (authorHandle !== null && normalizeHandle(authorHandle).toLowerCase() !== post.authorHandle.toLowerCase()) {
    throw invalid(messages.authorHandleMismatch);
  }
  const additionalInfo = blankToNull(input.additionalInfo);
  if (additionalInfo !== null && additionalInfo.length > ADDITIONAL_INFO_MAX) throw invalid(messages.additionalInfoTooLong);

  const sentWallet = blankToNull(input.walletAddress);
  if (sentWallet !== null && sentWallet !== 'pending' && !isSolanaWallet(sentWallet)) throw invalid(messages.walletInvalid);
  const walletAddress = blankToNull(input.userWalletAddress) ?? (sentWallet !== null && sentWallet !== 'pending' ? sentWallet : 'pending');

  const tokenId = blankToNull(input.tokenId);
  const streamerId = blankToNull(input.streamerId);
  if (tokenId !== null && streamerId !== null) throw invalid(messages.tokenAndStreamer);
  if (tokenId !== null && !isUuid(tokenId)) throw invalid(messages.tokenNotFound);
  if (streamerId !== null && !isUuid(streamerId)) throw invalid(messages.streamerNotFound);

  return {
    name,
    url,
    platform: platformOf(url),
    externalId: post.externalId,
    authorHandle: post.authorHandle,
    walletAddress,
    additionalInfo,
    tokenId,
    streamerId,
  };
}
