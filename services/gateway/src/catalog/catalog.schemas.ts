import type { identityV1 } from '@clipit/contracts';
import { z } from 'zod';

// The ids name the OpenAPI components the web apps' `Token` and `Streamer` types are generated from.
export const tokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    streamerId: z.string(),
    pumpFunLink: z.string().nullable(),
  })
  .meta({ id: 'Token' });
export const tokenListSchema = z.array(tokenSchema);
export type TokenItem = z.infer<typeof tokenSchema>;

export const streamerSchema = z
  .object({
    id: z.string(),
    displayName: z.string().nullable(),
    twitterUsername: z.string().nullable(),
  })
  .meta({ id: 'Streamer' });
export const streamerListSchema = z.array(streamerSchema);
export type StreamerItem = z.infer<typeof streamerSchema>;

/** Active tokens only: an inactive token cannot be tagged on a clip. */
export function toTokenList(tokens: identityV1.Token[]): TokenItem[] {
  return tokens
    .filter((t) => t.isActive !== 'false')
    .map((t) => ({ id: t.id, name: t.name, streamerId: t.streamerId, pumpFunLink: t.pumpFunLink ?? null }));
}

export function toStreamerList(streamers: identityV1.StreamerSummary[]): StreamerItem[] {
  return streamers.map((s) => ({ id: s.id, displayName: s.displayName ?? null, twitterUsername: s.twitterUsername ?? null }));
}
