import { newSecretToken, secretTokenMatches } from '@clipit/service-kit';

/** The secret of a gateway upload URL, and the hash that is all the database keeps of it (the kit's secret token). */
export const newUploadToken = newSecretToken;

export const uploadTokenMatches = secretTokenMatches;
