// A streamer's token (spec 02 §5 "Token", §9 field bounds): the streamer dashboard checks it as the
// streamer types, the gateway and identity (which owns tokens) check it again before storing it.
import { isHttpUrl } from './sign-in.js';

export const TOKEN_LIMITS = { name: { min: 1, max: 50 }, description: { max: 500 } } as const;

export const TOKEN_MESSAGES = {
  nameRequired: 'Token name is required',
  nameLong: 'Token name is too long',
  pumpFunLinkInvalid: 'Please enter a valid PumpFun link',
  descriptionLong: 'Description is too long',
  isActiveInvalid: "isActive must be 'true' or 'false'",
  /** PATCH of a token that is not the caller's (403). */
  notOwner: 'You can only change your own tokens',
  /** Anyone but a streamer managing tokens (403). */
  streamersOnly: 'Only streamers can manage tokens',
} as const;

export const TOKEN_FIELDS = ['name', 'pumpFunLink', 'description', 'isActive'] as const;
export type TokenField = (typeof TOKEN_FIELDS)[number];

export interface TokenInput {
  name?: string | null | undefined;
  pumpFunLink?: string | null | undefined;
  description?: string | null | undefined;
  /** 'true' / 'false' as the spec stores it, or a boolean. */
  isActive?: string | boolean | null | undefined;
}

export interface TokenDraft {
  name: string;
  pumpFunLink: string;
  description: string | null;
  isActive: 'true' | 'false';
}

export type TokenCheck = { ok: true; value: TokenDraft } | { ok: false; errors: Partial<Record<TokenField, string>> };

/** Every field's rule at once; isActive defaults to 'true', an empty description is null. */
export function checkToken(input: TokenInput): TokenCheck {
  const m = TOKEN_MESSAGES;
  const errors: Partial<Record<TokenField, string>> = {};
  const name = (input.name ?? '').trim();
  if (name.length < TOKEN_LIMITS.name.min) errors.name = m.nameRequired;
  else if (name.length > TOKEN_LIMITS.name.max) errors.name = m.nameLong;
  const pumpFunLink = (input.pumpFunLink ?? '').trim();
  if (!isHttpUrl(pumpFunLink)) errors.pumpFunLink = m.pumpFunLinkInvalid;
  const description = (input.description ?? '').trim();
  if (description.length > TOKEN_LIMITS.description.max) errors.description = m.descriptionLong;
  const active = input.isActive === undefined || input.isActive === null ? 'true' : String(input.isActive);
  if (active !== 'true' && active !== 'false') errors.isActive = m.isActiveInvalid;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: { name, pumpFunLink, description: description === '' ? null : description, isActive: active as 'true' | 'false' },
  };
}

export function firstTokenError(errors: Partial<Record<TokenField, string>>): string | undefined {
  for (const field of TOKEN_FIELDS) if (errors[field]) return errors[field];
  return undefined;
}
