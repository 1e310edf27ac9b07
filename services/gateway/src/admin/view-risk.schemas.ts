import type { adminV1 } from '@clipit/contracts';
import { z } from 'zod';

export const viewRiskSchema = z
  .object({
    score: z.number().int().min(0).max(100).describe('0 to 100: the points of the signals that fired, summed (ADR 0049)'),
    reasons: z.array(z.string()).describe('Each signal that fired as a sentence with its figures, strongest first; [] when none did'),
    underReview: z
      .boolean()
      .describe("At or above the submissions service's RISK_HOLD_THRESHOLD: the clip is under review and its clipper told why"),
  })
  .meta({ id: 'ViewRisk' });

/** The risk as the admin list carries it: null until the post was read twice. */
export const viewRiskField = viewRiskSchema
  .nullable()
  .describe(
    "How likely the clip's views are inflated, from its post's view history: a views jump without likes and retweets, engagement far below the platform's norm for its size, video views far from the post's views, growth that does not decay. Null until the post was read twice.",
  );

export type ViewRiskJson = z.infer<typeof viewRiskSchema>;

/** From admin's gRPC answer. */
export function toViewRiskJson(risk: adminV1.ViewRisk | undefined): ViewRiskJson | null {
  if (!risk) return null;
  return { score: risk.score, reasons: risk.reasons ?? [], underReview: risk.underReview ?? false };
}
