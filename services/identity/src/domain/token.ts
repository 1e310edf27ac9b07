import { checkToken, firstTokenError, TOKEN_MESSAGES, type TokenDraft } from '@clipit/field-rules';
import { forbidden, invalid } from '@clipit/service-kit';
import type { identityV1 } from '@clipit/contracts';
import type { TokenEntity } from '../entities/token.entity.js';
import type { UserEntity } from '../entities/user.entity.js';

// A streamer's token (spec 02 §5 "Token"): the rules and their words are @clipit/field-rules' (checkToken),
// the same the streamer dashboard and the gateway check.

/** Only a real streamer account manages tokens (a placeholder never signs in). */
export function assertStreamer(user: UserEntity): void {
  if (user.role !== 'streamer' || user.isPlaceholder === 'true') throw forbidden(TOKEN_MESSAGES.streamersOnly);
}

/** Only the token's own streamer changes it. */
export function assertOwner(token: TokenEntity, userId: string): void {
  if (token.streamerId !== userId) throw forbidden(TOKEN_MESSAGES.notOwner);
}

function checked(input: Parameters<typeof checkToken>[0]): TokenDraft {
  const result = checkToken(input);
  if (!result.ok) throw invalid(firstTokenError(result.errors) ?? 'Invalid token');
  return result.value;
}

/** A new token's fields, checked (isActive defaults to 'true'). */
export function parseNewToken(req: identityV1.CreateTokenRequest): TokenDraft {
  return checked({ name: req.name, pumpFunLink: req.pumpFunLink, description: req.description, isActive: req.isActive });
}

/** The token as it would be after the patch (only the fields given change), checked as a whole. */
export function applyTokenPatch(token: TokenEntity, req: identityV1.UpdateTokenRequest): TokenDraft {
  return checked({
    name: req.name ?? token.name,
    pumpFunLink: req.pumpFunLink ?? token.pumpFunLink,
    description: req.description ?? token.description,
    isActive: req.isActive ?? token.isActive,
  });
}

export const TOKEN_DRAFT_FIELDS = ['name', 'pumpFunLink', 'description', 'isActive'] as const satisfies readonly (keyof TokenDraft &
  keyof TokenEntity)[];

/** The fields whose value the draft really changes. */
export function changedTokenFields(token: TokenEntity, draft: TokenDraft): (typeof TOKEN_DRAFT_FIELDS)[number][] {
  return TOKEN_DRAFT_FIELDS.filter((field) => token[field] !== draft[field]);
}

/** A new token row of this streamer's. */
export function newToken(streamerId: string, draft: TokenDraft, now: Date, id: string): TokenEntity {
  return { id, streamerId, ...draft, createdAt: now, updatedAt: now };
}
