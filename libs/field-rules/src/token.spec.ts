import { describe, expect, it } from '@jest/globals';
import { checkToken, firstTokenError, TOKEN_FIELDS, TOKEN_LIMITS, TOKEN_MESSAGES, type TokenInput } from './token.js';

const LINK = 'https://pump.fun/coin/abc';
const valid: TokenInput = { name: '$CLIP', pumpFunLink: LINK };

const errorsOf = (input: TokenInput) => {
  const result = checkToken(input);
  return result.ok ? {} : result.errors;
};

describe('checkToken', () => {
  it('accepts a token, trimming it, with isActive true and no description by default', () => {
    expect(checkToken({ name: '  $CLIP ', pumpFunLink: ` ${LINK} ` })).toEqual({
      ok: true,
      value: { name: '$CLIP', pumpFunLink: LINK, description: null, isActive: 'true' },
    });
  });

  it('keeps a description and reads isActive from text or a boolean', () => {
    expect(checkToken({ ...valid, description: ' About ', isActive: false })).toEqual({
      ok: true,
      value: { name: '$CLIP', pumpFunLink: LINK, description: 'About', isActive: 'false' },
    });
    expect(checkToken({ ...valid, isActive: 'true' })).toMatchObject({ ok: true, value: { isActive: 'true' } });
    expect(checkToken({ ...valid, isActive: true })).toMatchObject({ ok: true, value: { isActive: 'true' } });
    expect(checkToken({ ...valid, isActive: null, description: '   ' })).toMatchObject({
      ok: true,
      value: { isActive: 'true', description: null },
    });
  });

  it('takes a name of 1 to 50 characters (after trimming)', () => {
    expect(errorsOf({ ...valid, name: 'x' })).toEqual({});
    expect(errorsOf({ ...valid, name: 'x'.repeat(TOKEN_LIMITS.name.max) })).toEqual({});
    expect(errorsOf({ ...valid, name: `  ${'x'.repeat(50)}  ` })).toEqual({});
    expect(errorsOf({ ...valid, name: 'x'.repeat(51) })).toEqual({ name: 'Token name is too long' });
    for (const name of ['', '   ', null, undefined]) expect(errorsOf({ ...valid, name })).toEqual({ name: 'Token name is required' });
  });

  it('wants the PumpFun link to be an http(s) URL', () => {
    expect(errorsOf({ ...valid, pumpFunLink: 'http://pump.fun/x' })).toEqual({});
    for (const pumpFunLink of [
      '',
      null,
      undefined,
      'pump.fun/coin/abc',
      'javascript:alert(1)',
      'ftp://pump.fun/x',
      'https://',
      `https://x.com/${'a'.repeat(3000)}`,
    ]) {
      expect(errorsOf({ ...valid, pumpFunLink })).toEqual({ pumpFunLink: 'Please enter a valid PumpFun link' });
    }
  });

  it('takes a description of at most 500 characters', () => {
    expect(errorsOf({ ...valid, description: 'd'.repeat(TOKEN_LIMITS.description.max) })).toEqual({});
    expect(errorsOf({ ...valid, description: 'd'.repeat(501) })).toEqual({ description: 'Description is too long' });
  });

  it("wants isActive 'true' or 'false'", () => {
    for (const isActive of ['yes', 'TRUE', '1', ''])
      expect(errorsOf({ ...valid, isActive })).toEqual({ isActive: "isActive must be 'true' or 'false'" });
  });

  it('reports every broken field at once', () => {
    expect(errorsOf({ name: '', pumpFunLink: 'x', description: 'd'.repeat(501), isActive: 'no' })).toEqual({
      name: TOKEN_MESSAGES.nameRequired,
      pumpFunLink: TOKEN_MESSAGES.pumpFunLinkInvalid,
      description: TOKEN_MESSAGES.descriptionLong,
      isActive: TOKEN_MESSAGES.isActiveInvalid,
    });
  });
});

describe('firstTokenError', () => {
  it('answers the first broken field in form order', () => {
    expect(TOKEN_FIELDS).toEqual(['name', 'pumpFunLink', 'description', 'isActive']);
    expect(firstTokenError({ description: TOKEN_MESSAGES.descriptionLong, pumpFunLink: TOKEN_MESSAGES.pumpFunLinkInvalid })).toBe(
      TOKEN_MESSAGES.pumpFunLinkInvalid,
    );
    expect(firstTokenError({ isActive: TOKEN_MESSAGES.isActiveInvalid })).toBe(TOKEN_MESSAGES.isActiveInvalid);
    expect(firstTokenError({})).toBeUndefined();
  });
});

describe('TOKEN_MESSAGES', () => {
  it('says the words of spec 02 §5 and of the two refusals', () => {
    expect(TOKEN_MESSAGES).toMatchObject({
      nameRequired: 'Token name is required',
      nameLong: 'Token name is too long',
      pumpFunLinkInvalid: 'Please enter a valid PumpFun link',
      descriptionLong: 'Description is too long',
      notOwner: 'You can only change your own tokens',
      streamersOnly: 'Only streamers can manage tokens',
    });
  });
});
