import { describe, expect, it } from '@jest/globals';
import {
  findContentBox,
  frameDetail,
  MIN_FRAME_DETAIL,
  FRAME_SIZE,
  HASH_COEFFICIENTS,
  hashFrames,
  hashGrid,
  HASH_GRID,
  resizeBox,
  zoomBox,
  ZOOMS,
  type ContentBox,
} from './frame-hash.js';

// Specs draw frames of 128, not FRAME_SIZE: every function takes the size, and a quarter of the pixels is a
// quarter of the time.
const S = 128;
const hashOf = (frames: Uint8Array) => hashFrames(frames, S);
const WHOLE: ContentBox = { left: 0, top: 0, right: S, bottom: S };

/** A picture as a function of position in [0, 1)²: gray level, 0–255. */
type Picture = (x: number, y: number) => number;

/**
 * Frames of `size` drawing each picture into `box` (by sampling each pixel's centre), `background` outside it:
 * what ffmpeg's scaled gray frames of a clip, or of a letterboxed copy of it, look like.
 */
function render(pictures: Picture[], box: ContentBox = WHOLE, background = 0, size = S): Uint8Array {
  const out = new Uint8Array(pictures.length * size * size);
  pictures.forEach((picture, k) => {
    for (let y = 0; y < size; y += 1) {
      for (let x = 0; x < size; x += 1) {
        const inside = x >= box.left && x < box.right && y >= box.top && y < box.bottom;
        const value = inside
          ? picture((x + 0.5 - box.left) / (box.right - box.left), (y + 0.5 - box.top) / (box.bottom - box.top))
          : background;
        out[k * size * size + y * size + x] = Math.max(0, Math.min(255, Math.round(value)));
      }
    }
  });
  return out;
}

/** A picture with structure everywhere and nothing symmetric about it: blobs and waves from `seed`. */
function scene(seed: number): Picture {
  const r = (i: number) => {
    const v = Math.sin(seed * 12.9898 + i * 78.233) * 43758.5453;
    return v - Math.floor(v);
  };
  return (x, y) =>
    128 +
    50 * Math.sin(x * (3 + 6 * r(1)) + y * (2 + 5 * r(2)) + 6 * r(3)) +
    40 * Math.cos(y * (4 + 8 * r(4)) - x * (1 + 3 * r(5))) +
    60 * Math.exp(-((x - r(6)) ** 2 + (y - r(7)) ** 2) / 0.02);
}

/**
 * As {@link render}, but each pixel the mean of 4x4 samples: a box whose edges fall inside a pixel blends bar
 * and picture in that pixel, as ffmpeg's area downscale does.
 */
function renderBlended(pictures: Picture[], box: ContentBox): Uint8Array {
  const fine = render(pictures, { left: box.left * 4, top: box.top * 4, right: box.right * 4, bottom: box.bottom * 4 }, 0, S * 4);
  const out = new Uint8Array(pictures.length * S * S);
  for (let k = 0; k < pictures.length; k += 1)
    for (let y = 0; y < S; y += 1)
      for (let x = 0; x < S; x += 1) {
        let sum = 0;
        for (let dy = 0; dy < 4; dy += 1)
          for (let dx = 0; dx < 4; dx += 1) sum += fine[k * 16 * S * S + (y * 4 + dy) * S * 4 + x * 4 + dx]!;
        out[k * S * S + y * S + x] = Math.round(sum / 16);
      }
  return out;
}

/** Whether two boxes agree within `tolerance` pixels on every side. */
const expectBox = (found: ContentBox, expected: ContentBox, tolerance = 0.1) => {
  for (const side of ['left', 'top', 'right', 'bottom'] as const)
    expect(Math.abs(found[side] - expected[side])).toBeLessThanOrEqual(tolerance);
};

const mirror =
  (picture: Picture): Picture =>
  (x, y) =>
    picture(1 - x, y);

function distance(a: string, b: string): number {
  let bits = 0;
  for (let i = 0; i < 16; i += 1) {
    let x = parseInt(a[i]!, 16) ^ parseInt(b[i]!, 16);
    for (; x; x >>= 1) bits += x & 1;
  }
  return bits;
}

/** Hash by hash, the largest distance between two lists of the same length. */
const worst = (a: string[], b: string[]) => Math.max(...a.map((h, i) => distance(h, b[i]!)));

