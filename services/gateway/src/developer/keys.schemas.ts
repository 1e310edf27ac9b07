import type { developerV1 } from '@clipit/contracts';
import { API_KEY_MESSAGES, API_KEY_SCOPES } from '@clipit/field-rules';
import { z } from 'zod';
import { strictBody } from '../http/fields.js';

// API keys (ADR 0053). The rules (name, scopes, expiry, 20 keys) are developer's, in @clipit/field-rules:
// these check shapes only, so the owner's words reach the person.

/** POST /api/keys */
export const createKeyBody = strictBody({
  name: z.string({ error: 'name must be text' }).max(10_000, 'name is too long').nullish(),
  scopes: z
    .array(z.string({ error: API_KEY_MESSAGES.badScope }).max(100, API_KEY_MESSAGES.badScope), { error: API_KEY_MESSAGES.scopesRequired })
    .max(API_KEY_SCOPES.length * 4, API_KEY_MESSAGES.badScope)
    .nullish(),
  expiresAt: z.string({ error: API_KEY_MESSAGES.badExpiry }).max(100, API_KEY_MESSAGES.badExpiry).nullish(),
});
export type CreateKeyBody = z.infer<typeof createKeyBody>;

const scopesField = z
  .array(z.enum(API_KEY_SCOPES))
  .meta({ description: 'What the key may read: each /api/v1 route names the scope it needs' });

/** A key as its owner's list shows it: never the key itself. */
export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().meta({ description: "The key's first 12 characters, to tell keys apart" }),
    scopes: scopesField,
    expiresAt: z.string().nullable().meta({ description: 'When it stops working; null: never' }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().meta({ description: 'Its last use, to the minute; null: never used' }),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyJson = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) }).meta({ id: 'ApiKeyList' });
export type ApiKeyListJson = z.infer<typeof apiKeyListSchema>;

/** The answer to POST /api/keys: the only time the key itself is told. */
export const createdKeySchema = z
  .object({
    id: z.string(),
    key: z.string().meta({ description: '`clipit_`, 30 random characters and a 6-character checksum: shown once, stored only hashed' }),
    prefix: z.string(),
    scopes: scopesField,
    expiresAt: z.string().nullable(),
  })
  .meta({ id: 'CreatedApiKey' });
export type CreatedKeyJson = z.infer<typeof createdKeySchema>;

export function toApiKeyJson(key: developerV1.ApiKey): ApiKeyJson {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes as ApiKeyJson['scopes'],
    expiresAt: key.expiresAt ?? null,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt ?? null,
  };
}

export function toCreatedKeyJson(created: developerV1.CreatedKey): CreatedKeyJson {
  const key = created.key!;
  return {
    id: key.id,
    key: created.secret,
    prefix: key.prefix,
    scopes: key.scopes as CreatedKeyJson['scopes'],
    expiresAt: key.expiresAt ?? null,
  };
}
