import { describe, expect, it } from '@jest/globals';
import { estimateWatermark } from './watermark.js';

const W = 40;
const H = 40;

/** Frames whose every pixel follows `value(frame, x, y)`. */
function frames(count: number, value: (k: number, x: number, y: number) => number): Uint8Array {
  const out = new Uint8Array(count * W * H);
  for (let k = 0; k < count; k += 1)
    for (let y = 0; y < H; y += 1) for (let x = 0; x < W; x += 1) out[k * W * H + y * W + x] = value(k, x, y);
  return out;
}

/** Footage that changes everywhere: a pattern moving by 7 pixels a frame. */
const footage = (k: number, x: number, y: number) => ((x + y + k * 7) * 37) % 256;
const markTopRight = (x: number, y: number) => x >= 26 && x < 38 && y >= 2 && y < 5;
const markTopLeft = (x: number, y: number) => x >= 2 && x < 14 && y >= 2 && y < 5;

describe('estimateWatermark', () => {
  it('finds a mark that stays the same in the top-right corner while the rest moves', () => {
    const estimate = estimateWatermark(
      frames(8, (k, x, y) => (markTopRight(x, y) ? 255 : footage(k, x, y))),
      W,
      H,
    );
    expect(estimate).toMatchObject({ verdict: 'found', samples: 8, stillTopLeft: 0, stillRest: 0 });
    expect(estimate.stillTopRight).toBeGreaterThan(0.1);
  });

  it('finds none without a mark, or with the mark top left', () => {
    expect(estimateWatermark(frames(8, footage), W, H).verdict).toBe('not-found');
    expect(
      estimateWatermark(
        frames(8, (k, x, y) => (markTopLeft(x, y) ? 255 : footage(k, x, y))),
        W,
        H,
      ).verdict,
    ).toBe('not-found');
  });

  it('does not take a still band across the whole top (a letterbox) for a mark', () => {
    const letterbox = frames(8, (k, x, y) => (y < 6 ? 0 : footage(k, x, y)));
    expect(estimateWatermark(letterbox, W, H)).toMatchObject({ verdict: 'not-found' });
  });

  it('is unsure about a still picture, and about too few frames', () => {
    expect(
      estimateWatermark(
        frames(8, () => 90),
        W,
        H,
      ),
    ).toMatchObject({ verdict: 'unsure', motion: 0 });
    expect(
      estimateWatermark(
        frames(3, (k, x, y) => (markTopRight(x, y) ? 255 : footage(k, x, y))),
        W,
        H,
      ),
    ).toMatchObject({
      verdict: 'unsure',
      samples: 3,
    });
    expect(estimateWatermark(new Uint8Array(0), W, H)).toMatchObject({ verdict: 'unsure', samples: 0 });
  });

  it('tolerates the encoder noise of a couple of gray levels on the mark', () => {
    const noisy = frames(10, (k, x, y) => (markTopRight(x, y) ? 250 + ((k * 3 + x) % 3) : footage(k, x, y)));
    expect(estimateWatermark(noisy, W, H).verdict).toBe('found');
  });
});
