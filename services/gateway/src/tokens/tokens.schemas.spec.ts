import { TOKEN_MESSAGES } from '@clipit/field-rules';
import { describe, expect, it } from '@jest/globals';
import { parseBody } from '../http/endpoint.js';
import { checkedCreate, checkedUpdate, createTokenBody, myTokenSchema, toMyTokenJson, updateTokenBody } from './tokens.schemas.js';

const LINK = 'https://pump.fun/coin/abc';
const messageOf = (fn: () => unknown): string => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('token bodies', () => {
  it('name unknown fields and wrong types, and leave the rules to checkToken', () => {
    expect(messageOf(() => parseBody(createTokenBody, { name: 'T', pumpFunLink: LINK, symbol: 'T' }))).toBe('Unknown field: symbol');
    expect(messageOf(() => parseBody(updateTokenBody, { streamerId: 'x' }))).toBe('Unknown field: streamerId');
    expect(messageOf(() => parseBody(createTokenBody, { name: ['T'] }))).toBe('Token name must be text');
    expect(messageOf(() => parseBody(createTokenBody, { name: 'x'.repeat(51), isActive: 'maybe' }))).toBe('ok');
  });
});

describe('checkedCreate', () => {
  it('answers the first broken rule in form order', () => {
    expect(checkedCreate('u1', { name: '', pumpFunLink: 'bad' })).toEqual({ error: TOKEN_MESSAGES.nameRequired });
    expect(checkedCreate('u1', { name: 'x'.repeat(51) })).toEqual({ error: TOKEN_MESSAGES.nameLong });
    expect(checkedCreate('u1', { name: 'T', pumpFunLink: 'bad' })).toEqual({ error: TOKEN_MESSAGES.pumpFunLinkInvalid });
    expect(checkedCreate('u1', { name: 'T', pumpFunLink: LINK, description: 'd'.repeat(501) })).toEqual({
      error: TOKEN_MESSAGES.descriptionLong,
    });
  });

  it('sends the checked, trimmed fields', () => {
    expect(checkedCreate('u1', { name: ' T ', pumpFunLink: LINK, description: ' ', isActive: false })).toEqual({
      request: { userId: 'u1', name: 'T', pumpFunLink: LINK, isActive: 'false' },
    });
  });
});

describe('checkedUpdate', () => {
  it('checks only the fields sent', () => {
    expect(checkedUpdate('u1', 't1', { isActive: false })).toEqual({ request: { userId: 'u1', id: 't1', isActive: 'false' } });
    expect(checkedUpdate('u1', 't1', { name: ' ' })).toEqual({ error: TOKEN_MESSAGES.nameRequired });
    expect(checkedUpdate('u1', 't1', { name: null })).toEqual({ error: TOKEN_MESSAGES.nameRequired });
    expect(checkedUpdate('u1', 't1', { pumpFunLink: 'x', description: 'd'.repeat(501) })).toEqual({
      error: TOKEN_MESSAGES.pumpFunLinkInvalid,
    });
    expect(checkedUpdate('u1', 't1', { isActive: 'on' })).toEqual({ error: TOKEN_MESSAGES.isActiveInvalid });
  });

  it('clears the description with null or an empty one', () => {
    expect(checkedUpdate('u1', 't1', { description: null })).toEqual({ request: { userId: 'u1', id: 't1', description: '' } });
    expect(checkedUpdate('u1', 't1', { name: ' New ', description: '' })).toEqual({
      request: { userId: 'u1', id: 't1', name: 'New', description: '' },
    });
  });
});

describe('toMyTokenJson', () => {
  it('answers the MyToken shape', () => {
    const json = toMyTokenJson({ id: 't1', streamerId: 'u1', name: 'T', isActive: 'false' });
    expect(json).toEqual({ id: 't1', streamerId: 'u1', name: 'T', pumpFunLink: null, description: null, isActive: 'false' });
    expect(myTokenSchema.parse(json)).toEqual(json);
  });
});
