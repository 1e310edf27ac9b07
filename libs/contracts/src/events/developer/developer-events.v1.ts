import { z } from 'zod';

const at = z.iso.datetime({ offset: true });

/**
 * An API key was revoked (ADR 0053): every gateway replica drops it from its short-lived cache when this
 * arrives, so it is refused at once; the cache's lifetime (under 1 s) is the bound when the bus is away.
 */
export const apiKeyRevokedV1 = z.object({ keyId: z.uuid(), userId: z.uuid(), at });
export type ApiKeyRevokedV1 = z.infer<typeof apiKeyRevokedV1>;
