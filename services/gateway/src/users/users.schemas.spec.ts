import { describe, expect, it } from '@jest/globals';
import { parseBody } from '../http/endpoint.js';
import { updateProfileBody } from './users.schemas.js';

describe('PATCH /api/user/profile body', () => {
  const message = (body: unknown) => {
    try {
      parseBody(updateProfileBody, body);
      return 'ok';
    } catch (err) {
      return (err as Error).message;
    }
  };
  it.each([
    [{}, 'Wallet address is required'],
    [{ walletAddress: ' ' }, 'Wallet address is required'],
    [{ walletAddress: 'not-a-wallet' }, 'Please enter a valid Solana wallet address'],
    [{ walletAddress: 5 }, 'Please enter a valid Solana wallet address'],
    [{ walletAddress: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', displayName: 'x' }, 'Unknown field: displayName'],
    [{ walletAddress: ' 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV ' }, 'ok'],
  ])('%j → %s', (body, expected) => {
    expect(message(body)).toBe(expected);
  });
});
