import { describe, expect, it } from '@jest/globals';
import { GUIDE_CHECK_RULES, guideChecks, guideWarnings, type GuideMeasurements } from './guide.js';

const phoneReady: GuideMeasurements = { durationSeconds: 23.4, width: 1080, height: 1920, hasAudio: true, watermark: 'found' };
const verdicts = (m: Partial<GuideMeasurements>) =>
  Object.fromEntries(guideChecks({ ...phoneReady, ...m }).map((check) => [check.rule, check.verdict]));

describe('guideChecks', () => {
  it('passes every check of a phone-ready clip, one check per rule in order', () => {
    const checks = guideChecks(phoneReady);
    expect(checks.map((check) => check.rule)).toEqual([...GUIDE_CHECK_RULES]);
    expect(checks.every((check) => check.verdict === 'pass')).toBe(true);
    expect(checks[0]!.message).toBe("23 seconds long: at least the guide's 15.");
    expect(guideWarnings(checks)).toBe(0);
  });

  it('warns under 15 s (floored seconds in the words, the measured length in the verdict)', () => {
    expect(verdicts({ durationSeconds: 14.99 }).duration).toBe('warning');
    expect(guideChecks({ ...phoneReady, durationSeconds: 14.99 })[0]!.message).toBe(
      '14 seconds long: the guide asks for at least 15 seconds.',
    );
    expect(verdicts({ durationSeconds: 15 }).duration).toBe('pass');
  });

  it('takes 9:16 within 2 %, and names another shape', () => {
    expect(verdicts({ width: 720, height: 1280 }).portrait).toBe('pass');
    expect(verdicts({ width: 1080, height: 1918 }).portrait).toBe('pass');
    expect(verdicts({ width: 1080, height: 1350 }).portrait).toBe('warning');
    expect(guideChecks({ ...phoneReady, width: 1920, height: 1080 })[1]!.message).toBe(
      'The frame is 16:9: the guide asks for portrait 9:16.',
    );
    expect(guideChecks({ ...phoneReady, width: 1079, height: 1917 })[1]!.verdict).toBe('pass');
    expect(guideChecks({ ...phoneReady, width: 1001, height: 997 })[1]!.message).toBe(
      'The frame is 1001x997: the guide asks for portrait 9:16.',
    );
  });

  it('warns under 720 px wide and without sound', () => {
    expect(verdicts({ width: 719, height: 1278 })).toMatchObject({ width: 'warning', portrait: 'pass' });
    expect(verdicts({ width: 720, height: 1280 }).width).toBe('pass');
    expect(verdicts({ hasAudio: false }).audio).toBe('warning');
    expect(guideWarnings(guideChecks({ ...phoneReady, hasAudio: false, width: 360, height: 640 }))).toBe(2);
  });

  it('gives the watermark estimate as a pass, a warning or unsure, never counting unsure as a warning', () => {
    expect(verdicts({ watermark: 'not-found' }).watermark).toBe('warning');
    expect(verdicts({ watermark: 'unsure' }).watermark).toBe('unsure');
    expect(guideWarnings(guideChecks({ ...phoneReady, watermark: 'unsure' }))).toBe(0);
  });
});
