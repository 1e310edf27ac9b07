import type { identityV1 } from '@clipit/contracts';
import { checkToken, firstTokenError, TOKEN_FIELDS, type TokenField } from '@clipit/field-rules';
import { z } from 'zod';
import { strictBody } from '../http/fields.js';

// A streamer's own tokens (spec 02 §5 "Token"; ADR 0027: tokens stay with identity). The shapes the
// browser sends and reads; the rules and their words are @clipit/field-rules' (checkToken), checked here
// before a call and again by identity, which owns tokens.

const text = (field: string) => z.string({ error: `${field} must be text` }).max(10_000, `${field} is too long`);
/** A checkbox sends a boolean; the spec stores 'true' / 'false'. */
const isActive = z.union([z.boolean(), z.string()], { error: "isActive must be 'true' or 'false'" });

export const createTokenBody = strictBody({
  name: text('Token name').nullish().describe('1 to 50 characters'),
  pumpFunLink: text('PumpFun link').nullish().describe('The token’s PumpFun page (http or https)'),
  description: text('Description').nullish().describe('At most 500 characters'),
  isActive: isActive.nullish().describe("true (default) or false; 'true' / 'false' too"),
});
export type CreateTokenBody = z.infer<typeof createTokenBody>;

export const updateTokenBody = strictBody({
  name: text('Token name').nullish().describe('1 to 50 characters'),
  pumpFunLink: text('PumpFun link').nullish(),
  description: text('Description').nullish().describe('At most 500 characters; empty or null clears it'),
  isActive: isActive.nullish().describe("false takes the token out of GET /api/tokens; 'true' / 'false' too"),
});
export type UpdateTokenBody = z.infer<typeof updateTokenBody>;

// The id names the OpenAPI component the dashboard's `MyToken` type is generated from.
export const myTokenSchema = z
  .object({
    id: z.string(),
    streamerId: z.string(),
    name: z.string(),
    pumpFunLink: z.string().nullable(),
    description: z.string().nullable(),
    isActive: z.enum(['true', 'false']).describe("Only 'true' tokens are listed by GET /api/tokens and can be tagged on a clip"),
  })
  .meta({ id: 'MyToken' });
export type MyTokenJson = z.infer<typeof myTokenSchema>;
export const myTokenListSchema = z.array(myTokenSchema).meta({ id: 'MyTokens' });

export function toMyTokenJson(t: identityV1.Token): MyTokenJson {
  return {
    id: t.id,
    streamerId: t.streamerId,
    name: t.name,
    pumpFunLink: t.pumpFunLink ?? null,
    description: t.description ?? null,
    isActive: t.isActive === 'false' ? 'false' : 'true',
  };
}

const flag = (v: boolean | string | null | undefined): string | undefined => (v === undefined || v === null ? undefined : String(v));

/** A new token, checked whole; the first broken rule's words, or the request for identity. */
export function checkedCreate(userId: string, body: CreateTokenBody): { error: string } | { request: identityV1.CreateTokenRequest } {
  const checked = checkToken(body);
  if (!checked.ok) return { error: firstTokenError(checked.errors) ?? 'Invalid token' };
  const v = checked.value;
  return {
    request: {
      userId,
      name: v.name,
      pumpFunLink: v.pumpFunLink,
      isActive: v.isActive,
      ...(v.description !== null ? { description: v.description } : {}),
    },
  };
}

/**
 * A change: only the fields given are checked (in form order) and sent; identity checks the token as it
 * would be after the change. A null or empty description clears it.
 */
export function checkedUpdate(
  userId: string,
  id: string,
  body: UpdateTokenBody,
): { error: string } | { request: identityV1.UpdateTokenRequest } {
  const given = TOKEN_FIELDS.filter((field: TokenField) => body[field] !== undefined && !(field === 'description' && body[field] === null));
  const checked = checkToken(body);
  if (!checked.ok) {
    const error = firstTokenError(Object.fromEntries(given.map((f) => [f, checked.errors[f]])));
    if (error) return { error };
  }
  const request: identityV1.UpdateTokenRequest = { userId, id };
  if (given.includes('name')) request.name = (body.name ?? '').trim();
  if (given.includes('pumpFunLink')) request.pumpFunLink = (body.pumpFunLink ?? '').trim();
  if (body.description !== undefined) request.description = (body.description ?? '').trim();
  const active = flag(body.isActive);
  if (active !== undefined) request.isActive = active;
  return { request };
}
