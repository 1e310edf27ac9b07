import { describe, expect, it } from '@jest/globals';
import { CLAIM_CODE_ALPHABET, CLAIM_CODE_PATTERN, generateClaimCode } from './claim-code.js';

describe('claim codes', () => {
  it('are CLAIM- and 8 characters of the unambiguous alphabet', () => {
    for (let i = 0; i < 200; i += 1) {
      const code = generateClaimCode();
      expect(code).toMatch(CLAIM_CODE_PATTERN);
      expect(code).toHaveLength(14);
    }
  });

  it('never use characters that read alike', () => {
    for (const c of '01OIL') expect(CLAIM_CODE_ALPHABET).not.toContain(c);
    const seen = new Set(Array.from({ length: 500 }, () => generateClaimCode().slice(6)).join(''));
    for (const c of seen) expect(CLAIM_CODE_ALPHABET).toContain(c);
  });

  it('do not repeat', () => {
    const codes = new Set(Array.from({ length: 2000 }, generateClaimCode));
    expect(codes.size).toBe(2000);
  });

  it('are what sign-up accepts after uppercasing', () => {
    expect(generateClaimCode().toLowerCase().toUpperCase()).toMatch(CLAIM_CODE_PATTERN);
  });
});
