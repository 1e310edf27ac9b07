import { status } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@clipit/service-kit';
import { messages } from './messages.js';
import { checkSubmission, type SubmissionInput } from './submission-input.js';

const URL = 'https://x.com/clipper/status/1790000000000000001';
const WALLET = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const TOKEN = '6f1c2a9e-3b7d-4c1e-9a2b-1c3d5e7f9a0b';

function refusal(input: SubmissionInput): DomainError {
  try {
    checkSubmission(input);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('checkSubmission', () => {
  it('takes the add-clip dialog payload and derives the post from the link', () => {
    expect(
      checkSubmission({
        name: ' My clip ',
        url: URL,
        externalId: '1790000000000000001',
        authorHandle: 'clipper',
        walletAddress: 'pending',
        tokenId: TOKEN,
      }),
    ).toEqual({
      name: 'My clip',
      url: URL,
      platform: 'twitter',
      externalId: '1790000000000000001',
      authorHandle: 'clipper',
      walletAddress: 'pending',
      additionalInfo: null,
      tokenId: TOKEN,
      streamerId: null,
    });
  });

  it('takes the submission form payload (empty wallet, notes, streamer)', () => {
    const checked = checkSubmission({ name: 'c', url: URL, walletAddress: '', additionalInfo: ' notes ', streamerId: TOKEN });
    expect(checked).toMatchObject({ walletAddress: 'pending', additionalInfo: 'notes', streamerId: TOKEN, tokenId: null });
  });

  it("stores the submitter's own wallet over the placeholder the client sends", () => {
    expect(checkSubmission({ name: 'c', url: URL, walletAddress: 'pending', userWalletAddress: WALLET }).walletAddress).toBe(WALLET);
    expect(checkSubmission({ name: 'c', url: URL, walletAddress: WALLET }).walletAddress).toBe(WALLET);
  });

  it.each([
    [{ name: '', url: URL }, messages.missingInformation],
    [{ name: 'c', url: '  ' }, messages.missingInformation],
    [{ name: 'c', url: 'https://x.com/clipper' }, messages.invalidTwitterUrl],
    [{ name: 'c', url: 'https://youtube.com/watch?v=1' }, messages.invalidTwitterUrl],
    [{ name: 'x'.repeat(201), url: URL }, messages.nameTooLong],
    [{ name: 'c', url: URL, additionalInfo: 'a'.repeat(151) }, messages.additionalInfoTooLong],
    [{ name: 'c', url: URL, externalId: '1' }, messages.externalIdMismatch],
    [{ name: 'c', url: URL, authorHandle: 'someoneelse' }, messages.authorHandleMismatch],
    [{ name: 'c', url: URL, walletAddress: 'not-a-wallet' }, messages.walletInvalid],
    [{ name: 'c', url: URL, tokenId: TOKEN, streamerId: TOKEN }, messages.tokenAndStreamer],
    [{ name: 'c', url: URL, tokenId: 'abc' }, messages.tokenNotFound],
    [{ name: 'c', url: URL, streamerId: '12' }, messages.streamerNotFound],
  ] as Array<[SubmissionInput, string]>)('refuses %j with a 400 saying why', (input, message) => {
    const err = refusal(input);
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.message).toBe(message);
  });

  it('accepts additional info of exactly 150 characters and an @-prefixed handle', () => {
    expect(checkSubmission({ name: 'c', url: URL, additionalInfo: 'a'.repeat(150), authorHandle: '@Clipper' }).additionalInfo).toHaveLength(
      150,
    );
  });
});
