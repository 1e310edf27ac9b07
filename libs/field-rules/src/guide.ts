/**
 * The clipping guide's rules that a video itself shows (spec 01 §5, the how-it-works page), checked on
 * every upload once the media worker has measured it and shown before review: to the clipper on /submit
 * and in the dashboard, to the moderator on the submission card. None refuses a video (the only refusals
 * are VIDEO_LIMITS'): each is a warning, and the watermark estimate only a signal (ADR 0047).
 */
export const GUIDE_RULES = {
  /** The guide's minimum clip length; shorter is a warning (over VIDEO_LIMITS.maxDurationSeconds is refused). */
  minDurationSeconds: 15,
  /** Portrait 9:16, within 2 % (1080x1920, 720x1280, 1080x1918 all pass). */
  aspect: { width: 9, height: 16, tolerance: 0.02 },
  /** Narrower than this looks soft on a phone. */
  minWidth: 720,
} as const;

export const GUIDE_CHECK_RULES = ['duration', 'portrait', 'width', 'audio', 'watermark'] as const;
export type GuideCheckRule = (typeof GUIDE_CHECK_RULES)[number];

/** `unsure`: only the watermark estimate says it, when the picture changes too little to tell. */
export const GUIDE_CHECK_VERDICTS = ['pass', 'warning', 'unsure'] as const;
export type GuideCheckVerdict = (typeof GUIDE_CHECK_VERDICTS)[number];

export interface GuideCheck {
  rule: GuideCheckRule;
  verdict: GuideCheckVerdict;
  /** What a person is shown, one sentence. */
  message: string;
}

/** What the worker measured that the checks read. */
export interface GuideMeasurements {
  durationSeconds: number;
  /** As displayed (after rotation). */
  width: number;
  height: number;
  hasAudio: boolean;
  /** The worker's estimate of a static mark in the top-right corner. */
  watermark: 'found' | 'not-found' | 'unsure';
}

function isPortrait(width: number, height: number): boolean {
  const { aspect } = GUIDE_RULES;
  return Math.abs((width / height) * (aspect.height / aspect.width) - 1) <= aspect.tolerance;
}

/** The shape as people say it, e.g. `16:9`, `1:1`, `4:5` (reduced; an odd size gives its pixels). */
function shapeOf(width: number, height: number): string {
  let [a, b] = [width, height];
  while (b) [a, b] = [b, a % b];
  const [w, h] = [width / a, height / a];
  return w <= 64 && h <= 64 ? `${w}:${h}` : `${width}x${height}`;
}

/** Every guide check of one video, in the order of {@link GUIDE_CHECK_RULES}. */
export function guideChecks(m: GuideMeasurements): GuideCheck[] {
  const seconds = Math.floor(m.durationSeconds);
  const checks: GuideCheck[] = [];
  checks.push(
    m.durationSeconds >= GUIDE_RULES.minDurationSeconds
      ? { rule: 'duration', verdict: 'pass', message: `${seconds} seconds long: at least the guide's ${GUIDE_RULES.minDurationSeconds}.` }
      : {
          rule: 'duration',
          verdict: 'warning',
          message: `${seconds} seconds long: the guide asks for at least ${GUIDE_RULES.minDurationSeconds} seconds.`,
        },
  );
  checks.push(
    isPortrait(m.width, m.height)
      ? { rule: 'portrait', verdict: 'pass', message: 'Portrait 9:16.' }
      : {
          rule: 'portrait',
          verdict: 'warning',
          message: `The frame is ${shapeOf(m.width, m.height)}: the guide asks for portrait 9:16.`,
        },
  );
  checks.push(
    m.width >= GUIDE_RULES.minWidth
      ? { rule: 'width', verdict: 'pass', message: `${m.width} px wide: at least ${GUIDE_RULES.minWidth}.` }
      : {
          rule: 'width',
          verdict: 'warning',
          message: `${m.width} px wide: under ${GUIDE_RULES.minWidth} px it looks soft on phones.`,
        },
  );
  checks.push(
    m.hasAudio
      ? { rule: 'audio', verdict: 'pass', message: 'Has sound.' }
      : { rule: 'audio', verdict: 'warning', message: 'No sound: the video has no audio track.' },
  );
  checks.push(
    m.watermark === 'found'
      ? { rule: 'watermark', verdict: 'pass', message: 'A still mark was seen in the top-right corner (an estimate).' }
      : m.watermark === 'not-found'
        ? {
            rule: 'watermark',
            verdict: 'warning',
            message: 'No still mark was seen in the top-right corner: the guide asks for the watermark there (an estimate).',
          }
        : {
            rule: 'watermark',
            verdict: 'unsure',
            message: 'The picture changes too little to tell whether the top-right corner has a watermark.',
          },
  );
  return checks;
}

/** How many checks warn (the `unsure` watermark is not counted). */
export function guideWarnings(checks: readonly GuideCheck[]): number {
  return checks.filter((check) => check.verdict === 'warning').length;
}
