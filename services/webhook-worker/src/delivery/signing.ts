import { openSealedSecret } from '@clipit/service-kit';
import { Webhook } from 'standardwebhooks';

/** A sealed secret of a job does not open under WEBHOOK_SECRET_KEY, or opens to something that is no signing secret. */
export class SecretDoesNotOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretDoesNotOpenError';
  }
}

/**
 * The endpoint's signers from its sealed secrets, in the job's order (the current secret first, then during a
 * rotation's overlap the previous one). Which one failed is named; the secret itself never is.
 */
export function openSigners(key: Buffer, sealedSecrets: readonly string[]): Webhook[] {
  return sealedSecrets.map((sealed, i) => {
    let secret: string;
    try {
      secret = openSealedSecret(key, sealed);
    } catch (err) {
      throw new SecretDoesNotOpenError(
        `sealed secret ${i + 1} of ${sealedSecrets.length} does not open under WEBHOOK_SECRET_KEY (sealed under another key, or changed): ${(err as Error).message}`,
      );
    }
    try {
      return new Webhook(secret);
    } catch (err) {
      throw new SecretDoesNotOpenError(
        `sealed secret ${i + 1} of ${sealedSecrets.length} is not a signing secret (whsec_ and base64): ${(err as Error).message}`,
      );
    }
  });
}

/** The Standard Webhooks headers of one request. */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * `webhook-id`, `webhook-timestamp` (whole seconds of `at`) and `webhook-signature`: one `v1,<base64>` per
 * signer over `<id>.<timestamp>.<payload>`, space-separated, so a receiver holding either secret of a
 * rotation's overlap verifies the request.
 */
export function signatureHeaders(messageId: string, at: Date, payload: string, signers: readonly Webhook[]): SignatureHeaders {
  const timestamp = Math.floor(at.getTime() / 1000);
  const signedAt = new Date(timestamp * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signers.map((signer) => signer.sign(messageId, signedAt, payload)).join(' '),
  };
}
