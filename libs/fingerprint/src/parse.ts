import { z } from 'zod';
import { MIN_AUDIO_ITEMS } from './audio-match.js';
import { ZOOMS } from './frame-hash.js';
import { FINGERPRINT_VERSION, MAX_SAMPLED_FRAMES, type ClipFingerprint } from './types.js';

/** The most hashes fingerprintClip writes: MAX_SAMPLED_FRAMES frames, one hash per view of ZOOMS each. */
export const MAX_FRAME_HASHES = MAX_SAMPLED_FRAMES * ZOOMS.length;
/** Three times the longest print fingerprintClip writes (MAX_AUDIO_SECONDS of sound: about 480 values, 2,600 characters of base64). */
export const MAX_AUDIO_CHARS = 8192;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const fingerprintSchema = z.object({
  version: z.literal(FINGERPRINT_VERSION),
  frames: z
    .array(z.string().regex(/^[0-9a-f]{16}$/, 'a frame hash is 16 lowercase hex digits'))
    .max(MAX_FRAME_HASHES)
    .refine((frames) => frames.length % ZOOMS.length === 0, `frames come in groups of ${ZOOMS.length} hashes (one per view)`),
  audio: z
    .string()
    .max(MAX_AUDIO_CHARS)
    .regex(BASE64, 'audio is base64')
    // Whole uint32 values, and enough of them: too little sound is written as null, never as a short print
    // (an empty one would match nothing, and so clear every copy of the clip).
    .refine((s) => Buffer.from(s, 'base64').length % 4 === 0, 'audio is a whole number of 32-bit values')
    .refine((s) => Buffer.from(s, 'base64').length >= MIN_AUDIO_ITEMS * 4, `audio has at least ${MIN_AUDIO_ITEMS} values (or is null)`)
    .nullable(),
});

/**
 * Parses a value (from an event, a job payload or a database row) into a ClipFingerprint, or throws a
 * TypeError naming what is wrong. Other fields (a row's id, its timestamps) are dropped, not refused; a
 * fingerprint of another version is refused, since its hashes cannot be compared with these.
 */
export function parseFingerprint(value: unknown): ClipFingerprint {
  const parsed = fingerprintSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new TypeError(`not a clip fingerprint: ${where}${issue?.message ?? 'invalid'}`);
  }
  return { version: parsed.data.version, frames: [...parsed.data.frames], audio: parsed.data.audio };
}
