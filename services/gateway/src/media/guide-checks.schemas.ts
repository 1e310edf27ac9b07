import { GUIDE_CHECK_RULES, GUIDE_CHECK_VERDICTS, type GuideCheckRule, type GuideCheckVerdict } from '@clipit/field-rules';
import { z } from 'zod';

export const guideCheckSchema = z
  .object({
    rule: z.enum(GUIDE_CHECK_RULES),
    verdict: z.enum(GUIDE_CHECK_VERDICTS).describe('`unsure`: only the watermark estimate, when the picture changes too little to tell'),
    message: z.string().describe('What the clipper or the moderator is shown'),
  })
  .meta({ id: 'GuideCheck' });

/** The checks as the submission and admin answers carry them: null until the video is processed. */
export const guideChecksField = z
  .array(guideCheckSchema)
  .nullable()
  .describe(
    "The clipping guide's checks on the processed video (duration, portrait 9:16, width, sound, a top-right watermark estimate), in that order; warnings, never refusals. Null until the video is processed.",
  );

export type GuideCheckJson = z.infer<typeof guideCheckSchema>;

const RULES = new Set<string>(GUIDE_CHECK_RULES);
const VERDICTS = new Set<string>(GUIDE_CHECK_VERDICTS);

/** From a gRPC answer: an empty list (not processed, or processed before the checks existed) is null; unknown rules are left out. */
export function toGuideChecksJson(
  checks: readonly { rule: string; verdict: string; message: string }[] | undefined,
): GuideCheckJson[] | null {
  const known = (checks ?? []).filter((check) => RULES.has(check.rule) && VERDICTS.has(check.verdict));
  return known.length === 0
    ? null
    : known.map((check) => ({ rule: check.rule as GuideCheckRule, verdict: check.verdict as GuideCheckVerdict, message: check.message }));
}