describe('the frame hash', () => {
  it('is 16 lowercase hex digits, half of its 64 bits set (coefficients above their median)', () => {
    const hash = hashGrid(resizeBox(render([scene(1)]), S, 0, WHOLE));
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(distance(hash, '0000000000000000')).toBe(32);
  });

  it('uses only even horizontal frequencies, lowest first, without the DC term', () => {
    expect(HASH_COEFFICIENTS).toHaveLength(64);
    expect(HASH_COEFFICIENTS.every(([u]) => u % 2 === 0)).toBe(true);
    expect(HASH_COEFFICIENTS).not.toContainEqual([0, 0]);
    expect(HASH_COEFFICIENTS.slice(0, 3)).toEqual([
      [0, 1],
      [2, 0],
      [0, 2],
    ]);
  });

  it('is the same for a frame and its mirror image', () => {
    for (const seed of [1, 2, 3, 4]) {
      expect(hashOf(render([mirror(scene(seed))]))).toEqual(hashOf(render([scene(seed)])));
    }
  });

  it('tells different pictures apart', () => {
    const hashes = [1, 2, 3, 4, 5].map((seed) => hashOf(render([scene(seed)]))[0]!);
    for (let i = 0; i < hashes.length; i += 1)
      for (let j = i + 1; j < hashes.length; j += 1) expect(distance(hashes[i]!, hashes[j]!)).toBeGreaterThan(16);
  });

  it('takes FRAME_SIZE frames unless told otherwise', () => {
    expect(hashFrames(render([scene(1)], { left: 0, top: 0, right: FRAME_SIZE, bottom: FRAME_SIZE }, 0, FRAME_SIZE))).toHaveLength(
      ZOOMS.length,
    );
  });

  it('writes one hash per view of ZOOMS for every frame, in order', () => {
    const frames = render([scene(1), scene(2)]);
    const hashes = hashOf(frames);
    expect(hashes).toHaveLength(2 * ZOOMS.length);
    expect(hashes[0]).toBe(hashGrid(resizeBox(frames, S, 0, WHOLE)));
    expect(hashes[ZOOMS.length + 1]).toBe(hashGrid(resizeBox(frames, S, 1, zoomBox(WHOLE, ZOOMS[1]))));
  });

  it("matches a copy cropped 9 % off each edge with the original's zoomed view", () => {
    const picture = scene(7);
    const cropped: Picture = (x, y) => picture(0.09 + 0.82 * x, 0.09 + 0.82 * y);
    const original = hashOf(render([picture]));
    const copy = hashOf(render([cropped]));
    expect(distance(copy[0]!, original[0]!)).toBeGreaterThan(8);
    expect(distance(copy[0]!, original[2]!)).toBeLessThanOrEqual(6);
  });

  it('leaves out near-uniform frames: black, one colour, a faint ripple', () => {
    const flat =
      (level: number): Picture =>
      () =>
        level;
    const ripple: Picture = (x) => 100 + 3 * Math.sin(x * 20);
    expect(hashOf(render([flat(0), flat(128), ripple]))).toEqual([]);
    expect(hashOf(render([flat(0), scene(1), flat(255)]))).toEqual(hashOf(render([scene(1)])));
  });
});

describe('plain frames', () => {
  it('are left out: a smooth gradient, a soft blob, say nothing a thousand other pictures do not', () => {
    const ramp: Picture = (x, y) => 40 + 120 * y + 30 * x;
    const blob: Picture = (x, y) => 60 + 80 * Math.exp(-((x - 0.7) ** 2 + (y - 0.3) ** 2) / 0.2);
    for (const plain of [ramp, blob]) expect(frameDetail(resizeBox(render([plain]), S, 0, WHOLE))).toBeLessThan(MIN_FRAME_DETAIL);
    expect(hashOf(render([ramp, blob]))).toEqual([]);
    expect(hashOf(render([ramp, scene(1), blob]))).toEqual(hashOf(render([scene(1)])));
  });

  it('measure detail as the mean step between neighbouring cells', () => {
    const stripes = render([(x) => (Math.floor(x * HASH_GRID) % 2 ? 200 : 100)]);
    expect(frameDetail(resizeBox(stripes, S, 0, WHOLE))).toBeCloseTo(50, 0);
    expect(frameDetail(resizeBox(render([() => 90]), S, 0, WHOLE))).toBe(0);
  });
});

