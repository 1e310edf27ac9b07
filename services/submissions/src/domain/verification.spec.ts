import { describe, expect, it } from '@jest/globals';
import { containsCode, newVerificationCode, provesOwnership, VERIFICATION_CODE_ALPHABET } from './verification.js';

describe('verification codes', () => {
  it("are 'CLIP-' and 6 characters without look-alikes", () => {
    for (let i = 0; i < 200; i += 1) expect(newVerificationCode()).toMatch(/^CLIP-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
    expect(VERIFICATION_CODE_ALPHABET).not.toMatch(/[01OIL]/);
  });

  it('draw each character from the alphabet at random', () => {
    expect(newVerificationCode(() => 0)).toBe('CLIP-AAAAAA');
    expect(newVerificationCode((max) => max - 1)).toBe('CLIP-999999');
    expect(new Set(Array.from({ length: 50 }, () => newVerificationCode())).size).toBeGreaterThan(45);
  });
});

describe('a post proves it is the submitter’s', () => {
  const code = 'CLIP-7KQ2MX';

  it('when its text holds the code as a word, in any case', () => {
    expect(containsCode('Best clip of the stream CLIP-7KQ2MX #clipit', code)).toBe(true);
    expect(containsCode('clip-7kq2mx', code)).toBe(true);
    expect(containsCode('(Clip-7Kq2mX)', code)).toBe(true);
    expect(containsCode('CLIP-7KQ2MXZ', code)).toBe(false);
    expect(containsCode('XCLIP-7KQ2MX', code)).toBe(false);
    expect(containsCode('CLIP-7KQ2M', code)).toBe(false);
    expect(containsCode('', code)).toBe(false);
  });

  it('when its author is the X account the submitter linked', () => {
    expect(provesOwnership({ text: 'no code here', authorId: '4242' }, code, '4242')).toBe(true);
    expect(provesOwnership({ text: 'no code here', authorId: '4242' }, code, '9999')).toBe(false);
    expect(provesOwnership({ text: 'no code here', authorId: null }, code, '4242')).toBe(false);
    expect(provesOwnership({ text: 'no code here', authorId: '4242' }, code, null)).toBe(false);
    expect(provesOwnership({ text: `by someone else ${code}`, authorId: '1' }, code, null)).toBe(true);
  });
});
