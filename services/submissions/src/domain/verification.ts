import { randomInt } from 'node:crypto';

/** Letters and digits a person cannot confuse when copying a code into a post: no 0/O, 1/I/L. */
export const VERIFICATION_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const VERIFICATION_CODE_PREFIX = 'CLIP-';
const CODE_LENGTH = 6;

/** A new submission's verification code, e.g. `CLIP-7KQ2MX`: random, shown to its owner to put in the post. */
export function newVerificationCode(random: (max: number) => number = randomInt): string {
  let code = VERIFICATION_CODE_PREFIX;
  for (let i = 0; i < CODE_LENGTH; i += 1) code += VERIFICATION_CODE_ALPHABET[random(VERIFICATION_CODE_ALPHABET.length)];
  return code;
}

/** What X told about the post that verification looks at. */
export interface PostAuthorship {
  text: string;
  authorId: string | null;
}

/**
 * Whether a post proves it is the submitter's (ADR 0029): its text holds the submission's code as a
 * word of its own, in any case (`clip-7kq2mx` counts, `CLIP-7KQ2MXZ` does not), or its author is the
 * X account the submitter linked.
 */
export function provesOwnership(post: PostAuthorship, code: string, linkedXUserId: string | null): boolean {
  if (linkedXUserId !== null && post.authorId !== null && post.authorId === linkedXUserId) return true;
  return containsCode(post.text, code);
}

export function containsCode(text: string, code: string): boolean {
  const escaped = code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, 'i').test(text);
}