describe('bars', () => {
  const pictures = [scene(1), scene(2), scene(3)];

  it('finds letterbox and pillarbox bars that stay dark, flat and still in every frame', () => {
    const letterbox = { left: 0, top: 24, right: S, bottom: S - 24 };
    expectBox(findContentBox(render(pictures, letterbox), S), letterbox);
    const pillarbox = { left: 44, top: 0, right: S - 44, bottom: S };
    expectBox(findContentBox(render(pictures, pillarbox), S), pillarbox);
    const windowbox = { left: 16, top: 16, right: S - 16, bottom: S - 16 };
    expectBox(findContentBox(render(pictures, windowbox, 16), S), windowbox);
  });

  it('places an edge that falls inside a pixel (bar and picture blended) to a fraction of a pixel', () => {
    // A 9:16 picture in a 16:9 frame, squeezed to the square: 81 columns of 256, from 87.5.
    const pillarbox = { left: S * 0.341796875, top: 0, right: S * 0.658203125, bottom: S };
    // Rendered once (at four times the size, then averaged): the slowest part of this file.
    const blended = renderBlended(pictures, pillarbox);
    expectBox(findContentBox(blended, S), pillarbox, 0.35);
    const original = hashOf(render(pictures));
    const boxed = hashOf(blended);
    const distances = boxed.map((h, i) => distance(h, original[i]!)).sort((a, b) => a - b);
    // Most within a few bits: the picture lost detail at 81 columns wide, more in the zoomed views.
    expect(distances[Math.floor(distances.length / 2)]).toBeLessThanOrEqual(4);
  });

  it('hashes a boxed copy as its original', () => {
    const original = hashOf(render(pictures));
    expect(worst(hashOf(render(pictures, { left: 44, top: 0, right: S - 44, bottom: S })), original)).toBeLessThanOrEqual(6);
    expect(worst(hashOf(render(pictures, { left: 16, top: 16, right: S - 16, bottom: S - 16 })), original)).toBeLessThanOrEqual(6);
  });

  it('are not found where the picture is dark in some frames only, or moves', () => {
    const darkTop: Picture = (x, y) => (y < 0.2 ? 5 : scene(1)(x, y));
    expect(findContentBox(render([darkTop, scene(2)]), S)).toEqual(WHOLE);
    // Dark and flat in every frame, but not the same dark: a night scene's sky, not a bar.
    const dusk =
      (level: number): Picture =>
      (x, y) =>
        y < 0.2 ? level : scene(level)(x, y);
    expect(findContentBox(render([dusk(2), dusk(30)]), S).top).toBe(0);
  });

  it('never take more than MAX_BAR_SHARE of a side, and ignore the frames they are told to skip', () => {
    const mostlyBlack: Picture = (x, y) => (y > 0.9 ? scene(1)(x, y) : 0);
    expect(findContentBox(render([mostlyBlack]), S).top).toBeLessThanOrEqual(Math.floor(S * 0.35));
    const frames = render([() => 0, scene(1)], { left: 0, top: 20, right: S, bottom: S - 20 });
    expectBox(findContentBox(frames, S, new Set([0])), { left: 0, top: 20, right: S, bottom: S - 20 });
  });
});

describe('resizeBox', () => {
  it('averages areas: a box of two halves gives a grid of two halves', () => {
    const halves = render([(x) => (x < 0.5 ? 0 : 200)]);
    const grid = resizeBox(halves, S, 0, WHOLE);
    expect(grid[0]).toBe(0);
    expect(grid[HASH_GRID - 1]).toBe(200);
    expect(grid[HASH_GRID / 2 - 1]).toBe(0);
  });

  it('takes fractions of pixels at the edges of a zoomed box', () => {
    const ramp = render([(x) => x * 255]);
    const grid = resizeBox(ramp, S, 0, zoomBox(WHOLE, 1.23));
    expect(grid.every(Number.isFinite)).toBe(true);
    expect(grid[0]!).toBeGreaterThan(20);
    expect(zoomBox({ left: 10, top: 0, right: 110, bottom: 100 }, 2)).toEqual({ left: 35, top: 25, right: 85, bottom: 75 });
  });

  it('gives each cell the mean of the area it covers, pixel fractions weighted, in the second frame as in the first', () => {
    // Noise, so every pixel counts; the reference walks each cell's covered area pixel by pixel.
    let seed = 7;
    const frames = Uint8Array.from({ length: 2 * S * S }, () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 23) & 255);
    const box = { left: 3.4, top: 10.75, right: 117.2, bottom: 101.5 };
    const grid = resizeBox(frames, S, 1, box);
    const cw = (box.right - box.left) / HASH_GRID;
    const ch = (box.bottom - box.top) / HASH_GRID;
    const overlap = (a0: number, a1: number, p: number) => Math.max(0, Math.min(a1, p + 1) - Math.max(a0, p));
    for (const [gx, gy] of [
      [0, 0],
      [5, 17],
      [HASH_GRID - 1, HASH_GRID - 1],
      [HASH_GRID / 2, 3],
    ] as const) {
      const [x0, y0] = [box.left + gx * cw, box.top + gy * ch];
      let sum = 0;
      for (let y = Math.floor(y0); y < Math.ceil(y0 + ch); y += 1)
        for (let x = Math.floor(x0); x < Math.ceil(x0 + cw); x += 1)
          sum += overlap(x0, x0 + cw, x) * overlap(y0, y0 + ch, y) * frames[S * S + y * S + x]!;
      expect(grid[gy * HASH_GRID + gx]).toBeCloseTo(sum / (cw * ch), 9);
    }
  });
});
