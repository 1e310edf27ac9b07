import { randomInt } from 'node:crypto';

/** No 0/O, 1/I/L: codes are read aloud and typed from screenshots. */
export const CLAIM_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CLAIM_CODE_PATTERN = /^CLAIM-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/;

/** `CLAIM-` and 8 characters drawn uniformly (crypto randomInt has no modulo bias). */
export function generateClaimCode(): string {
  let code = '';
  for (let i = 0; i < 8; i += 1) code += CLAIM_CODE_ALPHABET[randomInt(CLAIM_CODE_ALPHABET.length)];
  return `CLAIM-${code}`;
}
