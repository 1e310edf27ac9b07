import type { adminV1 } from '@clipit/contracts';
import { z } from 'zod';

export const videoMatchSchema = z
  .object({
    submissionId: z.string().describe('The earlier submission whose clip this video re-uploads'),
    clipper: z
      .object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable() })
      .describe("The earlier clip's clipper, as identity names them now (null names when it did not answer)"),
    videoDistance: z.number().min(0).max(1).describe('0 the same pictures … 1 nothing alike (perceptual frame hashes, ADR 0048)'),
    audioMatches: z.boolean().nullable().describe('Whether the sound matches too; null when either clip has no audio'),
    kind: z.enum(['reupload', 'duplicate']).describe("`reupload`: another clipper's clip; `duplicate`: the same clipper's own"),
  })
  .meta({ id: 'VideoMatch' });

/** The matches as the admin list carries them: null until the video was checked. */
export const videoMatchesField = z
  .array(videoMatchSchema)
  .nullable()
  .describe(
    'Earlier clips this video re-uploads, closest first: a flag for the moderator, never a refusal. [] when it matched none; null until the video was fingerprinted (a few seconds after it plays) or when it could not be.',
  );

export type VideoMatchJson = z.infer<typeof videoMatchSchema>;

const KINDS = new Set(['reupload', 'duplicate']);

/** From admin's gRPC answer. */
export function toVideoMatchesJson(s: Pick<adminV1.AdminSubmission, 'matches' | 'matchesChecked'>): VideoMatchJson[] | null {
  if (!s.matchesChecked) return null;
  return (s.matches ?? [])
    .filter((m) => KINDS.has(m.kind))
    .map((m) => ({
      submissionId: m.submissionId,
      clipper: { id: m.userId, handle: m.clipperHandle ?? null, displayName: m.clipperDisplayName ?? null },
      videoDistance: m.videoDistance,
      audioMatches: m.audioMatches ?? null,
      kind: m.kind as VideoMatchJson['kind'],
    }));
}
