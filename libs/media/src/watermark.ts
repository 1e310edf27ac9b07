/**
 * A watermark estimate: how little the top-right corner of the picture changes across frames sampled
 * over the clip, compared with the rest of the picture. A mark burnt into every frame stays the same
 * while the footage under and around it moves; the same corner on the left side is the reference, so
 * a still band across the top (a letterbox, a title bar) does not count as a mark. A signal, never a
 * refusal (ADR 0047).
 */

/** The frames' size (gray, one byte a pixel): enough for a mark a tenth of the width wide. */
export const SAMPLE_SIZE = { width: 96, height: 96 } as const;

/** The regions compared, as fractions of the frame. */
export const WATERMARK_REGIONS = {
  /** Where the guide asks for the mark. */
  topRight: { x0: 0.5, x1: 1, y0: 0, y1: 0.2 },
  /** Its mirror image, the reference for still bands across the top. */
  topLeft: { x0: 0, x1: 0.5, y0: 0, y1: 0.2 },
} as const;

/** Below this many gray levels of typical change (standard deviation over the samples) the picture is too still to tell. */
export const MIN_MOTION = 3;
/** Fewer sampled frames than this cannot tell a mark from a pause. */
export const MIN_SAMPLES = 4;

export interface WatermarkEstimate {
  verdict: 'found' | 'not-found' | 'unsure';
  /** Frames compared. */
  samples: number;
  /** The median change (gray levels) of the picture outside the top corners. */
  motion: number;
  /** Shares of still pixels: in the top-right corner, its mirror on the left, the rest of the frame. */
  stillTopRight: number;
  stillTopLeft: number;
  stillRest: number;
}

type Region = { x0: number; x1: number; y0: number; y1: number };

function inside(region: Region, x: number, y: number, width: number, height: number): boolean {
  return x >= region.x0 * width && x < region.x1 * width && y >= region.y0 * height && y < region.y1 * height;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Estimates from gray frames of `width` x `height` (one byte a pixel, frames back to back). A pixel is
 * still when its standard deviation over the frames is under a fifth of the picture's median change
 * (at least 1.5 levels, for the encoder's noise). A mark is found when at least 4 % of the top-right
 * corner is still, and that is at least twice, and 3 points more than, the share still in its mirror
 * and in the rest of the frame.
 */
export function estimateWatermark(frames: Uint8Array, width: number, height: number): WatermarkEstimate {
  const pixels = width * height;
  const samples = pixels > 0 ? Math.floor(frames.length / pixels) : 0;
  const deviation = new Float64Array(pixels);
  for (let p = 0; p < pixels && samples > 0; p += 1) {
    let sum = 0;
    let squares = 0;
    for (let k = 0; k < samples; k += 1) {
      const v = frames[k * pixels + p]!;
      sum += v;
      squares += v * v;
    }
    const mean = sum / samples;
    deviation[p] = Math.sqrt(Math.max(0, squares / samples - mean * mean));
  }
  const topRight: number[] = [];
  const topLeft: number[] = [];
  const rest: number[] = [];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const value = deviation[y * width + x]!;
      if (inside(WATERMARK_REGIONS.topRight, x, y, width, height)) topRight.push(value);
      else if (inside(WATERMARK_REGIONS.topLeft, x, y, width, height)) topLeft.push(value);
      else rest.push(value);
    }
  }
  const sorted = [...rest].sort((a, b) => a - b);
  const motion = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
  const threshold = Math.max(1.5, motion / 5);
  const stillShare = (values: number[]) => (values.length ? values.filter((v) => v < threshold).length / values.length : 0);
  const stillTopRight = stillShare(topRight);
  const stillTopLeft = stillShare(topLeft);
  const stillRest = stillShare(rest);
  const figures = {
    samples,
    motion: round3(motion),
    stillTopRight: round3(stillTopRight),
    stillTopLeft: round3(stillTopLeft),
    stillRest: round3(stillRest),
  };
  if (samples < MIN_SAMPLES || motion < MIN_MOTION) return { verdict: 'unsure', ...figures };
  const reference = Math.max(stillTopLeft, stillRest);
  const found = stillTopRight >= 0.04 && stillTopRight >= 2 * reference && stillTopRight >= reference + 0.03;
  return { verdict: found ? 'found' : 'not-found', ...figures };
}
