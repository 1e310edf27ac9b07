import { forwardRef, type HTMLAttributes } from 'react';
import { cn } from './cn.js';

/**
 * One of the clipping guide's checks on a processed video, as the gateway answers it (`GuideCheck` of
 * @clipit/field-rules and the API types; written out here so the kit needs nothing but React).
 */
export interface GuideCheckItem {
  rule: string;
  verdict: 'pass' | 'warning' | 'unsure';
  /** The sentence to show, as is. */
  message: string;
}

export interface GuideChecksProps extends Omit<HTMLAttributes<HTMLUListElement>, 'children'> {
  checks: readonly GuideCheckItem[];
  /** For someone deciding on the video: warnings, then unsure, then passes (each group in the guide's order). */
  warningsFirst?: boolean;
}

// The verdict is a word on screen, not only a colour; the sign beside it is decoration.
const VERDICT: Record<GuideCheckItem['verdict'], { label: string; sign: string; rank: number }> = {
  warning: { label: 'Warning', sign: '!', rank: 0 },
  unsure: { label: 'Unsure', sign: '?', rank: 1 },
  pass: { label: 'Pass', sign: '✓', rank: 2 },
};

/**
 * The guide's checks on a video (spec 01 §5): one row per check with its verdict and its message. They are
 * warnings shown before review, never refusals. Named 'Guide checks' unless given another `aria-label`.
 */
export const GuideChecks = forwardRef<HTMLUListElement, GuideChecksProps>(function GuideChecks(
  { checks, warningsFirst = false, className, ...props },
  ref,
) {
  // sort is stable: within a verdict the guide's order stays.
  const rows = warningsFirst ? [...checks].sort((a, b) => VERDICT[a.verdict].rank - VERDICT[b.verdict].rank) : checks;
  return (
    <ul ref={ref} aria-label="Guide checks" className={cn('clip-guide-checks', className)} {...props}>
      {rows.map((check) => {
        const verdict = VERDICT[check.verdict];
        return (
          <li
            key={check.rule}
            className={cn('clip-guide-check', `clip-guide-check--${check.verdict}`)}
            data-rule={check.rule}
            data-verdict={check.verdict}
          >
            <span className="clip-guide-check__verdict">
              <span className="clip-guide-check__sign" aria-hidden="true">
                {verdict.sign}
              </span>
              {verdict.label}
              <span className="clip-sr-only">: </span>
            </span>
            <span className="clip-guide-check__message">{check.message}</span>
          </li>
        );
      })}
    </ul>
  );
});
